package setup

import (
	"errors"
	"pincer/internal/envname"
	"strings"
	"testing"
)

func TestCheckBaseURL(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr string // a part of the error; "" for success
	}{
		{"http://localhost:8080/v1", "http://localhost:8080/v1", ""},
		{"  https://api.example.com/v1/  ", "https://api.example.com/v1", ""},
		{"HTTPS://API.example.com/v1", "https://API.example.com/v1", ""},
		{"http://127.0.0.1:1234/v1", "http://127.0.0.1:1234/v1", ""},
		{"http://[::1]:8000/v1", "http://[::1]:8000/v1", ""},
		{"https://gateway.example.com", "https://gateway.example.com", ""},
		{"", "", "Type the server's address"},
		{"   ", "", "Type the server's address"},
		{"localhost:8080/v1", "", "such as http://localhost:8080/v1."},
		{"api.example.com/v1", "", "such as https://api.example.com/v1."},
		{"sk-proj-abcdef", "", "such as https://example.com/v1."},
		{"ftp://files.example.com", "", "must start with http:// or https://"},
		{"http://", "", "no host name"},
		{"http://:8080/v1", "", "no host name"},
		{"http://host:port/v1", "", "not a valid URL"},
		{"http://[::1/v1", "", "not a valid URL"},
		{"http://local host/v1", "", "has a space"},
		{"https://user:sk-secret@api.example.com/v1", "", "Leave the user name and password out"},
		{"https://api.example.com/v1?key=abc", "", "Leave ?query and #fragment out"},
		{"https://api.example.com/v1#top", "", "Leave ?query and #fragment out"},
	}
	for _, tt := range tests {
		got, err := checkBaseURL(tt.in)
		if tt.wantErr == "" {
			if err != nil || got != tt.want {
				t.Errorf("checkBaseURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("checkBaseURL(%q) = %q, want an error", tt.in, got)
			continue
		}
		if !errors.Is(err, errBadURL) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("checkBaseURL(%q) error = %q, want errBadURL saying %q", tt.in, err, tt.wantErr)
		}
		if strings.Contains(err.Error(), "sk-") {
			t.Errorf("checkBaseURL(%q) error repeats a secret: %q", tt.in, err)
		}
	}
}

func TestIsEnvName(t *testing.T) {
	tests := []struct {
		in           string
		valid, plain bool
	}{
		{"OPENAI_API_KEY", true, true},
		{"_KEY2", true, true},
		{"my_key", true, false},
		{"Key", true, false},
		{"", false, false},
		{"2KEY", false, false},
		{"MY-KEY", false, false},
		{"MY KEY", false, false},
		{"ÄPI_KEY", false, false},
		{strings.Repeat("K", 40), true, true},
		{strings.Repeat("K", 41), false, false},
	}
	for _, tt := range tests {
		if got := envname.Valid(tt.in); got != tt.valid {
			t.Errorf("envname.Valid(%q) = %v, want %v", tt.in, got, tt.valid)
		}
		if got := isPlainEnvName(tt.in); got != tt.plain {
			t.Errorf("isPlainEnvName(%q) = %v, want %v", tt.in, got, tt.plain)
		}
	}
}

func TestCleanModels(t *testing.T) {
	got := cleanModels([]string{"b", " a ", "", "b", "c", "  "})
	want := []string{"a", "b", "c"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("cleanModels = %q, want %q", got, want)
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"two\nlines\r\n", "two lines"},
		{"\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"bell\x07 and\x00 nul", "bell␇ and␀ nul"},
		{"bidi\u202e", "bidi⟨U+202E⟩"},
		{"title\x1b]0;x\x07", "title␛]0;x␇"},
		{"  many   spaces ", "many spaces"},
	}
	for _, tt := range tests {
		if got := clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
