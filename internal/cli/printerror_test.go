package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"charm.land/fang/v2"
)

// TestPrintErrorSanitises: an error carries foreign text (a server's
// message, a file name); printed, its escapes are shown, never obeyed.
func TestPrintErrorSanitises(t *testing.T) {
	for _, hostile := range []string{"\x1b]52;c;aGk=\x07", "\x1b[2J", "\u202eevil", "a\rb"} {
		var out bytes.Buffer
		(&cli{}).printError(&out, fang.Styles{}, errors.New("the server said: "+hostile))
		if strings.ContainsAny(out.String(), "\x1b\x07\u202e\r") {
			t.Errorf("printError wrote %q raw", out.String())
		}
	}
}

// TestUsageErrorsNameTheHelp: a mistake in the command line itself reads
// as one sentence that ends with the help to read, exits 2, and a
// misspelt subcommand of a group of commands is an error, not its help.
func TestUsageErrorsNameTheHelp(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--bogus"}, []string{"unknown flag: --bogus", "see 'pincer --help'"}},
		{[]string{"run", "--bogus", "x"}, []string{"unknown flag: --bogus", "see 'pincer run --help'"}},
		{[]string{"run", "--max-iterations", "abc", "x"}, []string{`"abc"`, "want a whole number", "see 'pincer run --help'"}},
		{[]string{"sesions"}, []string{`unknown command "sesions" for "pincer"`, `did you mean "sessions"?`, "see 'pincer --help'"}},
		{[]string{"sessions", "shwo"}, []string{`did you mean "show"?`, "see 'pincer sessions --help'"}},
		{[]string{"mcp", "lsit"}, []string{`unknown command "lsit" for "pincer mcp"`, `did you mean "list"?`, "see 'pincer mcp --help'"}},
		{[]string{"sessions", "show"}, []string{"give the session's name or id", "see 'pincer sessions show --help'"}},
		{[]string{"tasks", "add"}, []string{"see 'pincer tasks add --help'"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
			if code != 2 {
				t.Errorf("exit %d, want 2 (stdout %q)", code, stdout.String())
			}
			got := stderr.String()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			if strings.Count(strings.TrimSpace(got), "\n") != 0 {
				t.Errorf("%q is more than one line", got)
			}
		})
	}
}
