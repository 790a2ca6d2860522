package themes

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestParseColor(t *testing.T) {
	tests := []struct {
		in      string
		want    string // ColorString of the result
		wantErr bool
	}{
		{"#ff8800", "#ff8800", false},
		{"#FF8800", "#ff8800", false},
		{"#f80", "#ff8800", false},
		{" #102030 ", "#102030", false},
		{"1", "1", false},
		{"15", "15", false},
		{"208", "208", false},
		{"255", "255", false},
		{"0", "0", false},
		{"256", "", true},
		{"-1", "", true},
		{"#12345", "", true},
		{"#1234567", "", true},
		{"#gg0000", "", true},
		{"red", "", true},
		{"", "", true},
		{"#", "", true},
	}
	for _, tt := range tests {
		c, err := ParseColor(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseColor(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if got := ColorString(c); got != tt.want {
			t.Errorf("ParseColor(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestColorString(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{ansi.BasicColor(4), "4"},
		{ansi.IndexedColor(123), "123"},
		{nil, ""},
	}
	for _, tt := range tests {
		var got string
		switch v := tt.in.(type) {
		case ansi.BasicColor:
			got = ColorString(v)
		case ansi.IndexedColor:
			got = ColorString(v)
		default:
			got = ColorString(nil)
		}
		if got != tt.want {
			t.Errorf("ColorString(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
