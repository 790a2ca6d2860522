package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadSettingsFileRefusesOddFiles: a settings file the project can
// name (an include) that is a FIFO, a device or huge is refused rather
// than read; before, a FIFO hung the helper and /dev/zero never ended.
func TestReadSettingsFileRefusesOddFiles(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("[core]\n\tbare = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, []byte(strings.Repeat("#", maxSettingsSize+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		wantErr bool
		tooBig  bool
	}{
		{"regular", small, false, false},
		{"too large", big, true, true},
		{"fifo", fifo, true, false},
		{"device through a link", zero, true, false},
		{"missing", filepath.Join(dir, "none"), true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := readSettingsFile(tt.path)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, tt.wantErr)
			}
			if errors.Is(err, errSettingsTooLarge) != tt.tooBig {
				t.Fatalf("err = %v, want too large: %v", err, tt.tooBig)
			}
			if !tt.wantErr && !strings.Contains(string(data), "bare") {
				t.Fatalf("data = %q", data)
			}
		})
	}
}

// TestSettingsNamedSkipsIncludedFIFO: a project settings file including
// a FIFO in the project is looked at without hanging, the FIFO pinned.
func TestSettingsNamedSkipsIncludedFIFO(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "config")
	if err := os.WriteFile(cfg, []byte("[include]\n\tpath = fifo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pins, _ := settingsNamed([]string{cfg}, root, root)
	if len(pins) != 1 || pins[0] != fifo {
		t.Fatalf("pins = %v, want [%s]", pins, fifo)
	}
}

// TestInHome: a path in home moves under home's real path; one beside
// it, even named like ..x, stays as it is.
func TestInHome(t *testing.T) {
	tests := []struct{ p, want string }{
		{"/home/u/.gitconfig", "/real/u/.gitconfig"},
		{"/home/u/..x/config", "/real/u/..x/config"},
		{"/home/other/.gitconfig", "/home/other/.gitconfig"},
		{"/home/u", "/real/u"},
	}
	for _, tt := range tests {
		if got := inHome(tt.p, "/home/u", "/real/u"); got != tt.want {
			t.Errorf("inHome(%q) = %q, want %q", tt.p, got, tt.want)
		}
	}
}
