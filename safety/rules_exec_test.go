package safety

import "testing"

// TestAllowDoesNotVouchForHiddenCode checks that an allow rule for a
// command does not lower what the rule cannot see: another repository's
// configuration, a program named in an option, text the shell evaluates.
func TestAllowDoesNotVouchForHiddenCode(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"git status *", "git log *", "go vet *", "pip list *", "read *", "git fetch *"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"cd /tmp/repo && git status",
		"git -C /tmp/repo status",
		"git --git-dir=/tmp/x.git log",
		"git -c core.fsmonitor=/tmp/x status",
		"git fetch --upload-pack=/tmp/x origin",
		"go vet -vettool=/tmp/x ./...",
		"pip list --python /tmp/py",
		"read 'a[$(touch /tmp/x)]' <<< x",
	} {
		if v := c.Classify(cmd); v.Tier == Safe {
			t.Errorf("%q: an allow rule made it safe (%s)", cmd, v.Rule)
		}
	}
	for _, cmd := range []string{"git status --short", "go vet ./...", "git fetch origin"} {
		if v := c.Classify(cmd); v.Tier != Safe {
			t.Errorf("%q: %v, want safe under its allow rule", cmd, v.Tier)
		}
	}
}

// TestAllowRulesDoNotCoverWhatIsLoadedFromOutside checks that an allow
// rule for a program does not vouch for code or settings it is told to load
// from outside the project: a makefile, template, configuration, preloaded
// module or directory named by an option, a variable that points there, or
// a directory outside the project the command runs in.
func TestAllowRulesDoNotCoverWhatIsLoadedFromOutside(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"git *", "make *", "npm *", "go *", "cargo *", "node *", "pip *", "yarn *", "pnpm *", "python3 *", "bash *", "env *", "deno *", "bun *"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd  string
		want Tier
	}{
		{"git init --template=/tmp/t", Confirm},
		{"git init --template /tmp/t", Confirm},
		{"git init --temp=/tmp/t", Confirm},
		{"git clone --templ=/tmp/t https://example.com/r", Confirm},
		{"git init --separate-git-dir=/tmp/g", Confirm},
		{"make -f /tmp/Makefile", Confirm},
		{"make -f/tmp/Makefile", Confirm},
		{"make -kf /tmp/Makefile", Confirm},
		{"make --file=/tmp/M", Confirm},
		{"make --makef=/tmp/M", Confirm},
		{"make -C /tmp/d", Confirm},
		{"make -C ../other test", Confirm},
		{"make --directory=/tmp/d", Confirm},
		{"make -I /tmp/i", Confirm},
		{"make --include-dir=/tmp/i", Confirm},
		{"gmake -f ~/M", Confirm},
		{"make --eval='include /tmp/evil.mk'", Confirm},
		{"make -E 'include /tmp/e.mk'", Confirm},
		{"make --ev=x", Confirm},
		{"deno run /tmp/x.ts", Confirm},
		{"deno run -A /tmp/x.ts", Confirm},
		{"bun run /tmp/x.js", Confirm},
		{"deno run main.ts", Safe},
		{"bun run build", Safe},
		{"npm --prefix /tmp/p run x", Confirm},
		{"npm run x --prefix=/tmp/p", Confirm},
		{"npm -C /tmp/p test", Confirm},
		{"npm --userconfig /tmp/rc install", Confirm},
		{"npm install --globalconfig=/tmp/g", Confirm},
		{"yarn --cwd /tmp/p build", Confirm},
		{"pnpm -C /tmp/p build", Confirm},
		{"go build -modfile=/tmp/go.mod ./...", Confirm},
		{"go test -overlay=/tmp/o.json ./...", Confirm},
		{"go test -C /tmp/d ./...", Confirm},
		{"cargo build --manifest-path /tmp/Cargo.toml", Confirm},
		{"cargo -Z unstable-options -C /tmp build", Confirm},
		{"node --require /tmp/x.js app.js", Confirm},
		{"node -r /tmp/x app.js", Confirm},
		{"node --import=data:text/javascript,x app.js", Confirm},
		{"node --loader /tmp/x app.js", Confirm},
		{"node --experimental-loader=/tmp/x app.js", Confirm},
		{"pip install -r /tmp/req.txt", Confirm},
		{"MAKEFILES=/tmp/M make", Confirm},
		{"npm_config_userconfig=/tmp/rc npm install", Confirm},
		{"HOME=/tmp/h git commit -m x", Confirm},
		{"XDG_CONFIG_HOME=/tmp/x git commit -m x", Confirm},
		{"PIP_CONFIG_FILE=/tmp/p pip install x", Confirm},
		{"RUSTFLAGS=-Clinker=x cargo build", Confirm},
		{"X=\"$(cat f)\" make", Confirm},
		{"cd /tmp && make", Confirm},
		{"cd .. && npm test", Confirm},
		{"LD_PRELOAD=/tmp/x.so make", Dangerous},
		{"env -C /tmp make", Confirm},
		{"env --chdir=/tmp make", Confirm},
		{"python3 /tmp/x.py", Confirm},
		{"python3 -u ../other/x.py", Confirm},
		{"node /tmp/x.js", Confirm},
		{"bash ~/x.sh", Confirm},
		{"go run /tmp/x.go", Confirm},
		{"go run example.com/tool@latest", Confirm},
		// What the project holds is what the rules vouch for.
		{"git init", Safe},
		{"git commit -m x", Safe},
		{"make -f Makefile.local", Safe},
		{"make -Csub test", Safe},
		{"make -j4 test", Safe},
		{"cd sub && make", Safe},
		{"npm run build", Safe},
		{"go test ./...", Safe},
		{"go build -o /tmp/out .", Safe},
		{"cargo test -p foo", Safe},
		{"node app.js -r /tmp/x", Safe},
		{"node -r ts-node/register app.ts", Safe},
		{"pip install -r requirements.txt", Safe},
		{"DEBUG=1 make test", Safe},
		{"env -C sub make", Safe},
		{"python3 scripts/gen.py /tmp/out", Safe},
		{"python3 -m pytest /tmp/x", Safe},
		{"node app.js", Safe},
		{"bash -c 'make test'", Safe},
		{"go run ./cmd/tool", Safe},
		{"go run . /tmp/arg", Safe},
		{"CGO_ENABLED=0 go build ./...", Safe},
		{"NODE_ENV=production npm run build", Safe},
	}
	for _, tc := range cases {
		if v := c.Classify(tc.cmd); v.Tier != tc.want {
			t.Errorf("%s: %s %q, want %s", tc.cmd, v.Tier, v.Reasons, tc.want)
		}
	}
}
