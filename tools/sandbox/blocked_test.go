//go:build !windows

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBlocked(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	out := filepath.Join(base, "out")
	secret := filepath.Join(base, "home", ".ssh")
	for _, d := range []string{proj, out, secret} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pinned := filepath.Join(proj, "bin", "pincer")
	spec := Spec{Writable: []string{proj}, Hidden: []string{secret}, Pinned: []string{pinned}, Unix: UnixListed}
	off := Spec{Writable: []string{proj}, Hidden: []string{secret}, Network: false}
	on := spec
	on.Network = true
	noUnix := spec
	noUnix.Unix = UnixNone
	tests := []struct {
		name   string
		spec   Spec
		output string
		want   string // the phrases joined by "; "
	}{
		{"sh redirect", on, "/bin/sh: 1: cannot create " + out + "/c: Permission denied", "write to " + out + "/c (outside the writable paths)"},
		{"touch", on, "touch: cannot touch '" + out + "/c': Permission denied", "write to " + out + "/c (outside the writable paths)"},
		{"mkdir curly quotes", on, "mkdir: cannot create directory ‘" + out + "/d’: Permission denied", "write to " + out + "/d (outside the writable paths)"},
		{"python", on, "PermissionError: [Errno 13] Permission denied: '" + out + "/x.txt'", "write to " + out + "/x.txt (outside the writable paths)"},
		{"go", on, "open " + out + "/y: permission denied", "write to " + out + "/y (outside the writable paths)"},
		{"relative", on, "rm: cannot remove '../out/z': Permission denied", "write to " + out + "/z (outside the writable paths)"},
		{"secret read", on, "cat: " + secret + "/id_rsa: Permission denied", "a read of " + secret + "/id_rsa, hidden by the sandbox (a protected path)"},
		{"secret written", on, "touch: cannot touch '" + secret + "/k': Permission denied", "write to " + secret + "/k, hidden by the sandbox (a protected path)"},
		{"inside the project is not the sandbox", on, "bash: ./script.sh: Permission denied", ""},
		{"bash relative", on, "/bin/bash: line 1: ../out/r.txt: Permission denied", "write to " + out + "/r.txt (outside the writable paths)"},
		{"dash relative", on, "/bin/sh: 1: cannot create ../out/made.txt: Permission denied", "write to " + out + "/made.txt (outside the writable paths)"},
		{"no denial", on, "cat: " + out + "/nope: No such file or directory", ""},
		{"network off", off, "bash: connect: Permission denied", "a network connection (the network is off in the sandbox)"},
		{"network off, read-only", Spec{Hidden: []string{secret}}, "bash: connect: Permission denied", "a network connection (the network is off in the sandbox)"},
		{"dash bare name", Spec{}, "/bin/sh: 1: cannot create Makefile: Permission denied", "write to " + proj + "/Makefile (outside the writable paths)"},
		{"network on", on, "bash: connect: Permission denied", ""},
		{"a path pincer cannot write either", on, "touch: cannot touch '/proc/1/x': Permission denied", ""},
		{"pincer's binary, read-only", on, "cp: cannot create regular file '" + pinned + "': Read-only file system", "a change to " + pinned + " (pincer's own, read-only)"},
		{"pincer's binary, renamed away", on, "mv: cannot move '" + pinned + "' to 'x': Device or resource busy", "a change to " + pinned + " (pincer's own, read-only)"},
		{"no network at all", off, "curl: (6) Could not resolve host: example.com", "a network connection (the network is off in the sandbox)"},
		{"unreachable", off, "ping: connect: Network is unreachable", "a network connection (the network is off in the sandbox)"},
		{"unreachable with the network on is not the jail", on, "ping: connect: Network is unreachable", ""},
		{"a Unix socket", noUnix, "PermissionError: [Errno 1] Operation not permitted (socket AF_UNIX)", "a Unix socket (the jail allows none)"},
		{"a Unix socket where they are allowed", on, "socket(AF_UNIX): Operation not permitted", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(Blocked("some output\n"+tt.output+"\nmore\n", tt.spec, proj), "; ")
			if got != tt.want {
				t.Errorf("Blocked = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestBlockedInAHiddenHome: a file of home the jail hid reads as missing
// (or, flat, as refused); the model is told the jail hid it when it is
// there outside, and not when it is truly missing or was kept.
func TestBlockedInAHiddenHome(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "src", "proj")
	other := filepath.Join(home, "src", "other")
	kept := filepath.Join(home, ".gitconfig")
	for _, d := range []string{proj, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(other, "notes.txt"), kept} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hidden := Spec{Root: proj, Home: home, HideHome: true, HomeKeep: []string{kept}}
	inView := hidden
	inView.HideHome = false
	note := " (this jail hides your home but the project and the toolchains)"
	tests := []struct {
		name, output string
		spec         Spec
		want         string
	}{
		{"a file there outside", "cat: " + other + "/notes.txt: No such file or directory", hidden, "a read of " + other + "/notes.txt, hidden by the sandbox" + note},
		{"a directory listed", "ls: cannot access '" + other + "': No such file or directory", hidden, "a read of " + other + ", hidden by the sandbox" + note},
		{"made in a directory there outside", "/bin/sh: 1: cannot create " + other + "/new: Directory nonexistent", hidden, "write to " + other + "/new, hidden by the sandbox" + note},
		{"flat: refused", "cat: " + other + "/notes.txt: Permission denied", hidden, "a read of " + other + "/notes.txt, hidden by the sandbox" + note},
		{"flat: a write refused", "touch: cannot touch '" + other + "/x': Permission denied", hidden, "write to " + other + "/x, hidden by the sandbox" + note},
		{"truly missing at the top of home", "cat: " + home + "/nothing: No such file or directory", hidden, ""},
		{"truly missing deeper", "cat: " + home + "/nowhere/x: No such file or directory", hidden, ""},
		{"missing in the project", "cat: " + proj + "/x: No such file or directory", hidden, ""},
		{"a kept file", "cat: " + kept + ": No such file or directory", hidden, ""},
		{"home in view", "cat: " + other + "/notes.txt: No such file or directory", inView, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(Blocked(tt.output+"\n", tt.spec, proj), "; "); got != tt.want {
				t.Errorf("Blocked = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRefusalKinds: the model is told a read the jail hid as a read, a
// write or a change to pincer's own as a change, and neither for the
// rest.
func TestRefusalKinds(t *testing.T) {
	for _, tc := range []struct {
		phrase       string
		read, change bool
	}{
		{"a read of /h/src/other/.env, hidden by the sandbox (this jail hides your home but the project and the toolchains)", true, false},
		{"write to /h/src/other/x, hidden by the sandbox (a protected path)", false, true},
		{"write to /etc/x (outside the writable paths)", false, true},
		{"a change to /usr/bin/pincer (pincer's own, read-only)", false, true},
		{"a network connection (the network is off in the sandbox)", false, false},
		{"a Unix socket (the jail allows none)", false, false},
	} {
		if IsRead(tc.phrase) != tc.read || IsChange(tc.phrase) != tc.change {
			t.Errorf("%q: read %v change %v, want %v %v", tc.phrase, IsRead(tc.phrase), IsChange(tc.phrase), tc.read, tc.change)
		}
	}
}
