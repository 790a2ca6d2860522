package transcript

import (
	"strings"
	"testing"
)

func TestKeyArgument(t *testing.T) {
	tests := []struct {
		name      string
		args      string
		wantKey   string
		wantValue string
		wantOK    bool
	}{
		{"empty", ``, "", "", false},
		{"just the brace", `{`, "", "", false},
		{"key cut off", `{"pa`, "", "", false},
		{"key done, no colon", `{"path"`, "", "", false},
		{"colon, no value", `{"path":`, "", "", false},
		{"value opened", `{"path": "`, "path", "", true},
		{"value cut off", `{"path": "src/ma`, "path", "src/ma", true},
		{"complete", `{"path": "src/main.go"}`, "path", "src/main.go", true},
		{"no spaces", `{"path":"a.go","offset":3}`, "path", "a.go", true},
		{"newlines and tabs", "{\n\t\"command\" : \"ls\"\n}", "command", "ls", true},
		{"escaped quote", `{"command": "echo \"hi\" there"}`, "command", `echo "hi" there`, true},
		{"escaped backslash", `{"path": "C:\\dir\\f.go"}`, "path", `C:\dir\f.go`, true},
		{"escaped newline", `{"command": "a\nb"}`, "command", "a\nb", true},
		{"escape cut off", `{"command": "a\`, "command", "a", true},
		{"unicode escape", `{"path": "caf\u00e9.md"}`, "path", "café.md", true},
		{"unicode escape cut off", `{"path": "caf\u00e`, "path", "caf", true},
		{"surrogate pair", `{"pattern": "\ud83d\ude80"}`, "pattern", "🚀", true},
		{"surrogate pair cut in half", `{"pattern": "x\ud83d`, "pattern", "x", true},
		{"surrogate pair cut inside second half", `{"pattern": "x\ud83d\ude`, "pattern", "x", true},
		{"lone surrogate", `{"pattern": "\ud83dz"}`, "pattern", "\uFFFDz", true},
		{"raw utf-8", `{"path": "日本/文書.md"}`, "path", "日本/文書.md", true},
		{"command wins over path", `{"path": "a", "command": "go test"}`, "command", "go test", true},
		{"pattern when no path", `{"pattern": "func \\w+", "glob": "*.go"}`, "pattern", `func \w+`, true},
		{"path before pattern", `{"pattern": "x", "path": "src"}`, "path", "src", true},
		{"skips nested values", `{"opts": {"path": "inner"}, "list": ["a", "}"], "n": -1.5e3, "ok": true, "path": "outer"}`, "path", "outer", true},
		{"nested value cut off", `{"opts": {"path": "inn`, "", "", false},
		{"number cut off", `{"n": 12`, "", "", false},
		{"not an object", `["path", "x"]`, "", "", false},
		{"not json", `path=x`, "", "", false},
		{"key not a string", `{path: "x"}`, "", "", false},
		{"non-string key argument", `{"path": 5, "command": "ls"}`, "command", "ls", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, v, ok := keyArgument(tt.args)
			if k != tt.wantKey || v != tt.wantValue || ok != tt.wantOK {
				t.Errorf("keyArgument(%q) = %q, %q, %v; want %q, %q, %v", tt.args, k, v, ok, tt.wantKey, tt.wantValue, tt.wantOK)
			}
		})
	}
}

// TestPartialFieldsGrowIntoFinal cuts complete arguments at every byte: the
// value read so far must always be a prefix of the final value, and the
// field must be complete only once its closing quote arrived.
func TestPartialFieldsGrowIntoFinal(t *testing.T) {
	args := `{"command": "grep -rn \"caf\u00e9 \ud83d\ude80\" src\\\\dir | head -5\n", "timeout": 30}`
	final := partialStringFields(args)
	if len(final) != 1 || !final[0].complete {
		t.Fatalf("complete arguments gave %+v", final)
	}
	want := final[0].value
	if want != "grep -rn \"café 🚀\" src\\\\dir | head -5\n" {
		t.Fatalf("decoded %q", want)
	}
	for i := 0; i <= len(args); i++ {
		fields := partialStringFields(args[:i])
		if len(fields) == 0 {
			continue
		}
		f := fields[0]
		if !strings.HasPrefix(want, f.value) {
			t.Fatalf("at %d bytes: %q is not a prefix of %q", i, f.value, want)
		}
		if f.complete != (i >= strings.Index(args, `, "timeout"`)) {
			t.Fatalf("at %d bytes: complete = %v", i, f.complete)
		}
	}
}
