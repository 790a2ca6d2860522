package safety

import (
	"fmt"
	"strings"
	"testing"
)

// keyProject holds private keys under names that do not say so, beside
// ordinary files, and a key-holding file whose name sniffName passes over.
func keyProject() *fakeFiles {
	return newFakeFiles("README.md", "main.go", "notes", "src/a.go", "deploy_key (key)", "ops/server (key)",
		"ops/run.sh", "keys/", "docs/intro.md", "data.csv (key)", "link -> deploy_key", "src/util/c.go")
}

// TestReadsOfAKeyByContent checks that a command reading a file that holds
// a private key asks whatever the file is called, that ordinary reads stay
// safe, and that trees and patterns are looked into where a key could be.
func TestReadsOfAKeyByContent(t *testing.T) {
	c := tableClassifier().WithFiles(keyProject())
	cases := []struct {
		cmd  string
		want Tier
		why  string // part of the reason, for a confirm
	}{
		{"cat deploy_key", Confirm, "reads deploy_key (holds a private key)"},
		{"head -n 3 deploy_key", Confirm, "holds a private key"},
		{"tail ops/server", Confirm, "reads ops/server (holds a private key)"},
		{"less deploy_key", Confirm, "holds a private key"},
		{"grep BEGIN deploy_key", Confirm, "holds a private key"},
		{"wc -l < deploy_key", Confirm, "holds a private key"},
		{"cat link", Confirm, "holds a private key"},
		{"cd ops && cat server", Confirm, "holds a private key"},
		{"cat data.csv", Confirm, "holds a private key"}, // named outright: always looked into
		{"cat notes", Safe, ""},
		{"head main.go README.md", Safe, ""},
		{"grep -n foo notes src/a.go", Safe, ""},
		{"cat *", Confirm, "reads deploy_key (holds a private key)"},
		{"cat *.csv", Safe, ""}, // a pattern's .csv matches are not opened
		{"rg foo", Confirm, "including deploy_key, which holds a private key"},
		{"rg foo src docs", Safe, ""},
		{"grep -r foo ops", Confirm, "including ops/server, which holds a private key"},
		{"grep -r --exclude=server foo ops", Safe, ""},
		{"rg foo deploy_key", Confirm, "reads deploy_key (holds a private key)"},
		{"rg foo o*", Confirm, "ops/server, which holds a private key"},
	}
	for _, tc := range cases {
		v := c.Classify(tc.cmd)
		reasons := strings.Join(v.Reasons, "\n")
		if v.Tier != tc.want || !strings.Contains(reasons, tc.why) {
			t.Errorf("%q: got %v %q, want %v with %q", tc.cmd, v.Tier, reasons, tc.want, tc.why)
		}
	}
}

// TestKeySniffBudget checks that a tree with more files worth opening
// than one classification may read is not called safe: it is said to be
// beyond checking.
func TestKeySniffBudget(t *testing.T) {
	var paths []string
	for i := 0; i < 2*maxSniffBytes/(64<<10); i++ {
		paths = append(paths, fmt.Sprintf("bin/tool%d", i))
	}
	many := tableClassifier().WithFiles(newFakeFiles(paths...))
	v := many.Classify("rg foo bin")
	if v.Tier != Confirm || !strings.Contains(strings.Join(v.Reasons, "\n"), "cannot check for secrets") {
		t.Errorf("rg over %d extensionless files: got %v %q, want confirm as beyond checking", len(paths), v.Tier, v.Reasons)
	}
	// Files named one by one are each opened, within the same budget.
	cmd := "cat"
	for _, p := range paths {
		cmd += " " + p
	}
	v = many.Classify(cmd)
	if v.Tier != Confirm || !strings.Contains(strings.Join(v.Reasons, "\n"), "cannot check it for a private key") {
		t.Errorf("cat of %d files: got %v %q, want confirm as beyond checking", len(paths), v.Tier, v.Reasons)
	}
	few := tableClassifier().WithFiles(newFakeFiles(paths[:8]...))
	for _, cmd := range []string{"rg foo bin", "cat " + strings.Join(paths[:8], " ")} {
		if v := few.Classify(cmd); v.Tier != Safe {
			t.Errorf("%s: got %v %q, want safe", cmd, v.Tier, v.Reasons)
		}
	}
}

func TestSniffName(t *testing.T) {
	for name, want := range map[string]bool{
		"deploy_key": true, "server": true, "Makefile": true, "signing.asc": true, "k.p8": true, "api-key.json": true,
		"private.yaml": true, "notes.txt": true, ".hidden": true,
		"privatekey_test.go": false, "keys.go": false, "config.json": false,
		"main.go": false, "README.md": false, "data.csv": false, "go.sum": false, "logo.png": false,
	} {
		if got := sniffName(name); got != want {
			t.Errorf("sniffName(%q) = %v, want %v", name, got, want)
		}
	}
}
