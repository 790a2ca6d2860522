package docs_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// importRule is one arrow architecture.md forbids. A package matching from
// (and none of except) may import no package matching never, or, when only
// is set, no package of the module outside only. Patterns are paths in the
// module: "agent" is that package, "agent/..." it and everything under it,
// "." the root package.
type importRule struct {
	from, except []string
	never, only  []string
	tests        bool   // the rule holds for _test.go files too
	why          string // said when the rule is broken
}

// leaves are the small shared packages every other may use.
var leaves = []string{"internal/...", "chat", "hooks", "customcommands"}

// importRules are the directions of architecture.md's drawing: imports
// point from the command line to the front ends to the agent to the
// tools, policy and store, and the leaves import none of them.
func importRules() []importRule {
	return []importRule{
		{from: leaves, except: []string{"internal/cli"}, only: leaves,
			why: "a leaf imports only other leaves, never a domain package"},
		{from: []string{"safety/..."}, only: leaves,
			why: "safety makes pure decisions: it needs no tool, store, agent or front end"},
		{from: []string{"agent/..."}, never: []string{"ui/...", "internal/cli"},
			why: "the agent draws nothing: front ends use it, never the reverse"},
		{from: []string{"tools/..."}, never: []string{"agent/...", "ui/..."},
			why: "tools do not drive the loop or draw"},
		{from: []string{"tools/..."}, except: []string{"tools/sessiontools"}, never: []string{"session/...", "checkpoint/...", "rewind/..."},
			why: "only the session-backed tools (tools/sessiontools) use the store"},
		{from: []string{"session/...", "checkpoint/...", "rewind/..."}, never: []string{"agent/...", "ui/...", "tools/..."},
			why: "the store knows no model, screen or tools"},
		{from: []string{"themes/..."}, only: leaves,
			why: "themes are palettes and styles only"},
		{from: []string{"..."}, except: []string{"internal/cli", "docs/..."}, never: []string{"config/..."},
			why: "only the composition root reads the configuration; packages get option structs"},
		{from: []string{"..."}, except: []string{"ui/...", "internal/cli", "docs/..."}, never: []string{"themes/..."},
			why: "only the front ends and the composition root style anything"},
		{from: []string{"..."}, except: []string{"."}, never: []string{"internal/cli"}, tests: true,
			why: "only main.go calls the command line; end-to-end tests run the built binary"},
		{from: []string{"..."}, except: []string{"e2e/..."}, never: []string{"e2e/..."}, tests: true,
			why: "the end-to-end test helpers are for the end-to-end tests"},
	}
}

// matches reports whether pkg (a path in the module, "." for its root)
// matches one of patterns.
func matches(pkg string, patterns []string) bool {
	for _, p := range patterns {
		switch {
		case p == "...":
			return true
		case strings.HasSuffix(p, "/..."):
			base := strings.TrimSuffix(p, "/...")
			if pkg == base || strings.HasPrefix(pkg, base+"/") {
				return true
			}
		case pkg == p:
			return true
		}
	}
	return false
}

// imported is one import of the module's own packages, and where it is.
type imported struct {
	pkg, file string
	test      bool
}

// brokenImportRules checks graph (a package's imports of the module's own
// packages, by package) against rules and says what breaks which.
func brokenImportRules(graph map[string][]imported, rules []importRule) []string {
	var out []string
	for from, imps := range graph {
		for _, r := range rules {
			if !matches(from, r.from) || matches(from, r.except) {
				continue
			}
			for _, imp := range imps {
				if imp.test && !r.tests || imp.pkg == from {
					continue
				}
				if matches(imp.pkg, r.never) || r.only != nil && !matches(imp.pkg, r.only) {
					out = append(out, fmt.Sprintf("%s imports %s: %s", imp.file, imp.pkg, r.why))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// moduleImports reads the imports of every Go file of the module at root
// (all build tags alike) and keeps those of the module's own packages.
func moduleImports(root string) (map[string][]imported, error) {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	var module string
	for _, l := range strings.Split(string(gomod), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			module = strings.TrimSpace(m)
		}
	}
	if module == "" {
		return nil, fmt.Errorf("go.mod at %s names no module", root)
	}
	graph := map[string][]imported{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := filepath.ToSlash(rel)
		file, _ := filepath.Rel(root, p)
		for _, spec := range f.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			var own string
			switch {
			case path == module:
				own = "."
			case strings.HasPrefix(path, module+"/"):
				own = strings.TrimPrefix(path, module+"/")
			default:
				continue
			}
			graph[pkg] = append(graph[pkg], imported{pkg: own, file: filepath.ToSlash(file), test: strings.HasSuffix(name, "_test.go")})
		}
		return nil
	})
	return graph, err
}

// TestImportsPointOneWay holds the module to the directions architecture.md
// draws; a move that needs a new arrow changes the rule and the drawing
// together.
func TestImportsPointOneWay(t *testing.T) {
	graph, err := moduleImports("..")
	if err != nil {
		t.Fatal(err)
	}
	if len(graph) < 20 {
		t.Fatalf("read the imports of only %d packages; the walk no longer finds the module", len(graph))
	}
	for _, b := range brokenImportRules(graph, importRules()) {
		t.Error(b)
	}
}

// TestImportRulesCatchWhatTheyForbid: each kind of broken arrow is found,
// in a module written for the test, and the allowed ones are not.
func TestImportRulesCatchWhatTheyForbid(t *testing.T) {
	files := map[string]string{
		"go.mod":                       "module pincer\n",
		"main.go":                      `package main; import _ "pincer/internal/cli"`,
		"internal/cli/wire.go":         `package cli; import (_ "pincer/config"; _ "pincer/agent"; _ "pincer/ui")`,
		"ui/app.go":                    `package ui; import (_ "pincer/agent"; _ "pincer/themes")`,
		"agent/loop.go":                `package agent; import (_ "pincer/tools"; _ "pincer/chat")`,
		"agent/draw.go":                `package agent; import _ "pincer/ui"`,                                 // broken: agent → ui
		"agent/cfg_test.go":            `package agent; import _ "pincer/config"`,                             // a test may read config
		"chat/chat.go":                 `package chat; import _ "pincer/internal/human"`,                      // leaf → leaf
		"internal/human/human.go":      `package human; import _ "pincer/agent"`,                              // broken: leaf → agent
		"safety/tier.go":               `package safety; import _ "pincer/tools"`,                             // broken: safety → tools
		"tools/run.go":                 `package tools; import _ "pincer/session"`,                            // broken: tools → store
		"tools/sessiontools/recall.go": `package sessiontools; import (_ "pincer/session"; _ "pincer/tools")`, // allowed
		"tools/sessiontools/loop.go":   `package sessiontools; import _ "pincer/agent"`,                       // broken: tools → agent
		"session/store.go":             `package session; import _ "pincer/config"`,                           // broken: store → config
		"themes/theme.go":              `package themes; import _ "pincer/ui"`,                                // broken: themes → ui
		"tools/card.go":                `package tools; import _ "pincer/themes"`,                             // broken: tools → themes
		"e2e/run/run_test.go":          `package run; import _ "pincer/internal/cli"`,                         // broken: test → cli
		"e2e/e2etest/e2etest.go":       `package e2etest; import _ "pincer/session"`,                          // allowed
		"tools/helpers_test.go":        `package tools; import _ "pincer/e2e/e2etest"`,                        // broken: e2etest outside e2e
		"testdata/x/x.go":              `package x; import _ "pincer/internal/cli"`,                           // not a package of the module
	}
	root := t.TempDir()
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	graph, err := moduleImports(root)
	if err != nil {
		t.Fatal(err)
	}
	got := brokenImportRules(graph, importRules())
	want := []string{
		"agent/draw.go imports ui",
		"e2e/run/run_test.go imports internal/cli",
		"internal/human/human.go imports agent",
		"safety/tier.go imports tools",
		"session/store.go imports config",
		"themes/theme.go imports ui",
		"tools/card.go imports themes",
		"tools/helpers_test.go imports e2e/e2etest",
		"tools/run.go imports session",
		"tools/sessiontools/loop.go imports agent",
	}
	var prefixes []string
	for _, g := range got {
		prefixes = append(prefixes, g[:strings.Index(g, ":")])
	}
	if strings.Join(prefixes, "\n") != strings.Join(want, "\n") {
		t.Errorf("broken rules found:\n%s\nwant exactly:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
