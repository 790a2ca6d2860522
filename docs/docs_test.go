package docs_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"pincer/config"
	"pincer/docs/internal/configdoc"
	"pincer/safety"
	"pincer/ui/complete"
	"pincer/ui/diffview"
	"pincer/ui/transcript"
	"pincer/ui/tree"
)

// readDoc returns a page of docs/.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n")
}

// table is a Markdown table that follows a marker comment such as
// <!-- classify {"allow": ["go test *"]} -->.
type table struct {
	arg  string     // what follows the marker's name in the comment
	line int        // the marker's line, for messages
	rows [][]string // body rows, cells trimmed, \| unescaped
}

// markedTables finds every table introduced by <!-- name ... -->.
func markedTables(doc, name string) []table {
	lines := strings.Split(doc, "\n")
	var out []table
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		rest, ok := strings.CutPrefix(l, "<!-- "+name)
		if !ok || !strings.HasSuffix(rest, "-->") || rest != "-->" && !strings.HasPrefix(rest, " ") {
			continue
		}
		tb := table{arg: strings.TrimSpace(strings.TrimSuffix(rest, "-->")), line: i + 1}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "|") {
			j++
		}
		for j += 2; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ { // past header and separator
			tb.rows = append(tb.rows, cells(lines[j]))
		}
		out = append(out, tb)
		i = j
	}
	return out
}

// cells splits a table row at the | that are not escaped.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	var out []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteByte('|')
			i++
		case row[i] == '|':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(row[i])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// code returns the text of the first `code span` in a cell.
func code(t *testing.T, cell string) string {
	t.Helper()
	_, rest, ok := strings.Cut(cell, "`")
	c, _, ok2 := strings.Cut(rest, "`")
	if !ok || !ok2 {
		t.Fatalf("cell %q has no `code`", cell)
	}
	return c
}

// codeBlocks returns the fenced code blocks of a language.
func codeBlocks(doc, lang string) []string {
	var out []string
	for _, part := range strings.Split(doc, "```"+lang+"\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		out = append(out, block)
	}
	return out
}

func TestConfigurationUpToDate(t *testing.T) {
	want, err := configdoc.Render()
	if err != nil {
		t.Fatal(err)
	}
	got := readDoc(t, "configuration.md")
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			line := func(l []string) string {
				if i < len(l) {
					return l[i]
				}
				return "(end of file)"
			}
			t.Fatalf("docs/configuration.md is out of date with the config package; run go generate ./docs\nline %d is\n\t%s\nwant\n\t%s", i+1, line(g), line(w))
		}
	}
}

func TestConfigurationCoversConfig(t *testing.T) {
	doc := readDoc(t, "configuration.md")
	row := func(field string) string {
		for _, l := range strings.Split(doc, "\n") {
			if strings.HasPrefix(l, "| `"+field+"` |") {
				return l
			}
		}
		t.Errorf("configuration.md has no table row for the field %s", field)
		return ""
	}
	for _, f := range config.FieldNames() {
		row(f)
	}
	tests := []struct {
		field string
		want  []string
	}{
		{"context_window", []string{strconv.Itoa(config.DefaultContextWindow), "at least 1000", "--context-window"}},
		{"max_iterations", []string{strconv.Itoa(config.DefaultMaxIterations), "1 to 1000", "--max-iterations"}},
		{"keep_recent", []string{strconv.Itoa(config.DefaultKeepRecent)}},
		{"unknown_commands", []string{"`confirm`, `safe`", `"` + config.DefaultUnknownCommands + `"`}},
		{"provider", []string{config.EnvProvider, "--provider", `"` + config.DefaultProvider + `"`}},
		{"model", []string{config.EnvModel, "--model"}},
		{"base_url", []string{config.EnvBaseURL, config.EnvOpenAIBaseURL, "--base-url"}},
		{"api_key", []string{config.EnvAPIKey}},
		{"data_dir", []string{config.EnvDataDir}},
		{"command_timeout", []string{`"2m"`, "duration"}},
	}
	for _, tt := range tests {
		r := row(tt.field)
		for _, w := range tt.want {
			if !strings.Contains(r, w) {
				t.Errorf("the %s row lacks %q:\n%s", tt.field, w, r)
			}
		}
	}
	if r := row("api_key"); strings.Contains(r, "--api-key") {
		t.Errorf("the api_key row offers --api-key, which the command line does not have:\n%s", r)
	}
	for _, p := range config.Presets() {
		if !strings.Contains(doc, "| `"+p.Name+"` |") || !strings.Contains(doc, p.BaseURL) {
			t.Errorf("configuration.md lacks the preset %s or its URL %q", p.Name, p.BaseURL)
		}
	}
}

// emptyProject is the file system the examples are judged against: an
// empty project directory, and nothing outside it that can be listed.
type emptyProject struct{ dir string }

func (e emptyProject) ReadDir(p string) ([]fs.DirEntry, error) {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return nil, fs.ErrNotExist
	}
	return os.ReadDir(filepath.Join(e.dir, filepath.FromSlash(p)))
}

func (e emptyProject) HoldsPrivateKey(p string) (bool, int64) { return false, 0 }

func (e emptyProject) EvalSymlinks(p string) (string, error) {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return p, nil
	}
	if _, err := os.Lstat(filepath.Join(e.dir, filepath.FromSlash(p))); err != nil {
		return "", err
	}
	return p, nil
}

// exampleRules is the JSON a classify marker may carry.
type exampleRules struct {
	Allow           []string `json:"allow"`
	Deny            []string `json:"deny"`
	UnknownCommands string   `json:"unknown_commands"`
}

func TestSafetyTiers(t *testing.T) {
	doc := readDoc(t, "safety.md")
	checked := 0
	for _, tb := range markedTables(doc, "classify") {
		var r exampleRules
		if tb.arg != "" {
			if err := json.Unmarshal([]byte(tb.arg), &r); err != nil {
				t.Fatalf("safety.md line %d: the rules %s are not JSON: %v", tb.line, tb.arg, err)
			}
		}
		unknown, err := safety.ParseUnknownPolicy(r.UnknownCommands)
		if err != nil {
			t.Fatal(err)
		}
		cls, err := safety.NewClassifier(safety.Rules{Allow: r.Allow, Deny: r.Deny, UnknownCommands: unknown})
		if err != nil {
			t.Fatalf("safety.md line %d: %v", tb.line, err)
		}
		cls = cls.WithFiles(emptyProject{t.TempDir()})
		for _, row := range tb.rows {
			command, want := code(t, row[0]), row[1]
			v := cls.Classify(command)
			got := v.Tier.String()
			if v.Denied {
				got = "refused"
			}
			if got != want {
				t.Errorf("safety.md says %q is %s; the classifier says %s %v", command, want, got, v.Reasons)
			}
			checked++
		}
	}
	if checked < 60 {
		t.Errorf("checked %d example commands in safety.md; the marked tables hold more (is a <!-- classify --> marker missing?)", checked)
	}
}

func TestSafetySuggestedRules(t *testing.T) {
	tables := markedTables(readDoc(t, "safety.md"), "suggest")
	if len(tables) != 1 || len(tables[0].rows) < 5 {
		t.Fatalf("safety.md should have one <!-- suggest --> table of at least 5 rows; found %d tables", len(tables))
	}
	for _, row := range tables[0].rows {
		command, want := code(t, row[0]), row[1]
		if want != "none" {
			want = code(t, want)
		} else {
			want = ""
		}
		if got := safety.SuggestRule(command); got != want {
			t.Errorf("safety.md says always-allow for %q suggests %q; SuggestRule gives %q", command, want, got)
		}
	}
}

// TestSafetyWeb checks the read_web table of safety.md against the
// classifier, under the rules its marker names.
func TestSafetyWeb(t *testing.T) {
	tables := markedTables(readDoc(t, "safety.md"), "web")
	if len(tables) != 1 || len(tables[0].rows) < 10 {
		t.Fatalf("safety.md should have one <!-- web --> table of at least 10 rows; found %d tables", len(tables))
	}
	var r exampleRules
	if err := json.Unmarshal([]byte(tables[0].arg), &r); err != nil {
		t.Fatalf("safety.md line %d: the rules %s are not JSON: %v", tables[0].line, tables[0].arg, err)
	}
	cls, err := safety.NewClassifier(safety.Rules{Allow: r.Allow, Deny: r.Deny})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tables[0].rows {
		u, want := code(t, row[0]), row[1]
		v := cls.Web(safety.WebAccess{URL: u})
		got := v.Tier.String()
		if v.Denied {
			got = "refused"
		}
		if got != want {
			t.Errorf("safety.md says fetching %q is %s; the classifier says %s %v", u, want, got, v.Reasons)
		}
	}
}

func TestSafetyPaths(t *testing.T) {
	tables := markedTables(readDoc(t, "safety.md"), "paths")
	if len(tables) != 1 || len(tables[0].rows) < 8 {
		t.Fatalf("safety.md should have one <!-- paths --> table of at least 8 rows; found %d tables", len(tables))
	}
	home := filepath.FromSlash("/home/you")
	cls, err := safety.NewClassifier(safety.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tables[0].rows {
		p := code(t, row[0])
		abs := filepath.FromSlash(p)
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			abs = filepath.Join(home, filepath.FromSlash(rest))
		}
		own := safety.OwnFiles{
			ConfigDir: filepath.Join(home, ".config", "pincer"),
			DataDir:   filepath.Join(home, ".local", "share", "pincer"),
			Store:     filepath.Join(home, ".local", "share", "pincer", "pincer.db"),
			TrustFile: filepath.Join(home, ".config", "pincer", "trusted-projects.json"),
			ThemeDir:  filepath.Join(home, ".config", "pincer", "themes"),
		}
		a := safety.PathAccess{Root: filepath.Join(home, "app"), Home: home, Own: own, Path: abs, Write: strings.HasPrefix(row[0], "writes")}
		if !a.Write && !strings.HasPrefix(row[0], "reads") {
			t.Fatalf("safety.md path row %q starts with neither reads nor writes", row[0])
		}
		if v := cls.Path(a); v.Tier.String() != row[1] {
			t.Errorf("safety.md says %s is %s; the path policy says %s %v", row[0], row[1], v.Tier, v.Reasons)
		}
	}
}

// loadExample loads a JSON config example as the user file, with env as
// the environment.
func loadExample(t *testing.T, body string, env map[string]string) (config.Config, error) {
	t.Helper()
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" || k == "USERPROFILE" {
			return home
		}
		return env[k]
	}
	if body != "" {
		p := config.UserConfigPath(getenv)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, _, err := config.Load(config.LoadOptions{Getenv: getenv})
	return cfg, err
}

func TestConfigExamples(t *testing.T) {
	n := 0
	for _, page := range []string{"configuration.md", "providers.md", "safety.md", "mcp.md", "telegram.md"} {
		for i, block := range codeBlocks(readDoc(t, page), "json") {
			if _, err := loadExample(t, block, nil); err != nil {
				t.Errorf("%s, JSON example %d is not a valid config file: %v\n%s", page, i+1, err, block)
			}
			n++
		}
	}
	if n < 8 {
		t.Errorf("found %d JSON config examples; expected at least 8", n)
	}
}

var exportLine = regexp.MustCompile(`^export ((?:[A-Z_][A-Z0-9_]*=\S*\s*)+)$`)

func TestProviderEnvExamples(t *testing.T) {
	n := 0
	for i, block := range codeBlocks(readDoc(t, "providers.md"), "sh") {
		env := map[string]string{}
		for _, l := range strings.Split(block, "\n") {
			l, _, _ = strings.Cut(l, "#")
			m := exportLine.FindStringSubmatch(strings.TrimSpace(l))
			if m == nil {
				continue
			}
			for _, kv := range strings.Fields(m[1]) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
		}
		if len(env) == 0 {
			continue
		}
		n++
		cfg, err := loadExample(t, "", env)
		if err != nil {
			t.Errorf("providers.md, shell example %d does not configure pincer: %v\n%s", i+1, err, block)
			continue
		}
		if want := env["PINCER_PROVIDER"]; want != "" && cfg.Provider != want {
			t.Errorf("providers.md, shell example %d: provider is %q, want %q", i+1, cfg.Provider, want)
		}
		if p, _ := config.LookupPreset(cfg.Provider); p.KeyEnv != "" && !p.Local && cfg.ResolvedAPIKey(func(k string) string { return env[k] }) == "" {
			t.Errorf("providers.md, shell example %d sets no key that provider %s would send", i+1, cfg.Provider)
		}
	}
	if n < 4 {
		t.Errorf("found %d shell examples with export lines in providers.md; expected one per worked example", n)
	}
}

func TestProviderTable(t *testing.T) {
	tables := markedTables(readDoc(t, "providers.md"), "presets")
	if len(tables) != 1 {
		t.Fatalf("providers.md should have one <!-- presets --> table, has %d", len(tables))
	}
	seen := map[string]bool{}
	for _, row := range tables[0].rows {
		name := code(t, row[0])
		p, ok := config.LookupPreset(name)
		if !ok {
			t.Errorf("providers.md lists %q, which is not a preset", name)
			continue
		}
		seen[name] = true
		wantURL, wantKey := p.BaseURL, p.KeyEnv
		gotURL, gotKey := "", ""
		if strings.HasPrefix(row[1], "`") { // "your `base_url`" names no URL
			gotURL = code(t, row[1])
		}
		if strings.HasPrefix(row[2], "`") {
			gotKey = code(t, row[2])
		}
		if gotURL != wantURL || gotKey != wantKey {
			t.Errorf("providers.md says %s is at %q with the key in %q; the preset has %q and %q", name, gotURL, gotKey, wantURL, wantKey)
		}
	}
	for _, p := range config.Presets() {
		if !seen[p.Name] {
			t.Errorf("providers.md's table lacks the preset %s", p.Name)
		}
	}
}

// keyShown is how keys.md writes a key of a key map.
func keyShown(k string) string {
	names := map[string]string{
		"up": "↑", "down": "↓", "left": "←", "right": "→", "pgup": "PgUp", "pgdown": "PgDn",
		"home": "Home", "end": "End", "enter": "Enter", "space": "Space", "esc": "Esc", "tab": "Tab",
	}
	var parts []string
	for _, p := range strings.Split(k, "+") {
		switch {
		case names[p] != "":
			p = names[p]
		case p == "ctrl" || p == "shift" || p == "alt":
			p = strings.ToUpper(p[:1]) + p[1:]
		case len(p) == 1 && len(parts) > 0:
			p = strings.ToUpper(p)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "+")
}

// section returns the text under a level-2 heading, up to the next one.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("keys.md has no section %q", heading)
	}
	body, _, _ := strings.Cut(rest, "\n## ")
	return body
}

func TestKeysDocumented(t *testing.T) {
	doc := readDoc(t, "keys.md")
	tests := []struct {
		section string
		keys    [][]key.Binding
	}{
		{"The transcript", transcript.DefaultKeyMap().FullHelp()},
		{"The project tree", tree.DefaultKeyMap().FullHelp()},
		{"Completion", complete.DefaultKeyMap().FullHelp()},
		{"Reviewing an edit", diffview.DefaultKeyMap().FullHelp()},
	}
	for _, tt := range tests {
		body := section(t, doc, tt.section)
		for _, group := range tt.keys {
			for _, b := range group {
				for _, k := range b.Keys() {
					if shown := keyShown(k); !strings.Contains(body, "`"+shown+"`") {
						t.Errorf("keys.md section %q does not mention `%s` (%s: %s)", tt.section, shown, b.Help().Key, b.Help().Desc)
					}
				}
			}
		}
	}
}

var mdLink = regexp.MustCompile(`\]\(([a-z-]+\.md)?(#[a-z0-9-]+)?\)`)

// slug is the anchor GitHub gives a heading.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	docs := map[string]string{}
	for _, p := range pages {
		docs[p] = readDoc(t, p)
		anchors[p] = map[string]bool{}
		for _, l := range strings.Split(docs[p], "\n") {
			if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && strings.HasPrefix(l, "#") {
				anchors[p][slug(h)] = true
			}
		}
	}
	for _, p := range pages {
		for _, m := range mdLink.FindAllStringSubmatch(docs[p], -1) {
			target := m[1]
			if target == "" {
				target = p
			}
			if _, ok := docs[target]; !ok {
				t.Errorf("%s links to %s, which does not exist", p, target)
				continue
			}
			if a := strings.TrimPrefix(m[2], "#"); a != "" && !anchors[target][a] {
				t.Errorf("%s links to %s#%s, which has no such heading", p, target, a)
			}
		}
	}
}
