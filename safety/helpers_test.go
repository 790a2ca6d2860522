package safety

import "testing"

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pat, s string
		want   bool
	}{
		{"*", "", true}, {"*", "anything", true}, {"go", "go", true}, {"go", "got", false},
		{"feature-*", "feature-x", true}, {"feature-*", "feature", false}, {"*.go", "a/b.go", true},
		{"?", "a", true}, {"?", "", false}, {"a*b*c", "aXbYc", true}, {"a*b*c", "aXbY", false},
		{"**", "x", true}, {"v?.*", "v1.2", true},
	} {
		if got := globMatch(tc.pat, tc.s); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v", tc.pat, tc.s, got)
		}
	}
}

func TestModeRisk(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		risky bool
	}{
		{"777", true}, {"0777", true}, {"666", true}, {"1777", true}, {"4755", true}, {"2755", true},
		{"755", false}, {"644", false}, {"600", false}, {"1755", false}, {"775", false},
		{"a+rwx", true}, {"o+w", true}, {"ugo=rwx", true}, {"u+s", true}, {"g+s", true}, {"o=u", true},
		{"+x", false}, {"u+rwx", false}, {"g+w", false}, {"a-w", false}, {"o-rwx", false}, {"=rwx", false}, {"", false},
	} {
		if got := modeRisk(tc.mode) != ""; got != tc.risky {
			t.Errorf("modeRisk(%q) = %q, want risky=%v", tc.mode, modeRisk(tc.mode), tc.risky)
		}
	}
}

func TestSedEffects(t *testing.T) {
	for _, tc := range []struct {
		script string
		kinds  string
	}{
		{"s/a/b/g", ""}, {"1,10p", ""}, {"/x/d", ""}, {"s|a|b|", ""}, {"y/abc/xyz/", ""},
		{"s/a/b/w out", "w"}, {"w out", "w"}, {"1e ls", "e"}, {"s/a/b/e", "e"},
		{":a;N;$!ba;s/\\n/ /g", ""}, {":a;w x", "w"}, {"/start/,/end/{s/a/b/;w f\n}", "w"},
		{"a text ; w not-a-command", ""}, {"$!d", ""}, {"s/a", "?"}, {"k", "?"},
	} {
		got := ""
		for _, e := range sedEffects(tc.script) {
			got += string(e.kind)
		}
		if got != tc.kinds {
			t.Errorf("sedEffects(%q) = %q, want %q", tc.script, got, tc.kinds)
		}
	}
}

func TestPlacePath(t *testing.T) {
	for _, tc := range []struct {
		path, cwd, want string
		project         bool
	}{
		{"a/b", "", "a/b", true},
		{"../x", "", "../x", false},
		{"x", "sub", "sub/x", true},
		{"../../x", "sub", "../x", false},
		{"hosts", "/etc", "/etc/hosts", false},
		{".bashrc", "~", "~/.bashrc", false},
		{"~/.ssh/x", "", "~/.ssh/x", false},
		{`C:\Windows\x`, "", "c:/windows/x", false},
		{"x", "?", "?/x", false},
		{unknownMark + "/.bashrc", "", "?/.bashrc", false},
	} {
		l := placePath(tc.path, tc.cwd)
		if l.path != tc.want || l.project != tc.project {
			t.Errorf("placePath(%q, %q) = %+v, want %q project=%v", tc.path, tc.cwd, l, tc.want, tc.project)
		}
	}
}

func TestGetopt(t *testing.T) {
	fs := func(ss ...string) []field {
		out := make([]field, len(ss))
		for i, s := range ss {
			out[i] = field{s: s}
		}
		return out
	}
	ps := getopt(fs("x", "-rf", "--force", "-o", "out", "--", "-y"), optSpec{shortArg: "o"})
	if !ps.has("r", 0) || !ps.has("f", 1, "force") || len(ps.operands) != 2 || ps.operands[1].s != "-y" {
		t.Errorf("getopt GNU style: %+v", ps)
	}
	if v, _ := ps.value("o", 0); v != "out" {
		t.Errorf("-o value = %q", v)
	}
	ps = getopt(fs("-n", "5", "rm", "-rf", "x"), optSpec{shortArg: "n", posix: true})
	if ps.rest != 2 || len(ps.operands) != 3 {
		t.Errorf("getopt posix: rest %d, operands %d", ps.rest, len(ps.operands))
	}
	ps = getopt(fs("--rec", "--signal=KILL"), optSpec{})
	if !ps.has("", 3, "recursive") || ps.has("", 3, "force") {
		t.Errorf("abbreviated long options: %+v", ps)
	}
}
