// Package browser opens a web page in the person's browser: the program
// $BROWSER names, else the platform's opener. Only http and https pages
// are opened, as one argument that cannot be read as an option, since the
// address usually comes from a server.
package browser

import (
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"runtime"
	"strings"
)

// Opener is how a page would be opened on this machine: the program and
// its arguments before the page's address.
type Opener struct {
	Program string
	Args    []string
}

// Find returns the opener of this machine, or false when there is none:
// $BROWSER (a command line, the page added at its end or put where it
// says %s), else xdg-open where a display is set, open on macOS and the
// URL handler on Windows.
func Find(getenv func(string) string, lookPath func(string) (string, error)) (Opener, bool) {
	if b := strings.Fields(getenv("BROWSER")); len(b) > 0 {
		if _, err := lookPath(b[0]); err == nil {
			return Opener{Program: b[0], Args: b[1:]}, true
		}
	}
	switch runtime.GOOS {
	case "darwin":
		return Opener{Program: "open"}, true
	case "windows":
		return Opener{Program: "rundll32", Args: []string{"url.dll,FileProtocolHandler"}}, true
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return Opener{}, false
	}
	if _, err := lookPath("xdg-open"); err != nil {
		return Opener{}, false
	}
	return Opener{Program: "xdg-open"}, true
}

// Command is the command that opens page, or why it must not be opened.
func (o Opener) Command(page string) (*exec.Cmd, error) {
	u, err := url.Parse(page)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http or https address, so it is not opened", page)
	}
	if strings.ContainsAny(page, " \t\r\n\x00") {
		return nil, errors.New("the address holds spaces or control characters, so it is not opened")
	}
	args := make([]string, 0, len(o.Args)+1)
	placed := false
	for _, a := range o.Args {
		if strings.Contains(a, "%s") {
			a, placed = strings.ReplaceAll(a, "%s", page), true
		}
		args = append(args, a)
	}
	if !placed {
		args = append(args, page)
	}
	return exec.Command(o.Program, args...), nil
}

// Open opens page with o and returns once the opener has started.
func (o Opener) Open(page string) error {
	cmd, err := o.Command(page)
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", o.Program, err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
