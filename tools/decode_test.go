package tools

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDecodeErrors(t *testing.T) {
	root := tempRoot(t)
	opts := Options{Root: root}
	tests := []struct {
		name  string
		tool  string
		args  string
		wants []string // all must appear in the error text
	}{
		{"invalid JSON", "read_file", `{"path": "a.go",}`, []string{"not valid JSON", "at byte"}},
		{"truncated JSON", "read_file", `{"path": "a.g`, []string{"not valid JSON", "ends before the JSON object is complete"}},
		{"single quotes", "grep", `{'pattern': 'x'}`, []string{"not valid JSON"}},
		{"array instead of object", "read_file", `["a.go"]`, []string{"must be a JSON object", "an array"}},
		{"string instead of object", "read_file", `"a.go"`, []string{"must be a JSON object", "a string"}},
		{"null instead of object", "glob", `null`, []string{"must be a JSON object", "null"}},
		{"missing required", "read_file", `{"offset": 3}`, []string{`missing required argument "path" (string)`}},
		{"missing several required", "edit_file", `{"path": "a"}`, []string{"missing required arguments", `"old_text" (string)`, `"new_text" (string)`}},
		{"empty arguments with required", "run_command", ``, []string{`missing required argument "command"`}},
		{"unknown argument", "read_file", `{"path": "a", "lines": 5}`, []string{`unknown argument "lines"`, "path (required), offset, limit"}},
		{"unknown arguments", "glob", `{"pattern": "*", "dir": ".", "recursive": true}`, []string{`unknown arguments "dir", "recursive"`}},
		{"string for integer", "read_file", `{"path": "a", "offset": "10"}`, []string{`argument "offset" must be an integer, got a string ("10")`}},
		{"fraction for integer", "tree_view", `{"max_depth": 1.5}`, []string{`argument "max_depth" must be an integer, got a number (1.5)`}},
		{"number for string", "read_file", `{"path": 7}`, []string{`argument "path" must be a string, got a number (7)`}},
		{"string for boolean", "edit_file", `{"path":"a","old_text":"x","new_text":"y","replace_all":"true"}`, []string{`argument "replace_all" must be a boolean, got a string ("true")`}},
		{"array for string", "grep", `{"pattern": ["a", "b"]}`, []string{`argument "pattern" must be a string, got an array`}},
		{"below minimum", "read_file", `{"path": "a", "limit": 0}`, []string{`argument "limit" must be at least 1, got 0`}},
		{"above maximum", "run_command", `{"command": "ls", "timeout": 900}`, []string{`argument "timeout" must be at most 600, got 900`}},
		{"null for required", "write_file", `{"path": "a", "content": null}`, []string{`argument "content" is null but required; give a string`}},
		{"too large for int", "read_file", `{"path": "a", "offset": 1e30}`, []string{`argument "offset"`}},
		{"empty path", "read_file", `{"path": "  "}`, []string{`argument "path" is empty`}},
		{"empty command", "run_command", `{"command": ""}`, []string{`argument "command" is empty`}},
		{"identical edit", "edit_file", `{"path":"a","old_text":"x","new_text":"x"}`, []string{`"old_text" and "new_text" are identical`}},
		{"invalid regexp", "grep", `{"pattern": "func (a"}`, []string{`argument "pattern" is not a valid Go (RE2) regular expression`, "missing closing )"}},
		{"lookahead regexp", "grep", `{"pattern": "a(?=b)"}`, []string{`argument "pattern" is not a valid`}},
		{"invalid grep glob", "grep", `{"pattern": "a", "glob": "[a-"}`, []string{`argument "glob" is not a valid glob pattern`}},
		{"invalid glob", "glob", `{"pattern": "src/{a,b"}`, []string{`argument "pattern" is not a valid glob`}},
		{"empty glob", "glob", `{"pattern": ""}`, []string{`argument "pattern" is empty`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := builtin(t, opts, tt.tool)
			_, err := tool.Decode(tt.args)
			if err == nil {
				t.Fatalf("Decode(%s) succeeded, want an error", tt.args)
			}
			var ae *ArgumentError
			if !errors.As(err, &ae) {
				t.Fatalf("error %T is not an *ArgumentError", err)
			}
			msg := err.Error()
			if w := missing(msg, tt.wants...); w != "" {
				t.Errorf("error lacks %q:\n%s", w, msg)
			}
			if w := missing(msg, "invalid arguments for "+tt.tool+": ", "A valid call looks like: {"); w != "" {
				t.Errorf("error lacks %q:\n%s", w, msg)
			}
			// The example in the message must itself be a valid call.
			example := msg[strings.Index(msg, "A valid call looks like: ")+len("A valid call looks like: "):]
			if _, err := tool.Decode(example); err != nil {
				t.Errorf("the example %s does not decode: %v", example, err)
			}
		})
	}
}

func TestDecodeDefaults(t *testing.T) {
	root := tempRoot(t)
	opts := Options{Root: root}
	tree := builtin(t, opts, "tree_view").(*typedTool[treeViewArgs])
	for _, args := range []string{"", "  ", "{}", `{"path": null}`} {
		got, err := tree.decodeArgs(args)
		if err != nil {
			t.Fatalf("decode %q: %v", args, err)
		}
		if got != (treeViewArgs{Path: ".", MaxDepth: 2}) {
			t.Errorf("decode %q = %+v, want the defaults", args, got)
		}
	}
	got, err := tree.decodeArgs(`{"path": "agent", "max_depth": 5}`)
	if err != nil || got != (treeViewArgs{Path: "agent", MaxDepth: 5}) {
		t.Fatalf("decode = %+v, %v", got, err)
	}

	rc := builtin(t, Options{Root: root, CommandTimeout: 90 * time.Second}, "run_command").(*typedTool[runCommandArgs])
	args, err := rc.decodeArgs(`{"command": "ls"}`)
	if err != nil || args.Timeout != 90 {
		t.Fatalf("run_command default timeout = %d (%v), want the configured 90 s", args.Timeout, err)
	}
	args, err = rc.decodeArgs(`{"command": "ls", "timeout": 600}`)
	if err != nil || args.Timeout != 600 {
		t.Fatalf("run_command timeout 600 = %d (%v), want it accepted", args.Timeout, err)
	}
}
