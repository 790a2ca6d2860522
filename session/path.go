package session

import (
	"path/filepath"
	"runtime"
)

// fileName is the name of the store inside the data directory.
const fileName = "pincer.db"

// DefaultPath returns where the store lives when nothing else is
// configured: $PINCER_DATA_DIR/pincer.db, else $XDG_DATA_HOME/pincer/pincer.db,
// else the platform's per-user data directory (~/.local/share on Linux and
// other Unix systems, ~/Library/Application Support on macOS, %LOCALAPPDATA%
// on Windows). getenv is os.Getenv in production. It returns "" when no home
// directory can be found; Open then says to set PINCER_DATA_DIR.
func DefaultPath(getenv func(string) string) string {
	return defaultPath(runtime.GOOS, getenv)
}

// defaultPath is DefaultPath for a given operating system, so every
// platform's rule can be tested anywhere.
func defaultPath(goos string, getenv func(string) string) string {
	if dir := getenv("PINCER_DATA_DIR"); dir != "" {
		return filepath.Join(dir, fileName)
	}
	// The XDG base directory spec says relative values are to be ignored.
	if dir := getenv("XDG_DATA_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "pincer", fileName)
	}
	switch goos {
	case "windows":
		for _, v := range []string{"LOCALAPPDATA", "APPDATA"} {
			if dir := getenv(v); dir != "" {
				return filepath.Join(dir, "pincer", fileName)
			}
		}
		if home := getenv("USERPROFILE"); home != "" {
			return filepath.Join(home, "AppData", "Local", "pincer", fileName)
		}
	case "darwin", "ios":
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, "Library", "Application Support", "pincer", fileName)
		}
	default:
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, ".local", "share", "pincer", fileName)
		}
	}
	return ""
}
