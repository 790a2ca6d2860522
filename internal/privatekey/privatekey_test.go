//go:build unix

package privatekey

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestIsText(t *testing.T) {
	cases := []struct {
		name, text string
		want       bool
	}{
		{"openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n", true},
		{"pkcs8", "x\n-----BEGIN PRIVATE KEY-----\n", true},
		{"rsa", "-----BEGIN RSA PRIVATE KEY-----", true},
		{"encrypted", "-----BEGIN ENCRYPTED PRIVATE KEY-----", true},
		{"pgp", "-----BEGIN PGP PRIVATE KEY BLOCK-----", true},
		{"public key", "-----BEGIN PUBLIC KEY-----", false},
		{"certificate", "-----BEGIN CERTIFICATE-----", false},
		{"prose", "a private key begins with BEGIN PRIVATE KEY", false},
	}
	for _, c := range cases {
		if got := IsText([]byte(c.text)); got != c.want {
			t.Errorf("%s: IsText(%q) = %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

func TestInFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keyText := "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
	key := write("deploy_key", keyText)
	plain := write("notes", "nothing here\n")
	late := write("late", strings.Repeat("x", SniffLimit)+"-----BEGIN PRIVATE KEY-----\n")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(key, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "id_fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	cases := []struct {
		name, path string
		want       bool
		read       int64
	}{
		{"key", key, true, int64(len(keyText))},
		{"plain file", plain, false, 13},
		{"key after the sniffed head", late, false, SniffLimit},
		{"link to a key", link, true, int64(len(keyText))},
		{"named pipe (must not wait for a writer)", fifo, false, 0},
		{"directory", dir, false, 0},
		{"missing", filepath.Join(dir, "none"), false, 0},
	}
	for _, c := range cases {
		got, read := InFile(c.path)
		if got != c.want || read != c.read {
			t.Errorf("%s: InFile = %v, %d; want %v, %d", c.name, got, read, c.want, c.read)
		}
	}
}
