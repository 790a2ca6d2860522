package cli

import (
	"path/filepath"
	"testing"

	"pincer/safety"
)

// BenchmarkClassifyRgOverRepo is what a recursive search of a real project
// costs to classify: the walk of this repository's tree, and whatever of
// its files' contents the classifier looks into.
func BenchmarkClassifyRgOverRepo(b *testing.B) {
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		b.Fatal(err)
	}
	cls = cls.WithFiles(newDiskFiles(root, b.TempDir()))
	// The whole repository holds session/secrets.go, which ends the walk
	// early; these trees are walked to the end.
	const cmd = "rg foo agent tools safety internal ui docs chat e2e"
	v := cls.Classify(cmd)
	b.Logf("%s: %v %q", cmd, v.Tier, v.Reasons)
	for b.Loop() {
		cls.Classify(cmd)
	}
}
