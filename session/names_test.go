package session

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	tests := []struct {
		name  string
		valid bool
	}{
		{"fix-login", true},
		{"my work", true},
		{"ünïcödé 名前", true},
		{strings.Repeat("x", maxNameLen), true},
		{"", false},
		{"   ", false},
		{" leading", false},
		{"trailing ", false},
		{strings.Repeat("x", maxNameLen+1), false},
		{"tab\there", false},
		{"new\nline", false},
		{"bell\a", false},
		{"-rf", false},
		{"01JQ3ZP0X5V6K2M8N9P0Q1R2S3", false}, // has the form of a ULID
		{"01jq3zp0x5v6k2m8n9p0q1r2s3", false},
		{"01M8TSZB8Q91", false}, // a short id as lists show it
		{"01m8ts", false},       // the shortest prefix a reference may be
		{"01M8T", true},         // too short to be taken for an id
		{"01M8TSZB8Q91-old", true},
		{"review2", true}, // starts with a letter no id starts with
		{"2024fix", true}, // holds an I, which no id holds
		{"01JQ3ZP0X5V6K2M8N9P0Q1R2S3X", true},
		{"bad\xffutf8", false},
	}
	for _, tt := range tests {
		err := validateName(tt.name)
		if tt.valid && err != nil {
			t.Errorf("validateName(%q) = %v, want nil", tt.name, err)
		}
		if !tt.valid && !errors.Is(err, ErrInvalidName) {
			t.Errorf("validateName(%q) = %v, want ErrInvalidName", tt.name, err)
		}
	}
}

func TestMakeTitle(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct {
		content string
		want    string
	}{
		{"fix the login bug", "fix the login bug"},
		{"\n\n  first   real line  \nsecond line", "first real line"},
		{"tabs\tand  spaces", "tabs and spaces"},
		{"", ""},
		{"  \n \n", ""},
		{long, strings.TrimRight(long[:maxTitleLen-1], " ") + "…"},
		{strings.Repeat("é", 70), strings.Repeat("é", maxTitleLen-1) + "…"},
	}
	for _, tt := range tests {
		if got := makeTitle(tt.content); got != tt.want {
			t.Errorf("makeTitle(%q) = %q, want %q", tt.content, got, tt.want)
		}
	}
}
