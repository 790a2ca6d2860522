package tools

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// Outputs below were captured from the real programs (Python 3.11, Node 20,
// Go 1.26, rustc 1.95, bash, dash, zsh) or copied from their documented
// messages (Windows cmd and PowerShell), with paths shortened.

const pyTraceback = `Traceback (most recent call last):
  File "/home/ana/proj/tools/report.py", line 3, in <module>
    import yaml
ModuleNotFoundError: No module named 'yaml'
`

const pyDottedTraceback = `Traceback (most recent call last):
  File "/home/ana/proj/t.py", line 2, in <module>
    import cv2.aruco
ModuleNotFoundError: No module named 'cv2'
`

const pytestCollection = `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.3.2, pluggy-1.5.0
rootdir: /home/ana/proj
collected 0 items / 2 errors

==================================== ERRORS ====================================
_____________________ ERROR collecting tests/test_model.py _____________________
ImportError while importing test module '/home/ana/proj/tests/test_model.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_model.py:3: in <module>
    from sklearn.linear_model import LinearRegression
E   ModuleNotFoundError: No module named 'sklearn'
_____________________ ERROR collecting tests/test_io.py ________________________
tests/test_io.py:1: in <module>
    import yaml
E   ModuleNotFoundError: No module named 'yaml'
=========================== short test summary info ============================
ERROR tests/test_model.py
ERROR tests/test_io.py
!!!!!!!!!!!!!!!!!!! Interrupted: 2 errors during collection !!!!!!!!!!!!!!!!!!!!
============================== 2 errors in 0.31s ===============================
`

const pytestAssertion = `=================================== FAILURES ===================================
____________________________ test_missing_message _____________________________

    def test_missing_message():
        err = load_plugin("nope")
>       assert "No module named 'nope'" in str(err)
E       AssertionError: assert "No module named 'nope'" in "plugin nope is not registered"
E        +  where "plugin nope is not registered" = str(PluginError('plugin nope is not registered'))

tests/test_plugins.py:12: AssertionError
=========================== short test summary info ============================
FAILED tests/test_plugins.py::test_missing_message - AssertionError: assert "No module named 'nope'" in "plugin nope is not regis...
============================== 1 failed in 0.05s ===============================
`

const pyRelative = `Traceback (most recent call last):
  File "/home/ana/proj/pkg/m.py", line 1, in <module>
    from . import helpers
ImportError: attempted relative import with no known parent package
`

const nodeRequire = `node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module 'left-pad'
Require stack:
- /home/ana/proj/index.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at Module.require (node:internal/modules/cjs/loader:1289:19)
    at require (node:internal/modules/helpers:182:18)
    at Object.<anonymous> (/home/ana/proj/index.js:1:17)
    at Module._compile (node:internal/modules/cjs/loader:1521:14) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [ '/home/ana/proj/index.js' ]
}

Node.js v20.20.2
`

const nodeESM = `node:internal/modules/esm/resolve:873
  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);
        ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'chalk' imported from /home/ana/proj/cli.mjs
    at packageResolve (node:internal/modules/esm/resolve:873:9)
    at moduleResolve (node:internal/modules/esm/resolve:946:18)
    at defaultResolve (node:internal/modules/esm/resolve:1188:11)
    at ModuleLoader.defaultResolve (node:internal/modules/esm/loader:708:12) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v20.20.2
`

const nodeESMRelative = `node:internal/modules/esm/resolve:283
    throw new ERR_MODULE_NOT_FOUND(
          ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/home/ana/proj/lib/missing.js' imported from /home/ana/proj/cli.mjs
    at finalizeResolution (node:internal/modules/esm/resolve:283:11)
    at moduleResolve (node:internal/modules/esm/resolve:952:10) {
  code: 'ERR_MODULE_NOT_FOUND',
  url: 'file:///home/ana/proj/lib/missing.js'
}

Node.js v20.20.2
`

const goBuildMissing = `main.go:6:2: no required module provides package github.com/google/uuid; to add it:
	go get github.com/google/uuid
main.go:7:2: no required module provides package github.com/spf13/pflag; to add it:
	go get github.com/spf13/pflag
main.go:6:2: no required module provides package github.com/google/uuid; to add it:
	go get github.com/google/uuid
`

const goBuildLocal = `main.go:8:2: no required module provides package example.com/demo/internal/missing; to add it:
	go get example.com/demo/internal/missing
main.go:9:2: package foo/bar is not in std (/usr/local/go/src/foo/bar)
`

const rustUnresolved = "   Compiling hr v0.1.0 (/home/ana/hr)\n" +
	"error[E0432]: unresolved import `regex`\n --> src/main.rs:1:5\n  |\n1 | use regex::Regex;\n" +
	"  |     ^^^^^ use of unresolved module or unlinked crate `regex`\n  |\n" +
	"  = help: if you wanted to use a crate named `regex`, use `cargo add regex` to add it to your `Cargo.toml`\n\n" +
	"error[E0432]: unresolved import `crate::helpers`\n --> src/main.rs:3:12\n  |\n3 | use crate::helpers::x;\n" +
	"  |            ^^^^^^^ could not find `helpers` in the crate root\n\n" +
	"error[E0433]: failed to resolve: use of undeclared crate or module `serde_json`\n --> src/main.rs:4:37\n" +
	"  |\n4 |     serde_json::to_string(&1).unwrap();\n  |     ^^^^^^^^^^ use of undeclared crate or module `serde_json`\n\n" +
	"error: could not compile `hr` (bin \"hr\") due to 3 previous errors\n"

const powershell5 = `rg : The term 'rg' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the
spelling of the name, or if a path was included, verify that the path is correct and try again.
At line:1 char:1
+ rg TODO
+ ~~
    + CategoryInfo          : ObjectNotFound: (rg:String) [], CommandNotFoundException
    + FullyQualifiedErrorId : CommandNotFoundException
`

func TestSuggestFix(t *testing.T) {
	tests := []struct {
		name    string
		command string
		output  string
		files   map[string]string // the project's files; a name ending in / is a directory
		want    []string          // parts the suggestion must hold; none means no suggestion
	}{
		// Python
		{"python traceback", "python3 tools/report.py", pyTraceback, nil,
			[]string{"`python3 -m pip install PyYAML`", "PyYAML provides yaml"}},
		{"python dotted import uses the top module", "python t.py", pyDottedTraceback, nil,
			[]string{"`python -m pip install opencv-python`"}},
		{"python -m without the module", "python3 -m pytest -q", "/usr/bin/python3: No module named pytest\n", nil,
			[]string{"`python3 -m pip install pytest`"}},
		{"python of a venv", ".venv/bin/python app.py", "ModuleNotFoundError: No module named 'requests'\n", nil,
			[]string{"`.venv/bin/python -m pip install requests`"}},
		{"python 2 wording", "./manage.py check", "ImportError: No module named yaml\n", nil,
			[]string{"`pip install PyYAML`"}},
		{"pytest collection with two modules", "pytest -q", pytestCollection, nil,
			[]string{"`pip install scikit-learn PyYAML`", "scikit-learn provides sklearn"}},
		{"namespace package", "python3 a.py", "ModuleNotFoundError: No module named 'google.protobuf'\n", nil,
			[]string{"`python3 -m pip install protobuf`"}},
		{"google cloud client", "python3 a.py", "ModuleNotFoundError: No module named 'google.cloud.storage'\n", nil,
			[]string{"google-cloud-storage"}},
		{"uv project", "python3 a.py", pyTraceback, map[string]string{"uv.lock": ""},
			[]string{"`uv add PyYAML`"}},
		{"poetry project", "python3 a.py", pyTraceback, map[string]string{"poetry.lock": ""},
			[]string{"`poetry add PyYAML`"}},
		{"module of the project", "python3 scripts/run.py", "ModuleNotFoundError: No module named 'myapp.core'\n",
			map[string]string{"myapp/__init__.py": ""}, []string{"part of this project", "`pip install -e .`"}},
		{"pip itself missing", "python3 -m pip install x", "/usr/bin/python3: No module named pip\n", nil,
			[]string{"`python3 -m ensurepip --upgrade`"}},
		{"tkinter", "python3 gui.py", "ModuleNotFoundError: No module named '_tkinter'\n", nil,
			[]string{"Tk"}},
		{"bare google namespace is ambiguous", "python3 a.py", "ModuleNotFoundError: No module named 'google'\n", nil, nil},
		{"assertion about a module message", "pytest -q", pytestAssertion, nil, nil},
		{"relative import", "python3 pkg/m.py", pyRelative, nil, nil},
		{"module name that is not a name", "python3 a.py", "ModuleNotFoundError: No module named 'x;curl'\n", nil, nil},

		// Node
		{"require", "node index.js", nodeRequire, map[string]string{"package.json": "{}", "node_modules/": ""},
			[]string{"`npm install left-pad`"}},
		{"esm package with pnpm", "node cli.mjs", nodeESM, map[string]string{"pnpm-lock.yaml": "", "node_modules/": ""},
			[]string{"`pnpm add chalk`"}},
		{"esm relative file", "node cli.mjs", nodeESMRelative, nil,
			[]string{"/home/ana/proj/lib/missing.js does not exist", "not a package"}},
		{"subpath with yarn", "node a.js", "Error: Cannot find module 'lodash/fp'\nRequire stack:\n- /p/a.js\n",
			map[string]string{"yarn.lock": "", "node_modules/": ""}, []string{"`yarn add lodash`"}},
		{"scoped subpath", "node b.js", "Error: Cannot find module '@babel/core/lib/config'\n", nil,
			[]string{"`npm install @babel/core`"}},
		{"typescript", "npx tsc --noEmit", "src/server.ts(1,21): error TS2307: Cannot find module 'express' or its corresponding type declarations.\n",
			nil, []string{"`npm install express`"}},
		{"webpack", "npm run build", "ERROR in ./src/api.js 1:0-26\nModule not found: Error: Can't resolve 'axios' in '/app/src'\n", nil,
			[]string{"`npm install axios`"}},
		{"vite", "npm run dev", `[vite] Internal server error: Failed to resolve import "react-router-dom" from "src/App.tsx". Does the file exist?`, nil,
			[]string{"`npm install react-router-dom`"}},
		{"dependencies never installed", "node index.js", nodeRequire, map[string]string{"package.json": "{}"},
			[]string{"`npm install`", "no node_modules"}},

		// Go
		{"go build with two missing modules", "go build ./...", goBuildMissing, map[string]string{"go.mod": "module example.com/demo\n\ngo 1.26\n"},
			[]string{"`go get github.com/google/uuid github.com/spf13/pflag`"}},
		{"go package of this module", "go vet ./...", goBuildLocal, map[string]string{"go.mod": "module example.com/demo\n"},
			[]string{"part of this module (example.com/demo)", "check the import path"}},
		{"go import path without domain", "go build .", "main.go:9:2: package foo/bar is not in std (/usr/local/go/src/foo/bar)\n",
			map[string]string{"go.mod": "module example.com/demo\n"}, []string{"imported as example.com/demo/foo/bar"}},
		{"go.sum out of date", "go build ./...", "main.go:6:2: missing go.sum entry for module providing package github.com/google/uuid (imported by example.com/demo); to add:\n\tgo get example.com/demo\n", nil,
			[]string{"`go mod tidy`"}},
		{"no go.mod", "go build .", "go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n", nil,
			[]string{"`go mod init example.com/"}},
		{"gopath mode", "go build", "main.go:4:2: cannot find package \"github.com/pkg/errors\" in any of:\n\t/usr/local/go/src/github.com/pkg/errors (from $GOROOT)\n\t/home/ana/go/src/github.com/pkg/errors (from $GOPATH)\n", nil,
			[]string{"`go mod init example.com/", "`go get github.com/pkg/errors`"}},

		// Rust
		{"rust unresolved crates", "cargo build", rustUnresolved, nil,
			[]string{"`cargo add regex serde_json`"}},
		{"extern crate", "cargo build", "error[E0463]: can't find crate for `rand`\n --> src/main.rs:1:1\n", nil,
			[]string{"`cargo add rand`"}},
		{"undeclared local module", "cargo build", "error[E0432]: unresolved import `util`\n  |     ^^^^ use of undeclared crate or module `util`\n",
			map[string]string{"src/util.rs": ""}, []string{"`mod util;`"}},
		{"missing target", "cargo build --target wasm32-unknown-unknown", "error[E0463]: can't find crate for `core`\n  |\n  = note: the `wasm32-unknown-unknown` target may not be installed\n", nil,
			[]string{"`rustup target add wasm32-unknown-unknown`"}},
		{"cargo clippy", "cargo clippy", "error: no such command: `clippy`\n", nil,
			[]string{"`rustup component add clippy`"}},

		// Ruby
		{"ruby require", "ruby app.rb", "<internal:/usr/lib/ruby/3.2.0/rubygems/core_ext/kernel_require.rb>:85:in `require': cannot load such file -- nokogiri (LoadError)\n", nil,
			[]string{"`gem install nokogiri`"}},
		{"ruby with Bundler", "ruby app.rb", "app.rb:1:in `require': cannot load such file -- active_support/core_ext (LoadError)\n",
			map[string]string{"Gemfile": ""}, []string{"`bundle add activesupport`"}},
		{"bundle not installed", "bundle exec rspec", "Could not find gem 'rspec' in locally installed gems.\nRun `bundle install` to install missing gems.\n", nil,
			[]string{"`bundle install`"}},
		{"ruby relative path", "ruby app.rb", "app.rb:1:in `require_relative': cannot load such file -- /home/ana/proj/lib/util (LoadError)\n", nil,
			[]string{"check the path"}},

		// Shared libraries
		{"shared library", "./bin/tool", "./bin/tool: error while loading shared libraries: libssl.so.3: cannot open shared object file: No such file or directory\n", nil,
			[]string{"libssl.so.3"}},

		// Programs
		{"bash", "rg TODO", "bash: line 1: rg: command not found\n", nil, []string{"ripgrep"}},
		{"bash older wording", "fd -e go", "bash: fd: command not found\n", nil, []string{"fd-find"}},
		{"zsh", "jq .name package.json", "zsh:1: command not found: jq\n", nil, []string{"install jq"}},
		{"dash in an npm script", "npm test", "\n> app@1.0.0 test\n> jest\n\nsh: 1: jest: not found\n",
			map[string]string{"package.json": "{}", "node_modules/": ""}, []string{"`npm install --save-dev jest`", "`npx jest`"}},
		{"make recipe through sh", "make gen", "protoc --go_out=. api.proto\n/bin/sh: 1: protoc: not found\nmake: *** [Makefile:3: gen] Error 127\n", nil,
			[]string{"Protocol Buffers compiler"}},
		{"make running the program itself", "make lint", "golangci-lint run ./...\nmake: golangci-lint: No such file or directory\nmake: *** [Makefile:5: lint] Error 127\n", nil,
			[]string{"golangci-lint"}},
		{"windows cmd", "rg TODO", "'rg' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n", nil,
			[]string{"ripgrep"}},
		{"powershell 5", "rg TODO", powershell5, nil, []string{"ripgrep"}},
		{"powershell 7", "pytest", "pytest: The term 'pytest' is not recognized as a name of a cmdlet, function, script file, or executable program.\nCheck the spelling of the name, or if a path was included, verify that the path is correct and try again.\n", nil,
			[]string{"`pip install pytest`"}},
		{"fish", "jq .", "fish: Unknown command: jq\n", nil, []string{"install jq"}},
		{"exec from a go program", "task build", `task: Failed to run task "build": exec: "protoc": executable file not found in $PATH` + "\n", nil,
			[]string{"protoc"}},
		{"python cli in a uv project", "pytest -q", "bash: line 1: pytest: command not found\n", map[string]string{"uv.lock": ""},
			[]string{"`uv run pytest`"}},
		{"typescript compiler not in the project", "tsc --noEmit", "bash: line 1: tsc: command not found\n", nil,
			[]string{"`npm install --save-dev typescript`"}},
		{"typescript compiler in the project", "tsc --noEmit", "bash: line 1: tsc: command not found\n",
			map[string]string{"package.json": "{}", "node_modules/.bin/tsc": ""}, []string{"`npx tsc`"}},
		{"eslint before npm install", "eslint .", "bash: line 1: eslint: command not found\n", map[string]string{"package.json": "{}", "yarn.lock": ""},
			[]string{"`yarn install`"}},
		{"go tool", "goimports -l .", "bash: line 1: goimports: command not found\n", nil,
			[]string{"`go install golang.org/x/tools/cmd/goimports@latest`"}},
		{"python is python3 here", "python app.py", "bash: line 1: python: command not found\n", nil, []string{"python3"}},
		{"alias", "ll", "bash: line 1: ll: command not found\n", nil, []string{"`ls -l`"}},
		{"unknown program", "frobnicate --all", "bash: line 1: frobnicate: command not found\n", nil,
			[]string{"frobnicate is not installed or not on PATH"}},
		{"missing script path", "./gradlew build", "bash: line 1: ./gradlew: No such file or directory\n", nil,
			[]string{"./gradlew does not exist", "check the path"}},
		{"missing interpreter via env", "./gen.py", "/usr/bin/env: ‘python’: No such file or directory\n", nil,
			[]string{"python3"}},
		{"missing interpreter path", "./run.sh", "bash: line 1: ./run.sh: cannot execute: required file not found\n", nil,
			[]string{"first line (#!) of ./run.sh"}},
		{"program name that is not a name", "x", "bash: line 1: $(id): command not found\n", nil, nil},

		// Failures that are not about anything missing.
		{"missing data file", "cat notes.txt", "cat: notes.txt: No such file or directory\n", nil, nil},
		{"go test failure", "go test ./...", "--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 3, want 4\nFAIL\nFAIL\texample.com/demo\t0.004s\nFAIL\n", nil, nil},
		{"compile error", "go build ./...", "./main.go:5:2: undefined: foo\n", nil, nil},
		{"syntax error", "python3 a.py", "  File \"a.py\", line 1\n    def f(\n         ^\nSyntaxError: '(' was never closed\n", nil, nil},
		{"assertion quoting a shell error", "pytest -q", "E       AssertionError: assert 'bash: rg: command not found' == ''\n", nil, nil},
		{"nothing printed", "grep -q TODO main.go", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tempRoot(t)
			writeFiles(t, root, tt.files)
			got := SuggestFix(tt.command, tt.output, root)
			if len(tt.want) == 0 {
				if got != "" {
					t.Fatalf("SuggestFix suggested %q; want nothing", got)
				}
				return
			}
			if w := missing(got, tt.want...); w != "" {
				t.Errorf("SuggestFix = %q\nlacks %q", got, w)
			}
			if strings.ContainsAny(got, "\r\n") || len(got) > 300 {
				t.Errorf("SuggestFix = %q: want one line of at most 300 bytes", got)
			}
			if bad := unsafeCommand(got); bad != "" {
				t.Errorf("SuggestFix = %q suggests the command %q, which is not a plain install or path check", got, bad)
			}
		})
	}
}

// suggestedCommand is what a command in a suggestion may start with:
// package managers adding packages, and harmless checks.
var suggestedCommand = regexp.MustCompile(`^(\S*python[0-9.]* -m (pip install|ensurepip --upgrade)|pip install|uv (add|run)|poetry (add|run)|pipenv install|npm install|pnpm (add|install|exec)|yarn( add| install)?|bun (add|install)|bunx|npx|go (get|mod tidy|mod init|install)|cargo (add|install)|rustup (target|component) add|gem install|bundle (add|install)|corepack enable|pipx install|python3 \S+$|ls|sh|mod \w+;$)`)

// unsafeCommand returns the first `command` in a suggestion that is not a
// plain install or check, or that could do more than its words say.
func unsafeCommand(s string) string {
	parts := strings.Split(s, "`")
	for i := 1; i < len(parts); i += 2 {
		c := parts[i]
		if !suggestedCommand.MatchString(c) {
			return c
		}
		for _, bad := range []string{"sudo", "|", "&&", ">", "$(", "rm -", "curl", "wget"} {
			if strings.Contains(c, bad) {
				return c
			}
		}
	}
	return ""
}

func TestRunCommandSuggestion(t *testing.T) {
	root := tempRoot(t)
	tests := []struct {
		name    string
		command string
		want    string // a part the result must hold; "" means no suggestion line
	}{
		{"a program that is not there", "pincer-no-such-program --version", "Suggestion: the program pincer-no-such-program is not installed or not on PATH"},
		{"a failure that prints the words", "echo 'bash: line 1: rg: command not found'; exit 127", "Suggestion: the command rg is not installed; install ripgrep"},
		{"success that prints the words", "echo 'bash: line 1: rg: command not found'", ""},
		{"an ordinary failure", "echo 'tests failed'; exit 1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, Options{Root: root}, "run_command", commandJSON(t, tt.command))
			if tt.want == "" {
				if strings.Contains(res.Content, "Suggestion:") {
					t.Errorf("result has a suggestion:\n%s", res.Content)
				}
				return
			}
			if !res.IsError {
				t.Errorf("a failed command is not an error result:\n%s", res.Content)
			}
			last := res.Content[strings.LastIndexByte(res.Content, '\n')+1:]
			if !strings.HasPrefix(last, tt.want) {
				t.Errorf("last line = %q; want it to start with %q\nresult:\n%s", last, tt.want, res.Content)
			}
		})
	}
}

func TestRunCommandSuggestionKeepsCap(t *testing.T) {
	root := tempRoot(t)
	// echo, ; and exit work alike in sh and PowerShell.
	long := "echo '" + strings.Repeat("x", 3000) + "'; echo 'bash: line 1: rg: command not found'; exit 127"
	res := run(t, Options{Root: root, MaxOutput: 1000}, "run_command", commandJSON(t, long))
	if len(res.Content) > 1000 {
		t.Errorf("result is %d bytes, more than MaxOutput 1000", len(res.Content))
	}
	if w := missing(res.Content, "xxxx", "cut from the middle", "rg: command not found\n\n[exit code 127]\nSuggestion: the command rg is not installed"); w != "" {
		t.Errorf("result lacks %q:\n%s", w, res.Content)
	}
}

// commandJSON is run_command's arguments for command.
func commandJSON(t *testing.T, command string) string {
	t.Helper()
	b, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func BenchmarkSuggestFix(b *testing.B) {
	// A long failing test log with the error at the end: the common case
	// that must stay cheap next to running the command.
	output := strings.Repeat("=== RUN   TestSomething\n--- PASS: TestSomething (0.00s)\n", 500) + pytestCollection
	for b.Loop() {
		SuggestFix("pytest -q", output, "")
	}
}

func BenchmarkSuggestFixNothing(b *testing.B) {
	// A long failing log with nothing missing: every detector looks.
	output := strings.Repeat("=== RUN   TestParse\n    parse_test.go:12: got 3, want 4\n--- FAIL: TestParse (0.00s)\n", 400)
	for b.Loop() {
		SuggestFix("go test ./...", output, "")
	}
}
