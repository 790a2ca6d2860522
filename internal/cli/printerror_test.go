package cli

import (
	"bytes"
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
