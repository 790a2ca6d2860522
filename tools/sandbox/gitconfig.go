package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// maxGitIncludeDepth is how deep git follows include directives.
const maxGitIncludeDepth = 10

// maxSettingsSize bounds a settings file the jail gets a filtered copy
// of; a larger one is left out whole.
const maxSettingsSize = 256 << 10

// errSettingsTooLarge says a settings file is over maxSettingsSize.
var errSettingsTooLarge = errors.New("larger than a settings file may be")

// readSettingsFile reads the settings file p, which may be named by a
// file the project controls: it opens without blocking and refuses
// anything but a regular file (a FIFO would hang the read, a device
// like /dev/zero never end it) and anything over maxSettingsSize
// (errSettingsTooLarge), checking the file it opened, not the path.
func readSettingsFile(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	if info.Size() > maxSettingsSize {
		return nil, errSettingsTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsSize+1))
	if err == nil && len(data) > maxSettingsSize {
		return nil, errSettingsTooLarge
	}
	return data, err
}

// gitEntry is one header or variable of a git settings file.
type gitEntry struct {
	header     bool
	raw        string // a header as written, "[section \"sub\"]"
	section    string // lower case; a dotted old-style header keeps its dots
	subsection string
	key        string // as written; "" for a header
	value      string // decoded: quotes removed, escapes applied
	hasValue   bool   // "key = value" rather than a bare "key" (true)
}

// parseGitConfig reads git's settings syntax: sections with quoted or
// dotted subsections, variables on the header's line or their own,
// quoted values with escapes, lines continued by a backslash, comments.
// It returns the entries read before the first error, and the error.
func parseGitConfig(text string) ([]gitEntry, error) {
	text = strings.TrimPrefix(strings.ReplaceAll(text, "\r\n", "\n"), "\ufeff")
	var out []gitEntry
	section, subsection := "", ""
	line := 1
	i := 0
	fail := func(what string) ([]gitEntry, error) {
		return out, fmt.Errorf("line %d: %s", line, what)
	}
	for i < len(text) {
		c := text[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r':
			i++
		case c == '#' || c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '[':
			start := i
			i++
			var name strings.Builder
			for i < len(text) && text[i] != ']' && text[i] != ' ' && text[i] != '\t' {
				ch := text[i]
				if !isKeyChar(ch) && ch != '.' {
					return fail("a bad section name")
				}
				name.WriteByte(lower(ch))
				i++
			}
			sub := ""
			if i < len(text) && (text[i] == ' ' || text[i] == '\t') {
				for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
					i++
				}
				if i >= len(text) || text[i] != '"' {
					return fail("a subsection must be quoted")
				}
				i++
				var b strings.Builder
				for i < len(text) && text[i] != '"' {
					if text[i] == '\n' {
						return fail("a subsection runs past the end of the line")
					}
					if text[i] == '\\' && i+1 < len(text) && text[i+1] != '\n' {
						i++
					}
					b.WriteByte(text[i])
					i++
				}
				if i >= len(text) {
					return fail("an unterminated subsection")
				}
				i++ // the closing quote
				sub = b.String()
			}
			if i >= len(text) || text[i] != ']' {
				return fail("an unterminated section header")
			}
			i++
			section, subsection = name.String(), sub
			out = append(out, gitEntry{header: true, raw: text[start:i], section: section, subsection: subsection})
		case isAlpha(c):
			start := i
			for i < len(text) && isKeyChar(text[i]) {
				i++
			}
			e := gitEntry{section: section, subsection: subsection, key: text[start:i]}
			for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
			if i < len(text) && text[i] != '\n' {
				if text[i] != '=' {
					return fail("a variable needs '=' after its name")
				}
				i++
				v, next, lines, err := gitValue(text, i)
				if err != nil {
					line += lines
					return fail(err.Error())
				}
				e.value, e.hasValue, i = v, true, next
				line += lines
			}
			if section == "" {
				return fail("a variable before any section")
			}
			out = append(out, e)
		default:
			return fail(fmt.Sprintf("an unexpected %q", c))
		}
	}
	return out, nil
}

// gitValue decodes the value that starts at text[i], up to the end of its
// (last continued) line, as git does: spaces outside quotes are squeezed
// and trimmed at the end, ; and # outside quotes start a comment. It
// returns the value, where the next line starts, and how many line breaks
// it passed over inside.
func gitValue(text string, i int) (string, int, int, error) {
	var b strings.Builder
	quote, comment, space, lines := false, false, 0, 0
	for ; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			if quote {
				return "", i, lines, fmt.Errorf("a quoted value runs past the end of the line")
			}
			return b.String(), i, lines, nil
		}
		if comment {
			continue
		}
		if !quote && (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
			if b.Len() > 0 {
				space++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; space > 0; space-- {
			b.WriteByte(' ')
		}
		switch c {
		case '\\':
			i++
			if i >= len(text) {
				return "", i, lines, fmt.Errorf("a backslash at the end of the file")
			}
			switch text[i] {
			case '\n':
				lines++
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case '\\', '"':
				b.WriteByte(text[i])
			default:
				return "", i, lines, fmt.Errorf("a bad escape \\%c", text[i])
			}
		case '"':
			quote = !quote
		default:
			b.WriteByte(c)
		}
	}
	if quote {
		return "", i, lines, fmt.Errorf("a quoted value runs past the end of the file")
	}
	return b.String(), i, lines, nil
}

func isAlpha(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isKeyChar(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' || c == '-' }
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// credentialWords are what a variable's name says when its value is a
// secret: github.token, hub.oauthtoken, sendemail.smtpPass, a tool's
// apikey or secret.
func credentialWords() []string {
	return []string{"token", "pass", "secret", "apikey", "api-key", "extraheader", "cookie"}
}

// userinfoURL finds a URL with a user (and maybe a password) in it;
// credentialHeader an HTTP header that carries one.
var (
	userinfoURL      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*)://([^/@\s"']*)@`) })
	credentialHeader = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(authorization|proxy-authorization|private-token|job-token|x-api-key|api-key|cookie)\s*:|\bbearer\s+\S`)
	})
)

// gitValueEscaper escapes what a quoted git value cannot hold as is.
var gitValueEscaper = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`)
})

// leaksCredential reports whether s holds a credential: a URL with a
// password, or with a user for a web or file-transfer address (where the
// user is often a token), or an HTTP header that carries one. A plain
// ssh://git@host is a user name, not a secret.
func leaksCredential(s string) bool {
	for _, m := range userinfoURL().FindAllStringSubmatch(s, -1) {
		scheme := strings.ToLower(m[1])
		if strings.Contains(m[2], ":") || !strings.Contains(scheme, "ssh") && scheme != "git" {
			return true
		}
	}
	return credentialHeader().MatchString(s)
}

// isCredential reports whether the git setting e carries a credential:
// its name says so (a token, a password, http.extraHeader), its value or
// its section's subsection does (a URL with a password, an Authorization
// header), or it is a credential helper written inline (!command), which
// may print the password itself.
func isCredential(e gitEntry) bool {
	if leaksCredential(e.subsection) || (!e.header && leaksCredential(e.value)) {
		return true
	}
	if e.header {
		return false
	}
	name := strings.ToLower(e.key)
	for _, w := range credentialWords() {
		if strings.Contains(name, w) {
			return true
		}
	}
	return e.section == "credential" && strings.HasPrefix(strings.TrimSpace(e.value), "!")
}

// isInclude reports whether e names a file to include.
func isInclude(e gitEntry) bool {
	return !e.header && e.hasValue && strings.EqualFold(e.key, "path") && (e.section == "include" || e.section == "includeif")
}

// filterGitConfig is text without the settings that carry credentials (a
// section whose header holds one goes whole), and without comments; the
// rest is written back entry by entry, so git reads the same settings.
// includes lists the files the kept entries include, as written; rewrite,
// when set, changes what an include names in the result ("" leaves the
// include out). A file git could
// not read either keeps the entries before the error.
func filterGitConfig(text string, rewrite func(string) string) (out string, includes []string, err error) {
	entries, err := parseGitConfig(text)
	var b strings.Builder
	dropSection := false
	for _, e := range entries {
		if e.header {
			dropSection = isCredential(e)
			if !dropSection {
				b.WriteString(e.raw + "\n")
			}
			continue
		}
		if dropSection {
			continue
		}
		if k := strings.ToLower(e.key); (k == "url" || k == "pushurl") && e.hasValue {
			// A remote stays, its address without the user and password.
			e.value = userinfoURL().ReplaceAllStringFunc(e.value, func(m string) string {
				if leaksCredential(m) {
					scheme, _, _ := strings.Cut(m, "://")
					return scheme + "://"
				}
				return m
			})
		}
		if isCredential(e) {
			continue
		}
		v := e.value
		if isInclude(e) {
			includes = append(includes, v)
			if rewrite != nil {
				if v = rewrite(v); v == "" {
					continue
				}
			}
		}
		b.WriteString("\t" + e.key)
		if e.hasValue {
			b.WriteString(" = " + quoteGitValue(v))
		}
		b.WriteString("\n")
	}
	return b.String(), includes, err
}

// gitCredentialIn reports whether git settings text holds a setting
// that carries a credential, which the filtered copy leaves out or
// rewrites.
func gitCredentialIn(text string) bool {
	entries, _ := parseGitConfig(text)
	return slices.ContainsFunc(entries, isCredential)
}

// quoteGitValue writes v as a quoted git value.
func quoteGitValue(v string) string {
	return `"` + gitValueEscaper().Replace(v) + `"`
}

// filteredFile is a settings file the jail gets filtered: Path is where
// the tool opens it (home written as it is in Home), Real where it is, its
// links resolved, and Data what the jail reads there.
type filteredFile struct {
	Path string `json:"path"`
	Real string `json:"real"`
	Data string `json:"data"`
}

// resolveGitInclude is where git looks for the file an include in the
// file at from names: ~/ is home, a relative path is beside from. A
// ~user/ path is not resolved ("").
func resolveGitInclude(p, from, home string) string {
	switch {
	case p == "":
		return ""
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, p[1:])
	case strings.HasPrefix(p, "~"):
		return ""
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(filepath.Dir(from), p)
}

// homeGitFiles reads git's settings files (roots, as git opens them) and
// the files they include, to include depth maxGitIncludeDepth, that lie
// in home (realHome, its links resolved) outside skip: each filtered,
// once. A file secret says is a secret (an include naming ~/.netrc) is
// not read: it stays hidden. Files that are missing or outside home are
// left as they are; one too large to read is left out whole. stores are
// the files their credential helpers keep or read passwords in (see
// credentialStoreFiles). w records how each file stood before it was
// read.
func homeGitFiles(roots []string, home, realHome string, skip []string, secret func(string) bool, w homeWatch) (out []filteredFile, stores []string) {
	seen, seenReal := map[string]bool{}, map[string]bool{}
	var visit func(p string, depth int)
	visit = func(p string, depth int) {
		if p == "" || depth > maxGitIncludeDepth || seen[p] {
			return
		}
		seen[p] = true
		w.stamp(p)
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !within(real, realHome) || real == realHome || inAny(real, skip) || secret(real) || seenReal[real] {
			return
		}
		seenReal[real] = true
		w.stamp(real)
		info, err := os.Stat(real)
		if err != nil || !info.Mode().IsRegular() {
			return
		}
		data, _ := readSettingsFile(real) // nil, left out whole, when too large or unreadable
		filtered, includes, _ := filterGitConfig(string(data), nil)
		out = append(out, filteredFile{Path: p, Real: real, Data: filtered})
		stores = append(stores, credentialStoreFiles(string(data), home)...)
		for _, inc := range includes {
			visit(resolveGitInclude(inc, p, home), depth+1)
		}
	}
	for _, r := range roots {
		if filepath.IsAbs(r) {
			visit(filepath.Clean(r), 0)
		}
	}
	return out, stores
}

// writeGitGlobal writes, for a flat jail (no mounts, the real files
// hidden), copies of files in dir, and the file the command's
// GIT_CONFIG_GLOBAL names: the roots' settings one after the other, in
// the order git reads them (git config --global follows no includes,
// so they are not included but written in). Each copy's includes name
// the other copies, or the files outside home where they are; one of a
// file in home the jail hides is left out, as git would find it missing
// with the namespaces. It returns that file's path.
func writeGitGlobal(dir string, files []filteredFile, roots []string, home, realHome string) (string, error) {
	copyOf := map[string]string{}
	for i, g := range files {
		copyOf[g.Path] = filepath.Join(dir, fmt.Sprintf("gitconfig%d", i))
	}
	rewritten := func(data, from string) string {
		out, _, _ := filterGitConfig(data, func(inc string) string {
			r := resolveGitInclude(inc, from, home)
			if c, ok := copyOf[r]; ok {
				return c
			}
			if r == "" {
				return inc
			}
			if real, err := filepath.EvalSymlinks(r); err == nil && within(real, realHome) || within(r, home) {
				return "" // hidden, or missing in home
			}
			return r
		})
		return out
	}
	byPath := map[string]string{}
	for _, g := range files {
		byPath[g.Path] = rewritten(g.Data, g.Path)
		if err := os.WriteFile(copyOf[g.Path], []byte(byPath[g.Path]), 0o600); err != nil {
			return "", fmt.Errorf("write the filtered git settings: %w", err)
		}
	}
	var top strings.Builder
	for _, r := range roots {
		p := filepath.Clean(r)
		data, ok := byPath[p]
		if !ok {
			// Outside home, and so in view as it is.
			b, err := readSettingsFile(p)
			if err != nil {
				continue
			}
			data = rewritten(string(b), p)
		}
		top.WriteString(data)
	}
	global := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(global, []byte(top.String()), 0o600); err != nil {
		return "", fmt.Errorf("write the filtered git settings: %w", err)
	}
	return global, nil
}

// filterSettingsLines is text, a settings file of lines of key = value
// (TOML, INI, an env file, an npmrc), without the lines that carry a
// credential: a key named like one (a token, a password, npm's _auth), or
// a value that holds one (a URL with a password, an Authorization
// header). A TOML string over several lines goes with its key. changed
// says whether anything was left out.
func filterSettingsLines(text string) (out string, changed bool) {
	var b strings.Builder
	inMulti := "" // the quotes that close a TOML string running on
	dropMulti := false
	keyWords := append(credentialWords(), "_auth", "auth-token", "authtoken", "auth_token", "credential")
	for line := range strings.SplitAfterSeq(text, "\n") {
		if inMulti != "" {
			if strings.Contains(line, inMulti) {
				inMulti = ""
			}
			if dropMulti {
				continue
			}
			b.WriteString(line)
			continue
		}
		trimmed := strings.TrimSpace(line)
		key, value, ok := strings.Cut(trimmed, "=")
		if k, v, ok2 := strings.Cut(trimmed, ":"); ok2 && (!ok || len(k) < len(key)) && !strings.Contains(k, "/") {
			key, value, ok = k, v, true // YAML-like key: value
		}
		key = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(key, "export ")))
		drop := leaksCredential(trimmed)
		if ok {
			for _, w := range keyWords {
				drop = drop || strings.Contains(key, w)
			}
			v := strings.TrimSpace(value)
			for _, q := range []string{`"""`, "'''"} {
				if strings.HasPrefix(v, q) && !strings.Contains(v[len(q):], q) {
					inMulti, dropMulti = q, drop
				}
			}
		}
		if drop {
			changed = true
			continue
		}
		b.WriteString(line)
	}
	return b.String(), changed
}

// homeSettingsFiles reads the settings files that patterns match in
// home (realHome, its links resolved) outside skip, and returns those
// that hold a credential, filtered. A file too large to read is left out
// whole. w records what each pattern matched and how each file stood
// before it was read.
func homeSettingsFiles(patterns []string, realHome string, skip []string, secret func(string) bool, w homeWatch) []filteredFile {
	var out []filteredFile
	for _, pattern := range patterns {
		for _, p := range w.glob(pattern) {
			w.stamp(p)
			real, err := filepath.EvalSymlinks(p)
			if err != nil || !within(real, realHome) || real == realHome || inAny(real, skip) || secret(real) {
				continue
			}
			w.stamp(real)
			info, err := os.Stat(real)
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			data, err := readSettingsFile(real)
			if errors.Is(err, errSettingsTooLarge) {
				out = append(out, filteredFile{Path: p, Real: real})
				continue
			}
			if err != nil {
				continue
			}
			if filtered, changed := filterSettingsLines(string(data)); changed {
				out = append(out, filteredFile{Path: p, Real: real, Data: filtered})
			}
		}
	}
	return out
}
