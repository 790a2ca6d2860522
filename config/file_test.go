package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestUnknownFields(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		contains []string
		absent   string
	}{
		{name: "typo with a swap",
			content:  `{"modle": "gpt-4.1"}`,
			contains: []string{`"modle" is not a config field in PROJECT (line 1); did you mean "model"?`}},
		{name: "camel case",
			content:  "{\n  \"baseURL\": \"http://x/v1\"\n}",
			contains: []string{`"baseURL" is not a config field in PROJECT (line 2); did you mean "base_url"?`}},
		{name: "dashes",
			content:  `{"max-iterations": 3}`,
			contains: []string{`did you mean "max_iterations"?`}},
		{name: "a name other tools use",
			content:  `{"api_base": "http://x/v1"}`,
			contains: []string{`did you mean "base_url"?`}},
		{name: "one letter off",
			content:  `{"themes": "dark"}`,
			contains: []string{`did you mean "theme"?`}},
		{name: "nothing close",
			content:  `{"colour_scheme_variant": 1}`,
			contains: []string{`"colour_scheme_variant" is not a config field in PROJECT (line 1); remove it (the fields are provider, base_url,`},
			absent:   "did you mean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.writeProject(t, tt.content)
			_, _, err := w.load(Overrides{})
			ps := problemsOf(t, err)
			if len(ps) != 1 || !errors.Is(ps[0], ErrUnknownField) {
				t.Fatalf("problems = %v, want one unknown field", err)
			}
			for _, part := range tt.contains {
				part = strings.ReplaceAll(part, "PROJECT", w.projectPath())
				if !strings.Contains(ps[0].Message, part) {
					t.Errorf("message %q\n does not contain %q", ps[0].Message, part)
				}
			}
			if tt.absent != "" && strings.Contains(ps[0].Message, tt.absent) {
				t.Errorf("message %q must not contain %q", ps[0].Message, tt.absent)
			}
		})
	}
}

func TestUnknownFieldDoesNotStopTheRest(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"modle": "x", "theme": "dark"}`)
	c, _, err := w.load(Overrides{})
	if !errors.Is(err, ErrUnknownField) {
		t.Fatalf("err = %v, want an unknown field", err)
	}
	if c.Theme != "dark" {
		t.Errorf("theme = %q, want the file's other values applied", c.Theme)
	}
}

func TestSyntaxErrorsGiveLineAndColumn(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		contains []string
	}{
		{name: "missing comma",
			content:  "{\n  \"model\": \"x\"\n  \"theme\": \"dark\"\n}",
			contains: []string{"is not valid JSON at line 3, column 3", "invalid character '\"' after object key:value pair"}},
		{name: "trailing comma",
			content:  "{\n  \"model\": \"x\",\n}",
			contains: []string{"line 3, column 1", "comma before a closing bracket"}},
		{name: "comment",
			content:  "{\n  // my model\n  \"model\": \"x\"\n}",
			contains: []string{"line 2, column 3", "does not allow comments"}},
		{name: "single quotes",
			content:  "{'model': 'x'}",
			contains: []string{"line 1, column 2", "double quotes"}},
		{name: "column counts characters, not bytes",
			content:  "{\"theme\": \"über\" x}",
			contains: []string{"line 1, column 18"}},
		{name: "cut short",
			content:  "{\n  \"model\": \"x\"",
			contains: []string{"ends early at line 2, column 15"}},
		{name: "not an object",
			content:  `["model", "x"]`,
			contains: []string{"holds a list, not a JSON object"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.writeUser(t, tt.content)
			_, _, err := w.load(Overrides{})
			ps := problemsOf(t, err)
			if len(ps) != 1 || !errors.Is(ps[0], ErrSyntax) {
				t.Fatalf("problems = %v, want one syntax error", err)
			}
			msg := ps[0].Message
			if !strings.HasPrefix(msg, "config: ~/.config/pincer/config.json ") {
				t.Errorf("message %q does not start with the file", msg)
			}
			for _, part := range tt.contains {
				if !strings.Contains(msg, part) {
					t.Errorf("message %q\n does not contain %q", msg, part)
				}
			}
		})
	}
}

func TestWrongTypes(t *testing.T) {
	tests := []struct {
		content  string
		contains string
	}{
		{`{"max_iterations": "30"}`, `max_iterations in PROJECT (line 1) is "30", a string; write a whole number`},
		{`{"max_iterations": 2.5}`, `max_iterations in PROJECT (line 1) is 2.5; write a whole number`},
		{`{"model": 4}`, `model in PROJECT (line 1) is 4, a number; write a string in double quotes`},
		{`{"auto_recall": 1}`, `is 1, a number; write "auto", "off" or "always"`},
		{`{"allow": "git push"}`, `is "git push", a string; write a list of strings such as ["go test ./..."]`},
		{`{"deny": [1, 2]}`, `is [1,2]; write a list of strings`},
		{`{"command_timeout": "2 minutes"}`, `command_timeout in PROJECT (line 1) is "2 minutes"; write a duration such as "90s" or "2m", or a number of seconds`},
		{`{"compress_at": {"x": 1}}`, `is {"x":1}, an object; write a number`},
		{`{"theme": null}`, `theme in PROJECT (line 1) is null; remove the line or write a string in double quotes`},
		{`{"max_iterations": "` + strings.Repeat("a", 100) + `"}`, `is "` + strings.Repeat("a", 56) + `…, a string`},
	}
	for _, tt := range tests {
		w := newWorld(t)
		w.writeUser(t, `{"provider": "openai"}`)
		w.writeProject(t, tt.content)
		_, _, err := w.load(Overrides{})
		ps := problemsOf(t, err)
		if len(ps) != 1 || !errors.Is(ps[0], ErrWrongType) {
			t.Errorf("%s: problems = %v, want one wrong type", tt.content, err)
			continue
		}
		want := strings.ReplaceAll(tt.contains, "PROJECT", w.projectPath())
		if !strings.Contains(ps[0].Message, want) {
			t.Errorf("%s: message %q\n does not contain %q", tt.content, ps[0].Message, want)
		}
	}
}

func TestWrongTypeOfKeyIsNotEchoed(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"api_key": ["sk-live-verysecret"]}`)
	_, _, err := w.load(Overrides{})
	if err == nil || strings.Contains(err.Error(), "verysecret") {
		t.Fatalf("err = %v; want an error that does not show the key", err)
	}
}

func TestDuplicateField(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, "{\n  \"theme\": \"a\",\n  \"theme\": \"b\"\n}")
	_, _, err := w.load(Overrides{})
	ps := problemsOf(t, err)
	if len(ps) != 1 || !errors.Is(ps[0], ErrDuplicateField) || !strings.Contains(ps[0].Message, `"theme" appears twice in ~/.config/pincer/config.json (lines 2 and 3)`) {
		t.Fatalf("problems = %v, want one duplicate naming both lines", err)
	}
}

func TestFileFormsThatAreFine(t *testing.T) {
	tests := []struct{ name, content string }{
		{"empty", ""},
		{"blank", " \n\t\n"},
		{"empty object", "{}"},
		{"byte order mark", "\xef\xbb\xbf{\"theme\": \"dark\"}"},
		{"schema key", `{"$schema": "https://example.com/pincer.schema.json", "theme": "dark"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.writeUser(t, tt.content)
			w.mustLoad(t, Overrides{})
		})
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\ncdé\nf")
	tests := []struct{ offset, line, col int }{
		{0, 1, 1},
		{2, 1, 3},
		{3, 2, 1},
		{7, 2, 4}, // after the two-byte é
		{8, 3, 1},
		{100, 3, 2},
	}
	for _, tt := range tests {
		if l, c := position(data, tt.offset); l != tt.line || c != tt.col {
			t.Errorf("position(%d) = %d:%d, want %d:%d", tt.offset, l, c, tt.line, tt.col)
		}
	}
}

func TestMisspeltKeyFieldDoesNotCarryTheKey(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"apikey": "sk-live-hidden"}`)
	_, _, err := w.load(Overrides{})
	ps := problemsOf(t, err)
	if len(ps) != 1 || ps[0].Value != "" || strings.Contains(err.Error(), "sk-live-hidden") {
		t.Fatalf("problem %+v shows the value of an unknown field", ps)
	}
	if !strings.Contains(ps[0].Message, `did you mean "api_key"?`) {
		t.Errorf("message %q", ps[0].Message)
	}
}

func TestAutoRecallModes(t *testing.T) {
	tests := []struct {
		json string
		want RecallMode
		err  string
	}{
		{`"auto"`, RecallAuto, ""},
		{`"off"`, RecallOff, ""},
		{`"always"`, RecallAlways, ""},
		{`true`, RecallAlways, ""},
		{`false`, RecallOff, ""},
		{`"yes"`, "", `auto_recall is "yes" (from PROJECT); set "auto_recall" in PROJECT to "auto" (strong matches only, the default), "always" or "off"`},
		{`"Auto"`, "", `auto_recall is "Auto"`},
	}
	for _, tt := range tests {
		w := newWorld(t)
		w.writeUser(t, `{"provider": "openai"}`)
		w.writeProject(t, `{"auto_recall": `+tt.json+`}`)
		cfg, _, err := w.load(Overrides{})
		if tt.err != "" {
			ps := problemsOf(t, err)
			msg := strings.ReplaceAll(fmt.Sprint(err), w.projectPath(), "PROJECT")
			if len(ps) != 1 || !errors.Is(ps[0], ErrInvalidValue) || !strings.Contains(msg, tt.err) {
				t.Errorf("%s: error %v, want one invalid value saying %q", tt.json, msg, tt.err)
			}
			continue
		}
		if err != nil || cfg.AutoRecall != tt.want {
			t.Errorf("%s: auto_recall = %q, %v; want %q", tt.json, cfg.AutoRecall, err, tt.want)
		}
	}
}
