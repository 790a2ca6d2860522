package gitignore

import (
	"fmt"
	"testing"
)

// BenchmarkIgnored matches the 5,000 files of a project (50 directories)
// against the rules of a real project's .gitignore at the root and a small
// one in each top package: what a checkpoint or a tree walk asks per file.
func BenchmarkIgnored(b *testing.B) {
	rules := "# build output\n/bin/\n/dist/\n*.o\n*.a\n*.so\n*.exe\n*.test\n*.out\ncoverage.*\n" +
		"node_modules/\n.cache/\n*.log\n!keep.log\n.env\n.env.*\n!.env.example\n**/testdata/golden/*.new\n" +
		"[Bb]uild/\n*.sw[!a]\n*~\n.DS_Store\nvendor/**\n!vendor/modules.txt\n"
	root := Stack{}.Push(Parse("", []byte(rules)))
	var pkg [10]Stack
	for d := range pkg {
		pkg[d] = root.Push(Parse(fmt.Sprintf("pkg%02d", d), []byte("*.gen.go\n/tmp/\n")))
	}
	paths := make([]string, 5000)
	for i := range paths {
		d := i % 50
		paths[i] = fmt.Sprintf("pkg%02d/sub%03d/file%05d.go", d%10, d, i)
	}
	b.ResetTimer()
	for range b.N {
		for i, p := range paths {
			if pkg[i%10].Ignored(p, false) {
				b.Fatalf("%s ignored", p)
			}
		}
	}
}
