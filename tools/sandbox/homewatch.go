package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// homeWatch is what a jail's view of a hidden home was built from: the
// directories the secret scan listed, the settings files read to filter
// them, and what each settings pattern matched, each as it was then. A
// helper whose watch is no longer current hides an old list (a
// credentials file made since in a kept ~/.config/git, a Node version
// installed since with its own npmrc, a token added to a settings file)
// and is not used again: the next one is built from what is there now.
type homeWatch map[string]string

// globKey is the key under which a watch keeps what a pattern matched.
const globKey = "glob\x00"

// stampOf says how p stands, cheaply and without following a link: its
// kind, size, modification time and inode, or "-" when it is missing. A
// directory's changes when an entry is made, removed or renamed in it.
func stampOf(p string) string {
	info, err := os.Lstat(p)
	if err != nil {
		return "-"
	}
	ino := uint64(0)
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		ino = uint64(st.Ino)
	}
	return fmt.Sprintf("%v %d %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano(), ino)
}

// stamp records how p stands now, before it is read (a nil watch
// records nothing).
func (w homeWatch) stamp(p string) {
	if w != nil {
		w[p] = stampOf(p)
	}
}

// glob is what pattern matches now, recorded (a bad pattern matches
// nothing).
func (w homeWatch) glob(pattern string) []string {
	m, _ := filepath.Glob(pattern)
	if w != nil {
		w[globKey+pattern] = strings.Join(m, "\x00")
	}
	return m
}

// current reports whether everything w recorded still stands as it was.
func (w homeWatch) current() bool {
	for k, was := range w {
		if pattern, ok := strings.CutPrefix(k, globKey); ok {
			m, _ := filepath.Glob(pattern)
			if strings.Join(m, "\x00") != was {
				return false
			}
			continue
		}
		if stampOf(k) != was {
			return false
		}
	}
	return true
}

// credentialStoreFiles are the files git settings text names that a
// credential helper keeps passwords in or reads them from: the file of
// "store --file=F" (its default files, ~/.git-credentials and
// ~/.config/git/credentials, are hidden by name), and every path an
// inline helper ("!f() { echo password=$(cat ~/.config/git/pat); }; f")
// names; the caller keeps the files that are not programs. home is the
// home directory as written.
func credentialStoreFiles(text, home string) []string {
	entries, _ := parseGitConfig(text)
	var out []string
	add := func(word string) {
		word = strings.Trim(word, `"'`)
		if i := strings.LastIndexByte(word, '='); i >= 0 {
			word = strings.Trim(word[i+1:], `"'`) // --file=F, password=F
		}
		for _, h := range []string{"$HOME/", "${HOME}/"} {
			if rest, ok := strings.CutPrefix(word, h); ok {
				word = "~/" + rest
			}
		}
		if !strings.HasPrefix(word, "~/") && !filepath.IsAbs(word) {
			return
		}
		if p := resolveGitInclude(word, "/", home); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, e := range entries {
		if e.header || e.section != "credential" || !strings.EqualFold(e.key, "helper") {
			continue
		}
		v := strings.TrimSpace(e.value)
		if inline, ok := strings.CutPrefix(v, "!"); ok {
			for _, w := range strings.FieldsFunc(inline, func(r rune) bool { return strings.ContainsRune(" \t\n;|&()<>`", r) }) {
				add(w)
			}
			continue
		}
		words := strings.Fields(v)
		if len(words) == 0 || words[0] != "store" && filepath.Base(words[0]) != "git-credential-store" {
			continue
		}
		for i, w := range words[1:] {
			switch {
			case strings.HasPrefix(w, "--file="):
				add(w)
			case w == "--file" && i+2 < len(words):
				add(words[i+2])
			}
		}
	}
	return out
}
