package safety

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Files is the classifier's only view of the file system: what a glob will
// match and what a tree holds when the command runs. The composition root
// gives it one over the real disk (Classifier.WithFiles); safety itself
// does no I/O.
//
// Paths are spelled the way the classifier places them: relative to the
// project root ("." or "src/x"), under the home directory ("~" or
// "~/.ssh"), or absolute ("/etc").
type Files interface {
	// ReadDir lists a directory. An error means it cannot be listed (it
	// does not exist, or is not a directory).
	ReadDir(dir string) ([]fs.DirEntry, error)
	// EvalSymlinks returns the path with every symbolic link resolved, in
	// the same spelling: relative while it stays in the project, "~/…"
	// under the home directory, absolute elsewhere.
	EvalSymlinks(p string) (string, error)
	// HoldsPrivateKey reports whether p (links followed) is a regular file
	// with a private key block near its top, whatever its name: a
	// deploy_key is known by what it holds. read is how many bytes it
	// read, which the classifier bounds. Anything but a regular file holds
	// none and is not opened: a named pipe must not stall a
	// classification, nor opening a device act.
	HoldsPrivateKey(p string) (holds bool, read int64)
}

// Limits of what one classification reads of the file system.
const (
	maxGlobMatches = 512   // names one glob may match before it is called too broad
	maxGlobDirs    = 256   // directories one glob may list
	maxTreeEntries = 20000 // entries a tree walk may visit
	maxTreeDepth   = 48
	maxSniffBytes  = 2 << 20 // bytes of content one classification may read looking for keys
	maxSniffFiles  = 512     // files it may open for that
)

// globFiles expands a file name pattern as bash would (no dotglob, no
// globstar), relative to the directory the script is in. ok is false when
// it cannot be expanded: no file system, an unknown directory, a pattern
// the classifier does not read (extended globs, POSIX classes), or too
// many matches. No match is ok with no names: bash then passes the
// pattern itself, which names no file.
func (w *walker) globFiles(pattern string) (names []string, ok bool) {
	files := w.sh.c.files
	if files == nil || w.cwd == "?" || strings.Contains(pattern, unknownMark) {
		return nil, false
	}
	key := w.cwd + "\x00" + pattern
	if g, seen := w.sh.globs[key]; seen {
		return g.names, g.ok
	}
	names, ok = expandGlob(files, pattern, w.cwd)
	w.sh.globs[key] = globResult{names, ok}
	return names, ok
}

type globResult struct {
	names []string
	ok    bool
}

// expandGlob does the work of globFiles. Names come back in the form the
// pattern was written in (relative patterns stay relative to cwd), so that
// they can stand in for the pattern as arguments.
func expandGlob(files Files, pattern, cwd string) ([]string, bool) {
	if strings.ContainsAny(pattern, "()|") || strings.Contains(pattern, "[:") || strings.Contains(pattern, `\`) {
		return nil, false
	}
	abs := strings.HasPrefix(pattern, "/")
	comps := strings.Split(pattern, "/")
	// Each candidate is the text written so far and the place it names.
	type cand struct{ text, place string }
	start := cand{}
	switch {
	case abs:
		start = cand{text: "", place: "/"}
		comps = comps[1:]
	case comps[0] == "~":
		start = cand{text: "~", place: "~"}
		comps = comps[1:]
	case strings.HasPrefix(comps[0], "~"):
		return nil, false // ~user
	default:
		base := cwd
		if base == "" {
			base = "."
		}
		start = cand{text: "", place: base}
	}
	cands := []cand{start}
	dirs := 0
	join := func(c cand, name string) cand {
		t := name
		switch {
		case c.text == "" && abs:
			t = "/" + name
		case c.text != "":
			t = c.text + "/" + name
		}
		pl := path.Join(c.place, name)
		if c.place == "/" {
			pl = "/" + name
		}
		return cand{text: t, place: pl}
	}
	for i, comp := range comps {
		last := i == len(comps)-1
		if comp == "" {
			if !last {
				continue // a//b
			}
			for k := range cands {
				cands[k].text += "/"
			}
			break
		}
		if !hasMeta(comp) {
			for k := range cands {
				cands[k] = join(cands[k], comp)
			}
			continue
		}
		var next []cand
		for _, c := range cands {
			dirs++
			if dirs > maxGlobDirs {
				return nil, false
			}
			entries, err := files.ReadDir(c.place)
			if err != nil {
				continue
			}
			for _, e := range entries {
				name := e.Name()
				if strings.HasPrefix(name, ".") && !strings.HasPrefix(comp, ".") {
					continue // * does not match a leading dot
				}
				m, err := path.Match(comp, name)
				if err != nil {
					return nil, false
				}
				if !m || (!last && !e.IsDir() && e.Type()&fs.ModeSymlink == 0) {
					continue
				}
				next = append(next, join(c, name))
				if len(next) > maxGlobMatches {
					return nil, false
				}
			}
		}
		cands = next
		if len(cands) == 0 {
			return nil, true
		}
	}
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		out = append(out, c.text)
	}
	sort.Strings(out)
	return out, true
}

// hasMeta reports pattern characters in one path element.
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// couldNameSecret reports whether a file name pattern could match a
// secret-looking file even if none is there now: some element of it
// matches the name of one (a pattern over dotfiles such as .e* matches
// .env). It answers with the secret it could name, or "".
func couldNameSecret(pattern string) string {
	return couldMatchSecret(pattern, true)
}

// couldMatchSecret is couldNameSecret for pattern languages other than the
// shell's: with dotRule false a leading * matches a leading dot too (git
// pathspecs, rg globs).
func couldMatchSecret(pattern string, dotRule bool) string {
	for _, comp := range strings.Split(pattern, "/") {
		if !hasMeta(comp) {
			continue
		}
		for _, s := range secretNameSamples {
			if dotRule && strings.HasPrefix(s, ".") && !strings.HasPrefix(comp, ".") {
				continue
			}
			if m, err := path.Match(comp, s); err != nil || m {
				return s
			}
		}
	}
	return ""
}

// secretNameSamples are names of secret-looking files and directories, one
// of each kind secretLoc knows, for asking whether a pattern could match
// one. A test holds each to secretLoc, so the two cannot drift apart.
var secretNameSamples = []string{
	".env", ".env.local", ".env.production", ".envrc", ".netrc", "_netrc", ".git-credentials", ".pgpass", ".my.cnf",
	".npmrc", ".pypirc", ".htpasswd", ".vault-token", ".boto", ".s3cfg", ".dockercfg", ".terraformrc",
	".credentials.json", ".bash_history", ".zsh_history", ".zhistory", ".sh_history", ".history", ".psql_history",
	".mysql_history", ".sqlite_history", ".python_history", ".node_repl_history", ".rediscli_history", ".lesshst",
	".ssh", ".gnupg", ".aws", ".azure", ".kube", ".password-store", ".terraform.d", ".claude", ".codex",
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "credentials", "credentials.json",
	"secrets.yml", "secret.json", "x.pem", "x.key", "x.p12", "x.pfx", "x.jks", "x.keystore", "x.kdbx", "x.ppk",
	"terraform.tfstate", "x.tfvars", "x.gpg", "x.keytab", "rclone.conf", "fish_history", "kaggle.json", "master.key",
}

// treeSecret walks a directory tree the way a recursive reader would and
// returns the first secret-looking file in it and why, or "". hidden says whether
// the reader looks into names that start with a dot; skip says which
// entries a filter of the reader leaves out (--exclude). ok is false when
// the tree cannot be checked: no file system, more than the walk may
// visit, or more content than the classification may read.
//
// Contents are looked at only for files whose names could be a key's
// (sniffName): reading every file of a project would spend the budget on
// any ordinary tree, and a recursive search of the project would always
// ask.
func (w *walker) treeSecret(root string, hidden bool, skip func(name string, dir bool) bool) (found, why string, ok bool) {
	files := w.sh.c.files
	if files == nil || strings.Contains(root, "?") {
		return "", "", false
	}
	type item struct {
		dir   string
		depth int
	}
	queue := []item{{root, 0}}
	seen := 0
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		entries, err := files.ReadDir(it.dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			seen++
			if seen > maxTreeEntries {
				return "", "", false
			}
			name := e.Name()
			isDir := e.IsDir()
			if !hidden && strings.HasPrefix(name, ".") {
				continue
			}
			if name == ".git" && isDir {
				continue // git's own store: objects, not files a reader shows
			}
			if skip != nil && skip(name, isDir) {
				continue
			}
			p := joinPlace(it.dir, name)
			if why := secretLoc(placePath(p, "")); why != "" {
				return p, "looks like a secret", true
			}
			if e.Type()&fs.ModeSymlink != 0 {
				// A link in the tree may point at a secret or out of the
				// project; judge it by where it leads.
				real, err := files.EvalSymlinks(p)
				if err != nil {
					continue
				}
				if why := readRisk(placePath(real, "")); why != "" {
					return p, "looks like a secret", true
				}
				continue
			}
			if isDir {
				if it.depth+1 > maxTreeDepth {
					return "", "", false
				}
				queue = append(queue, item{p, it.depth + 1})
				continue
			}
			if e.Type().IsRegular() && sniffName(name) {
				holds, ok := w.keyIn(p)
				if !ok {
					return "", "", false
				}
				if holds {
					return p, "holds a private key", true
				}
			}
		}
	}
	return "", "", true
}

// joinPlace joins a directory in the classifier's spelling and a name.
func joinPlace(dir, name string) string {
	switch dir {
	case ".", "":
		return name
	case "/":
		return "/" + name
	}
	return dir + "/" + name
}

// sniffName reports whether a file found in a tree walk could be a key
// that secretLoc does not know by name, and so is worth opening: a name
// with no extension (deploy_key, server), an extension key files are
// saved under that is not a secret's by itself, or a settings file whose
// name says key. Source files, documents and data are not opened: a search
// over a whole project stays within the classification's budget, and the
// test keys of a library's sources (privatekey_test.go) do not make every
// search of it ask.
func sniffName(name string) bool {
	lower := strings.ToLower(name)
	ext := path.Ext(strings.TrimPrefix(lower, "."))
	switch ext {
	case "", ".asc", ".p8", ".sec", ".secret", ".txt", ".bak", ".old", ".orig":
		return true
	case ".json", ".yaml", ".yml", ".toml", ".conf", ".cfg", ".ini", ".xml", ".properties":
		return strings.Contains(lower, "key") || strings.Contains(lower, "priv")
	}
	return false
}

// keyIn reports whether the file at p holds a private key, reading at
// most what one classification may: ok is false when that budget is
// spent. Without a file system, or for the kernel's and devices' files,
// nothing is read and nothing is found.
func (w *walker) keyIn(p string) (holds, ok bool) {
	files := w.sh.c.files
	if files == nil || strings.Contains(p, unknownMark) || under(p, "/proc") || under(p, "/sys") || under(p, "/dev") {
		return false, true
	}
	if held, seen := w.sh.keys[p]; seen {
		return held, true
	}
	if w.sh.sniffBytes >= maxSniffBytes || w.sh.sniffFiles >= maxSniffFiles {
		return false, false
	}
	holds, read := files.HoldsPrivateKey(p)
	w.sh.sniffFiles++
	w.sh.sniffBytes += read
	w.sh.keys[p] = holds
	return holds, true
}
