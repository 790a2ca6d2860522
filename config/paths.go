package config

import (
	"path/filepath"
	"runtime"
	"strings"
)

// ProjectFileName is the project config file, in the project root.
const ProjectFileName = ".pincer.json"

// UserConfigPath returns the user config file:
// $XDG_CONFIG_HOME/pincer/config.json when XDG_CONFIG_HOME is an absolute
// path, else ~/.config/pincer/config.json (on every OS, so the path in the
// docs is the path on disk). It ignores PINCER_CONFIG: that names a file to
// read instead, while this is where setup writes. Empty when no home
// directory is known.
func UserConfigPath(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	if xdg := getenv("XDG_CONFIG_HOME"); xdg != "" && filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "pincer", "config.json")
	}
	home := homeDir(getenv)
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "pincer", "config.json")
}

// ProjectConfigPath returns the project config file for a project root.
func ProjectConfigPath(root string) string {
	return filepath.Join(root, ProjectFileName)
}

// homeDir finds the home directory from the environment, the same
// variables os.UserHomeDir consults.
func homeDir(getenv func(string) string) string {
	if runtime.GOOS == "windows" {
		if h := getenv("USERPROFILE"); h != "" {
			return h
		}
	}
	if runtime.GOOS == "plan9" {
		return getenv("home")
	}
	return getenv("HOME")
}

// ShownUserConfigPath is UserConfigPath for messages: with the home
// directory written as ~ when the file is under it, and in full when
// XDG_CONFIG_HOME or PINCER_CONFIG put it elsewhere.
func ShownUserConfigPath(getenv func(string) string) string {
	return tildePath(UserConfigPath(getenv), homeDir(getenv))
}

// tildePath shortens a path under home to ~/…, for messages.
func tildePath(path, home string) string {
	if home == "" || path == "" {
		return path
	}
	rel, err := filepath.Rel(home, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return "~" + string(filepath.Separator) + rel
}

// expandHome turns a leading ~/ into the home directory.
func expandHome(path, home string) string {
	if home == "" {
		return path
	}
	if path == "~" {
		return home
	}
	if strings.HasPrefix(path, "~/") || strings.HasPrefix(path, "~"+string(filepath.Separator)) {
		return filepath.Join(home, path[2:])
	}
	return path
}
