package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// ServerConfig is one language's server as configured (the `lsp` setting)
// or built in.
type ServerConfig struct {
	// Command and Args start the server; it speaks the protocol on its
	// standard input and output. Alternatives are further commands tried
	// in order when Command is not on PATH (built-in defaults only).
	Command      string
	Args         []string
	Alternatives [][]string
	// Env is added to the server's environment.
	Env map[string]string
	// Extensions are the file name endings of the language, with the dot.
	Extensions []string
	// Markers are files whose presence at the project root says the
	// project is of this language (go.mod, Cargo.toml).
	Markers []string
	// Disabled keeps the server off.
	Disabled bool
	// InitializationOptions are sent as they are with initialize.
	InitializationOptions []byte
	// Origin says where the setting came from ("built in", a file).
	Origin string
}

// Defaults are the servers pincer knows without configuration, by
// language. Each runs only when its program is on PATH.
func Defaults() map[string]ServerConfig {
	return map[string]ServerConfig{
		"go":         {Command: "gopls", Extensions: []string{".go"}, Markers: []string{"go.mod", "go.work"}},
		"rust":       {Command: "rust-analyzer", Extensions: []string{".rs"}, Markers: []string{"Cargo.toml"}},
		"typescript": {Command: "typescript-language-server", Args: []string{"--stdio"}, Extensions: []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}, Markers: []string{"tsconfig.json", "package.json", "jsconfig.json"}},
		"python": {Command: "basedpyright-langserver", Args: []string{"--stdio"}, Alternatives: [][]string{{"pyright-langserver", "--stdio"}, {"pylsp"}},
			Extensions: []string{".py", ".pyi"}, Markers: []string{"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"}},
		"c": {Command: "clangd", Extensions: []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"}, Markers: []string{"compile_commands.json", "CMakeLists.txt", "compile_flags.txt"}},
	}
}

// Merge lays configured servers over the defaults: a configured field
// replaces the default's, a language pincer does not know is added.
func Merge(defaults, configured map[string]ServerConfig) map[string]ServerConfig {
	out := make(map[string]ServerConfig, len(defaults)+len(configured))
	for k, v := range defaults {
		v.Origin = "built in"
		out[k] = v
	}
	for k, c := range configured {
		d, known := out[k]
		if !known {
			out[k] = c
			continue
		}
		if c.Command != "" {
			d.Command, d.Args, d.Alternatives = c.Command, c.Args, nil
		} else if c.Args != nil {
			d.Args = c.Args
		}
		if c.Env != nil {
			d.Env = c.Env
		}
		if c.Extensions != nil {
			d.Extensions = c.Extensions
		}
		if c.InitializationOptions != nil {
			d.InitializationOptions = c.InitializationOptions
		}
		d.Disabled = c.Disabled
		if c.Origin != "" {
			d.Origin = c.Origin
		}
		out[k] = d
	}
	return out
}

// languageIDs are the protocol's language identifiers where they differ
// from pincer's name of the language.
var languageIDs = map[string]string{
	".tsx": "typescriptreact", ".jsx": "javascriptreact", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
	".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
}

// languageID is the identifier didOpen gives for path.
func languageID(path, lang string) string {
	if id, ok := languageIDs[strings.ToLower(filepath.Ext(path))]; ok {
		return id
	}
	return lang
}

// Plan is what pincer would start for one language in a project, for
// `pincer lsp` and /lsp.
type Plan struct {
	Language string   `json:"language"`
	Command  []string `json:"command"`          // the program and its arguments
	Path     string   `json:"path,omitempty"`   // where the program is; "" when not found
	Origin   string   `json:"origin"`           // built in, or the file that set it
	Project  bool     `json:"project"`          // the project has files of the language (a marker)
	Disabled bool     `json:"disabled"`         // switched off in the configuration
	Reason   string   `json:"reason,omitempty"` // why it would not start
}

// Plans lists every language's server as it would start in root, sorted
// with the project's languages first.
func Plans(root string, servers map[string]ServerConfig, lookPath func(string) (string, error)) []Plan {
	var out []Plan
	for lang, c := range servers {
		p := Plan{Language: lang, Origin: c.Origin, Disabled: c.Disabled}
		for _, m := range c.Markers {
			if _, err := os.Stat(filepath.Join(root, m)); err == nil {
				p.Project = true
				break
			}
		}
		argv, path := resolveCommand(c, lookPath)
		p.Command, p.Path = argv, path
		switch {
		case c.Disabled:
			p.Reason = "disabled in the configuration"
		case path == "":
			p.Reason = argv[0] + " is not on PATH"
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Project != out[j].Project {
			return out[i].Project
		}
		return out[i].Language < out[j].Language
	})
	return out
}

// resolveCommand finds the first of c's commands on PATH; when none is
// there it returns the first, with an empty path.
func resolveCommand(c ServerConfig, lookPath func(string) (string, error)) (argv []string, path string) {
	cands := append([][]string{append([]string{c.Command}, c.Args...)}, c.Alternatives...)
	for _, cand := range cands {
		if len(cand) == 0 || cand[0] == "" {
			continue
		}
		if p, err := lookPath(cand[0]); err == nil {
			return slices.Clone(cand), p
		}
	}
	return slices.Clone(cands[0]), ""
}
