package safety

import "testing"

// optionsThatRunCases are options of listed programs that run code, read a
// file the project chose or write, found by trying each listed option as a
// hostile model would: each was rated safe before, and each ran its payload
// when pincer ran it without a jail (--sandbox off). engine is the tier
// the engine alone gives (unknown_commands "safe", where the list does not
// apply), which must not be lower.
var optionsThatRunCases = []struct {
	cmd          string
	want, engine Tier
	why          string
}{
	{"jobs -x touch p", Confirm, Confirm, "jobs -x runs the command that follows"},
	{"jobs -x rm -rf /", Dangerous, Dangerous, "what jobs -x runs is judged as itself"},
	{"jobs -lx touch p", Confirm, Confirm, "-x in a cluster"},
	{`wait -n -p 'a[$(touch p)]'`, Confirm, Confirm, "wait -p evaluates the subscript of its name"},
	{"wait -p pid", Confirm, Safe, "wait -p assigns a variable: not on the list"},
	{"man -C mancfg ls", Confirm, Confirm, "man-db's DEFINE pager/tbl/nroff in a project file"},
	{"man --config-file=mancfg ls", Confirm, Confirm, "the long spelling"},
	{"tree -R -L 1 -H .", Confirm, Confirm, "tree -R runs tree through system() with each directory's name"},
	{"tree -H . --hintro=~/.ssh/id_rsa", Confirm, Confirm, "--hintro prints a file's content"},
	{"tree -H . --houtro ~/.ssh/id_rsa", Confirm, Confirm, "--houtro as the next word"},
	{"git config --blob=HEAD:credentials.ini -l", Confirm, Safe, "prints a committed credentials file, like git show HEAD:credentials.ini"},
	{"git config --blob HEAD:.env --list", Confirm, Safe, "the same as the next word"},

	// Globs and types are whitelists in rg, matched before its filter of
	// hidden files: what they select is searched even when it is hidden
	// (in a project whose only secret is .env).
	{"rg -g '.env' KEY", Confirm, Safe, "a glob naming the hidden secret"},
	{"rg -g '*' KEY", Confirm, Safe, "a glob matching every name, dotfiles included"},
	{"rg --iglob '.ENV' KEY", Confirm, Safe, "--iglob"},
	{"rg -t sh KEY", Confirm, Safe, "rg's sh type selects .env"},
	{"rg --iglob '.[e]NV' KEY", Confirm, Safe, "a class in a caseless glob"},

	// What stays proven.
	{"jobs -l", Safe, Safe, "lists jobs"},
	{"wait", Safe, Safe, "waits"},
	{"wait -n %1", Safe, Safe, "waits for one job"},
	{"man ls", Safe, Safe, "a manual page"},
	{"tree -L 2 -H . --hintro=README.md", Safe, Safe, "an ordinary file as the header"},
	{"help -m read", Safe, Safe, "help"},
	{"exit 0", Safe, Safe, "exit"},
	{"git config --blob=HEAD:.gitmodules -l", Safe, Safe, "an ordinary committed file"},
	{"rg -g '*.go' KEY", Safe, Safe, "a glob that selects no secret"},
	{"rg -g '!vendor' KEY", Safe, Safe, "an exclusion selects nothing"},
	{"rg KEY", Safe, Safe, "the hidden .env is skipped"},
}

func TestOptionsThatRun(t *testing.T) {
	engine, err := NewClassifier(Rules{UnknownCommands: UnknownSafe})
	if err != nil {
		t.Fatal(err)
	}
	// A project whose only secret is hidden: rg skips it unless told.
	files := newFakeFiles("README.md", "main.go", "src/a.go", "x.yml", ".env")
	engine = engine.WithFiles(files)
	listed := tableClassifier().WithFiles(files)
	for _, tc := range optionsThatRunCases {
		if v := listed.classify(tc.cmd); v.Tier != tc.want {
			t.Errorf("%q: got %v, want %v (%s)\n\treasons: %q", tc.cmd, v.Tier, tc.want, tc.why, v.Reasons)
		}
		if v := engine.classify(tc.cmd); v.Tier != tc.engine {
			t.Errorf("%q under unknown_commands safe: got %v, want %v (%s)\n\treasons: %q", tc.cmd, v.Tier, tc.engine, tc.why, v.Reasons)
		}
	}
}
