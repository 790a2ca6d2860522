package tools

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"pincer/internal/human"
)

// SuggestFix reads the output of a command that failed and, when it shows
// a missing package, module or program that is plain to fix, returns one
// sentence naming the fix, such as "install the missing Python package
// with `pip install PyYAML` (PyYAML provides yaml), then run the command
// again." It returns "" when nothing is recognised.
//
// The model reads the sentence at the end of the tool result, so it can
// install what is missing (through the usual approval) and retry instead
// of guessing. Only the most specific finding is reported: a language's
// own "module not found" error before a shell's "command not found". root
// is the project directory; its lock files choose the package manager
// (pnpm, yarn, bun, uv, poetry, pipenv, Bundler), and a name that is a
// directory or file of the project is reported as a path or import
// problem, never as a package to install. Names that are not plain package
// or program names get no suggestion, so the text can never carry a shell
// command the output smuggled in.
func SuggestFix(command, output, root string) string {
	h := hinter{command: command, output: output, root: root}
	for _, detect := range []func(*hinter) string{
		(*hinter).python, (*hinter).node, (*hinter).golang, (*hinter).rust,
		(*hinter).ruby, (*hinter).sharedLibrary, (*hinter).program,
	} {
		if s := detect(&h); s != "" {
			return s
		}
	}
	return ""
}

// hinter holds one failed command while the detectors look at it.
type hinter struct {
	command, output, root string
}

// has reports whether the project has a file or directory at rel.
func (h *hinter) has(rel ...string) bool {
	if h.root == "" {
		return false
	}
	for _, r := range rel {
		if _, err := os.Stat(filepath.Join(h.root, filepath.FromSlash(r))); err == nil {
			return true
		}
	}
	return false
}

// maxNames is how many missing packages one suggestion installs at once.
const maxNames = 5

// linePattern finds a name in the lines of the output that contain its
// needle, a literal part of the message: searching for the literal first
// keeps a long log cheap to read.
type linePattern struct {
	needle string
	re     func() *regexp.Regexp // its first group is the name; compiled on first use
}

func newLinePattern(needle, expr string) linePattern {
	return linePattern{needle: needle, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// matches returns the distinct names p finds, in order of appearance,
// leaving out lines that quote the text in an assertion (a failing test
// that talks about a missing module is not a missing module).
func (h *hinter) matches(p linePattern) []string {
	var out []string
	for rest := h.output; ; {
		i := strings.Index(rest, p.needle)
		if i < 0 {
			return out
		}
		start := strings.LastIndexByte(rest[:i], '\n') + 1
		end := strings.IndexByte(rest[i:], '\n')
		line := rest[start:]
		if end >= 0 {
			line = rest[start : i+end]
			rest = rest[i+end:]
		} else {
			rest = ""
		}
		if strings.Contains(line, "AssertionError") || strings.Contains(line, "assert ") {
			continue
		}
		for _, m := range p.re().FindAllStringSubmatch(line, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
}

// containsAny reports whether the output holds any of the texts.
func (h *hinter) containsAny(texts ...string) bool {
	for _, t := range texts {
		if strings.Contains(h.output, t) {
			return true
		}
	}
	return false
}

// commandWords splits the command line roughly into words, quotes removed;
// enough to see which program it starts with.
func commandWords(command string) []string {
	line, _, _ := strings.Cut(strings.TrimSpace(command), "\n")
	var words []string
	for _, w := range strings.Fields(line) {
		w = strings.Trim(w, `"'`)
		if len(words) == 0 && strings.Contains(w, "=") && !strings.HasPrefix(w, "=") {
			continue // FOO=1 cmd: the assignment is not the program
		}
		words = append(words, w)
	}
	return words
}

// firstWord is the program the command line starts with.
func firstWord(command string) string {
	if w := commandWords(command); len(w) > 0 {
		return w[0]
	}
	return ""
}

var (
	pyModuleName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	})
	npmName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(@[A-Za-z0-9][A-Za-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]*$`)
	})
	goImportPath  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~-]*(/[A-Za-z0-9._~+-]+)*$`) })
	crateName     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })
	gemName       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`) })
	programName   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`) })
	pythonProgram = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(python[0-9.]*|py)(\.exe)?$`) })
)

// ---- Python ----

var (
	pyModuleNotFound = newLinePattern("No module named", `(?:ModuleNotFoundError|ImportError): No module named '?([^'\s]+?)'?(?:\s|$)`)
	// python3 -m pytest without pytest: "/usr/bin/python3: No module named pytest".
	pyDashMMissing = newLinePattern("No module named", `^\S*?(?:python[0-9.]*|py)(?:\.exe)?: No module named ([^\s']+)`)
)

// pyPackages maps import names to the PyPI package that provides them,
// where the two differ. A dotted key matches that module and its children.
var pyPackages = map[string]string{
	"yaml": "PyYAML", "cv2": "opencv-python", "PIL": "Pillow", "sklearn": "scikit-learn",
	"skimage": "scikit-image", "bs4": "beautifulsoup4", "dateutil": "python-dateutil",
	"dotenv": "python-dotenv", "jwt": "PyJWT", "magic": "python-magic", "serial": "pyserial",
	"usb": "pyusb", "Crypto": "pycryptodome", "Cryptodome": "pycryptodomex",
	"google.protobuf": "protobuf", "googleapiclient": "google-api-python-client",
	"google.auth": "google-auth", "google.generativeai": "google-generativeai",
	"attr": "attrs", "gi": "PyGObject", "OpenSSL": "pyOpenSSL", "zmq": "pyzmq",
	"docx": "python-docx", "pptx": "python-pptx", "fitz": "PyMuPDF", "MySQLdb": "mysqlclient",
	"git": "GitPython", "github": "PyGithub", "telegram": "python-telegram-bot",
	"discord": "discord.py", "OpenGL": "PyOpenGL", "wx": "wxPython", "cairo": "pycairo",
	"dns": "dnspython", "nacl": "PyNaCl", "grpc": "grpcio", "Bio": "biopython",
	"kafka": "kafka-python", "ldap": "python-ldap", "jose": "python-jose",
	"multipart": "python-multipart", "slugify": "python-slugify", "socks": "PySocks",
	"websocket": "websocket-client", "absl": "absl-py", "Xlib": "python-xlib",
	"bluetooth": "pybluez", "rest_framework": "djangorestframework",
	"corsheaders": "django-cors-headers", "debug_toolbar": "django-debug-toolbar",
	"crispy_forms": "django-crispy-forms", "umap": "umap-learn", "memcache": "python-memcached",
	"can": "python-can", "RPi": "RPi.GPIO", "odf": "odfpy", "pdfminer": "pdfminer.six",
	"markdown_it": "markdown-it-py", "nmap": "python-nmap", "whois": "python-whois",
	"faiss": "faiss-cpu", "mpl_toolkits": "matplotlib", "pkg_resources": "setuptools",
	"distutils": "setuptools", "win32api": "pywin32", "win32con": "pywin32",
	"win32com": "pywin32", "pywintypes": "pywin32", "ruamel.yaml": "ruamel.yaml",
	"sentencepiece": "sentencepiece", "tflite_runtime": "tflite-runtime",
}

// pyPackage returns the PyPI package for a missing module, or "" when it
// cannot tell (a namespace such as google with nothing after it).
func pyPackage(module string) string {
	parts := strings.Split(module, ".")
	for n := len(parts); n > 0; n-- {
		if p, ok := pyPackages[strings.Join(parts[:n], ".")]; ok {
			return p
		}
	}
	switch {
	case len(parts) >= 3 && parts[0] == "google" && parts[1] == "cloud":
		return "google-cloud-" + strings.ReplaceAll(parts[2], "_", "-")
	case len(parts) >= 2 && parts[0] == "azure":
		return strings.Join(parts, "-")
	case parts[0] == "google" || parts[0] == "azure":
		return ""
	}
	return parts[0]
}

// python reads ModuleNotFoundError, ImportError and python -m's "No module
// named" lines.
func (h *hinter) python() string {
	modules := h.matches(pyModuleNotFound)
	for _, m := range h.matches(pyDashMMissing) {
		if !slices.Contains(modules, m) {
			modules = append(modules, m)
		}
	}
	var pkgs, provides []string
	for _, m := range modules {
		if !pyModuleName().MatchString(m) {
			continue
		}
		top, _, _ := strings.Cut(m, ".")
		switch {
		case h.has(top, top+".py", "src/"+top):
			return "the module " + top + " is part of this project, not a package to install: run the command from the project root (or as python -m), or install the project with `pip install -e .`."
		case top == "pip":
			return "pip is missing from this Python; add it with `" + h.pythonWord("python3") + " -m ensurepip --upgrade`, then run the command again."
		case top == "tkinter" || top == "_tkinter":
			return "this Python was built without Tk; install your system's Tk package for Python (python3-tk on Debian and Ubuntu, python-tk with Homebrew)."
		case top == "venv" || top == "ensurepip":
			return "this Python lacks venv; install your system's python3-venv package (Debian and Ubuntu split it out)."
		}
		p := pyPackage(m)
		if p == "" || slices.Contains(pkgs, p) {
			continue
		}
		pkgs = append(pkgs, p)
		if !strings.EqualFold(p, top) {
			provides = append(provides, p+" provides "+m)
		}
		if len(pkgs) == maxNames {
			break
		}
	}
	if len(pkgs) == 0 {
		return ""
	}
	s := "install the missing Python " + human.Noun(len(pkgs), "package")
	s += " with `" + h.pythonInstall(false) + " " + strings.Join(pkgs, " ") + "`"
	if len(provides) > 0 {
		s += " (" + strings.Join(provides, "; ") + ")"
	}
	return s + ", then run the command again."
}

// pythonWord is the Python the command ran, as typed, or def.
func (h *hinter) pythonWord(def string) string {
	for _, w := range commandWords(h.command) {
		if pythonProgram().MatchString(path.Base(filepath.ToSlash(w))) {
			return w
		}
	}
	return def
}

// pythonInstall is how this project adds a Python package: uv, poetry or
// pipenv when their lock files are there, else pip for the Python the
// command ran.
func (h *hinter) pythonInstall(dev bool) string {
	switch {
	case h.has("uv.lock") && dev:
		return "uv add --dev"
	case h.has("uv.lock"):
		return "uv add"
	case h.has("poetry.lock") && dev:
		return "poetry add --group dev"
	case h.has("poetry.lock"):
		return "poetry add"
	case h.has("Pipfile") && dev:
		return "pipenv install --dev"
	case h.has("Pipfile"):
		return "pipenv install"
	}
	if py := h.pythonWord(""); py != "" {
		return py + " -m pip install"
	}
	return "pip install"
}

// ---- Node ----

var nodeMissing = []linePattern{
	newLinePattern("Cannot find ", `Cannot find (?:module|package) '([^']+)'`),
	newLinePattern("Can't resolve", `Can't resolve '([^']+)'`),                       // webpack
	newLinePattern("Failed to resolve import", `Failed to resolve import "([^"]+)"`), // vite
	newLinePattern("Could not resolve", `Could not resolve "([^"]+)"`),               // esbuild
}

// node reads Node, TypeScript and bundler "cannot find module" errors.
func (h *hinter) node() string {
	var pkgs []string
	for _, re := range nodeMissing {
		for _, spec := range h.matches(re) {
			if isPathSpec(spec) {
				if len(pkgs) == 0 {
					return "the file " + spec + " does not exist, and it is a path, not a package to install: check the path (imports are relative to the importing file, scripts to the project root)."
				}
				continue
			}
			p := npmPackage(spec)
			if p != "" && !slices.Contains(pkgs, p) && len(pkgs) < maxNames {
				pkgs = append(pkgs, p)
			}
		}
	}
	if len(pkgs) == 0 {
		return ""
	}
	pm := h.nodeManager()
	if h.has("package.json") && !h.has("node_modules") {
		return "the project's dependencies are not installed (there is no node_modules); run `" + pm + " install`, then run the command again."
	}
	add := pm + " add"
	if pm == "npm" {
		add = "npm install"
	}
	return "install the missing " + human.Noun(len(pkgs), "package") + " with `" + add + " " + strings.Join(pkgs, " ") + "`, then run the command again."
}

// isPathSpec reports an import of a file rather than a package.
func isPathSpec(spec string) bool {
	return strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, `\`) ||
		strings.HasPrefix(spec, "file:") || len(spec) > 2 && spec[1] == ':' && (spec[2] == '\\' || spec[2] == '/')
}

// npmPackage is the package an import names: @scope/name/sub gives
// @scope/name, name/sub gives name. Built-ins (node:…) and names npm would
// not accept give "".
func npmPackage(spec string) string {
	if strings.HasPrefix(spec, "node:") {
		return ""
	}
	parts := strings.Split(spec, "/")
	p := parts[0]
	if strings.HasPrefix(spec, "@") {
		if len(parts) < 2 {
			return ""
		}
		p = parts[0] + "/" + parts[1]
	}
	if !npmName().MatchString(p) {
		return ""
	}
	return p
}

// nodeManager is the package manager the project's lock file names.
func (h *hinter) nodeManager() string {
	switch {
	case h.has("pnpm-lock.yaml"):
		return "pnpm"
	case h.has("yarn.lock"):
		return "yarn"
	case h.has("bun.lockb", "bun.lock"):
		return "bun"
	}
	return "npm"
}

// ---- Go ----

var (
	goNoModule   = newLinePattern("no required module provides package", `no required module provides package ([^\s;]+)`)
	goNotInStd   = newLinePattern("is not in std", `package ([^\s]+) is not in std`)
	goGopathMiss = newLinePattern("cannot find package", `cannot find package "([^"]+)"`)
	goModulePath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^module\s+"?([^\s"]+)"?`) })
)

// golang reads the go command's errors about missing modules.
func (h *hinter) golang() string {
	module := h.goModule()
	var pkgs []string
	for _, p := range h.matches(goNoModule) {
		if !goImportPath().MatchString(p) {
			continue
		}
		if module != "" && (p == module || strings.HasPrefix(p, module+"/")) {
			return "the package " + p + " would be part of this module (" + module + ") but does not exist: check the import path or create the package."
		}
		if !slices.Contains(pkgs, p) && len(pkgs) < maxNames {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) > 0 {
		return "add the missing " + human.Noun(len(pkgs), "module") + " with `go get " + strings.Join(pkgs, " ") + "`, then build again."
	}
	if h.containsAny("missing go.sum entry", "updates to go.mod needed") {
		return "go.mod or go.sum is out of date; run `go mod tidy`, then build again."
	}
	if ps := h.matches(goNotInStd); len(ps) > 0 && goImportPath().MatchString(ps[0]) {
		s := "the import path " + ps[0] + " has no domain, so Go looked for it in the standard library"
		if module != "" {
			return s + "; a package of this project is imported as " + module + "/" + ps[0] + "."
		}
		return s + "; import packages by their full module path."
	}
	if h.containsAny("go.mod file not found in current directory or any parent directory", "cannot find main module") {
		return "this directory has no go.mod; create one with your module path, for example `go mod init example.com/" + h.dirName() + "`."
	}
	if ps := h.matches(goGopathMiss); len(ps) > 0 && goImportPath().MatchString(ps[0]) {
		if module == "" {
			return "this directory has no go.mod; create one with your module path (for example `go mod init example.com/" + h.dirName() + "`), then `go get " + ps[0] + "`."
		}
		return "add the missing module with `go get " + ps[0] + "`, then build again."
	}
	return ""
}

// goModule is the module path in the project's go.mod, or "".
func (h *hinter) goModule() string {
	if h.root == "" {
		return ""
	}
	data, err := readOwn(filepath.Join(h.root, "go.mod"))
	if err != nil {
		return ""
	}
	if m := goModulePath().FindSubmatch(data); m != nil {
		return string(m[1])
	}
	return ""
}

// dirName is the project directory's name when it makes a plain module
// path element, else "myproject".
func (h *hinter) dirName() string {
	if b := filepath.Base(h.root); h.root != "" && programName().MatchString(b) {
		return strings.ToLower(b)
	}
	return "myproject"
}

// ---- Rust ----

var (
	rustUnlinked   = newLinePattern("crate", "(?:undeclared crate or module|unlinked crate) `([^`]+)`")
	rustNoCrate    = newLinePattern("can't find crate for", "can't find crate for `([^`]+)`")
	rustNoTarget   = newLinePattern("target may not be installed", "the `([^`]+)` target may not be installed")
	rustNoSubcmd   = newLinePattern("no such command", "no such command: `([^`]+)`")
	rustComponents = map[string]string{"clippy": "clippy", "fmt": "rustfmt"}
)

// rust reads rustc's unresolved-crate errors and cargo's unknown commands.
func (h *hinter) rust() string {
	if t := h.matches(rustNoTarget); len(t) > 0 && programName().MatchString(t[0]) {
		return "the Rust standard library for " + t[0] + " is not installed; add it with `rustup target add " + t[0] + "`."
	}
	if c := h.matches(rustNoSubcmd); len(c) > 0 && programName().MatchString(c[0]) {
		if comp, ok := rustComponents[c[0]]; ok {
			return "cargo " + c[0] + " needs the " + comp + " component; add it with `rustup component add " + comp + "`."
		}
		return "cargo has no " + c[0] + " command; if it is a plugin, install it with `cargo install cargo-" + c[0] + "`."
	}
	var crates []string
	for _, re := range []linePattern{rustUnlinked, rustNoCrate} {
		for _, c := range h.matches(re) {
			if !crateName().MatchString(c) || c == "std" || c == "core" || c == "alloc" || c == "crate" || c == "self" || c == "super" {
				continue
			}
			if h.has("src/"+c+".rs", "src/"+c+"/mod.rs") {
				return "src/" + c + " is a module of this crate, not a dependency: declare it with `mod " + c + ";` in main.rs or lib.rs."
			}
			if !slices.Contains(crates, c) && len(crates) < maxNames {
				crates = append(crates, c)
			}
		}
	}
	if len(crates) == 0 {
		return ""
	}
	return "add the missing " + human.Noun(len(crates), "crate") + " with `cargo add " + strings.Join(crates, " ") + "`, then build again."
}

// ---- Ruby ----

var (
	rubyLoadError = newLinePattern("cannot load such file", `cannot load such file -- (\S+)`)
	rubyGems      = map[string]string{
		"active_support": "activesupport", "active_record": "activerecord", "active_model": "activemodel",
		"action_controller": "actionpack", "action_dispatch": "actionpack", "action_view": "actionview",
		"action_mailer": "actionmailer", "active_job": "activejob",
	}
)

// ruby reads LoadError and Bundler's missing-gem errors.
func (h *hinter) ruby() string {
	if h.containsAny("Could not find gem '", "Bundler::GemNotFound", "Run `bundle install` to install missing gems") {
		return "the project's gems are not installed; run `bundle install`, then run the command again."
	}
	files := h.matches(rubyLoadError)
	if len(files) == 0 {
		return ""
	}
	f := files[0]
	if isPathSpec(f) {
		return "the file " + f + " does not exist; check the path (require_relative is relative to the requiring file)."
	}
	top, _, _ := strings.Cut(f, "/")
	if h.has("lib/" + top + ".rb") {
		return top + " is part of this project's lib/, not a gem: add lib to the load path (ruby -Ilib) or use require_relative."
	}
	gem := top
	if g, ok := rubyGems[top]; ok {
		gem = g
	}
	if !gemName().MatchString(gem) {
		return ""
	}
	if h.has("Gemfile") {
		return "add the missing gem with `bundle add " + gem + "`, then run the command again."
	}
	return "install the missing gem with `gem install " + gem + "`, then run the command again."
}

// ---- shared libraries ----

var sharedLib = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:error while loading shared libraries|ImportError|OSError): ([A-Za-z0-9_.+-]+\.so[0-9.]*): cannot open shared object file|Library not loaded: (?:@rpath/)?(\S+\.dylib)`)
})

// sharedLibrary reads the dynamic loader's "cannot open shared object".
func (h *hinter) sharedLibrary() string {
	if !h.containsAny("cannot open shared object file", "Library not loaded") {
		return ""
	}
	m := sharedLib().FindStringSubmatch(h.output)
	if m == nil {
		return ""
	}
	lib := m[1]
	if lib == "" {
		lib = path.Base(m[2])
	}
	return "the system library " + lib + " is missing; install the system package that provides it, then run the command again."
}

// ---- programs ----

// programMissing are the ways shells and tools say a program is not there;
// the first group is its name.
var programMissing = []linePattern{
	// bash, ksh, make: "bash: line 1: rg: command not found", "make: rg: Command not found".
	newLinePattern("ommand not found", `(?:^|: )(?:line \d+: )?([^\s:'"]+): [Cc]ommand not found`),
	// zsh: "zsh:1: command not found: rg".
	newLinePattern("command not found: ", `command not found: ([^\s'"]+)`),
	// dash, busybox ash and ksh: "sh: 1: rg: not found".
	newLinePattern(": not found", `^\S*sh(?:\.exe)?: (?:\d+: )?(?:line \d+: )?([^\s:'"]+): not found`),
	// fish: "fish: Unknown command: rg".
	newLinePattern("Unknown command", `fish: Unknown command:? '?([^\s'"]+)'?`),
	// cmd.exe: "'rg' is not recognized as an internal or external command,".
	newLinePattern("is not recognized as an internal", `'([^']+)' is not recognized as an internal or external command`),
	// PowerShell 5 and 7: "The term 'rg' is not recognized as the name of a cmdlet".
	newLinePattern("is not recognized as", `The term '([^']+)' is not recognized as (?:the|a) name of a cmdlet`),
	// Go programs (docker, task runners): exec: "rg": executable file not found in $PATH.
	newLinePattern("executable file not found", `exec: "([^"]+)": executable file not found in`),
	// GNU make running a recipe's program itself: "make: rg: No such file or directory".
	newLinePattern("No such file or directory", `^make(?:\[\d+\])?: ([^\s:'"*]+): No such file or directory`),
}

var (
	// env in a #! line: "/usr/bin/env: 'python': No such file or directory".
	envInterpreter = newLinePattern("No such file or directory", `env: ['‘"]?([^'’"\s:]+)['’"]?: No such file or directory`)
	badInterpreter = newLinePattern("bad interpreter", `: ([^\s:]+): bad interpreter`)
)

// toolPackages says what to install for common programs, in words that
// hold for any package manager.
var toolPackages = map[string]string{
	"rg": "ripgrep (it provides the rg command)", "fd": "fd (the package is fd-find on Debian and Ubuntu, where the command is fdfind)",
	"bat": "bat (on Debian and Ubuntu the command is batcat)", "jq": "jq", "yq": "yq",
	"make": "make (part of build-essential on Debian and Ubuntu and of the Xcode command line tools on macOS)",
	"gcc":  "a C compiler (gcc or clang; build-essential on Debian and Ubuntu, the Xcode command line tools on macOS)",
	"cc":   "a C compiler (gcc or clang; build-essential on Debian and Ubuntu, the Xcode command line tools on macOS)",
	"g++":  "a C++ compiler (g++ or clang++; build-essential on Debian and Ubuntu)", "c++": "a C++ compiler (g++ or clang++)",
	"clang": "clang", "cmake": "CMake", "ninja": "Ninja (ninja-build)", "pkg-config": "pkg-config",
	"node": "Node.js (it provides node, npm and npx)", "npm": "Node.js (it provides node, npm and npx)",
	"npx": "Node.js (it provides node, npm and npx)", "pnpm": "pnpm (with Node.js installed, `corepack enable` provides it)",
	"yarn": "Yarn (with Node.js installed, `corepack enable` provides it)", "bun": "Bun (https://bun.sh)", "deno": "Deno (https://deno.com)",
	"python": "Python 3; on many systems the command is python3, so try that first", "python3": "Python 3",
	"pip": "pip; or use `python3 -m pip`, which needs no separate command", "pip3": "pip; or use `python3 -m pip`, which needs no separate command",
	"go": "Go (https://go.dev/dl)", "gofmt": "Go (https://go.dev/dl)",
	"cargo": "Rust with rustup (https://rustup.rs)", "rustc": "Rust with rustup (https://rustup.rs)", "rustup": "rustup (https://rustup.rs)",
	"cargo-clippy": "the clippy component: `rustup component add clippy`", "rustfmt": "the rustfmt component: `rustup component add rustfmt`",
	"docker": "Docker", "docker-compose": "Docker Compose, or use `docker compose` (the plugin)", "podman": "Podman",
	"git": "Git", "curl": "curl", "wget": "wget", "unzip": "unzip", "zip": "zip", "rsync": "rsync", "tree": "tree",
	"fzf": "fzf", "tmux": "tmux", "htop": "htop", "shellcheck": "ShellCheck", "sqlite3": "SQLite (sqlite3)",
	"psql": "the PostgreSQL client (psql)", "mysql": "the MySQL client", "redis-cli": "Redis (it provides redis-cli)",
	"gh": "the GitHub CLI (gh)", "kubectl": "kubectl", "helm": "Helm", "terraform": "Terraform",
	"aws": "the AWS CLI", "gcloud": "the Google Cloud CLI", "az": "the Azure CLI",
	"java": "a JDK (Java Development Kit)", "javac": "a JDK (Java Development Kit)", "mvn": "Maven",
	"gradle": "Gradle, or use the project's ./gradlew if it has one", "ruby": "Ruby", "gem": "Ruby (it provides gem)",
	"bundle": "Bundler (`gem install bundler`)", "php": "PHP", "composer": "Composer", "dotnet": "the .NET SDK",
	"protoc": "the Protocol Buffers compiler (protoc)", "golangci-lint": "golangci-lint (https://golangci-lint.run)",
	"pipx": "pipx", "poetry": "Poetry (`pipx install poetry`)", "uv": "uv (`pipx install uv` or `pip install uv`)",
}

// goTools are programs installed with go install.
var goTools = map[string]string{
	"goimports": "golang.org/x/tools/cmd/goimports", "gopls": "golang.org/x/tools/gopls",
	"staticcheck": "honnef.co/go/tools/cmd/staticcheck", "dlv": "github.com/go-delve/delve/cmd/dlv",
	"mockgen": "go.uber.org/mock/mockgen", "protoc-gen-go": "google.golang.org/protobuf/cmd/protoc-gen-go",
	"govulncheck": "golang.org/x/vuln/cmd/govulncheck",
}

// pythonTools are command-line programs that come from a Python package,
// usually installed per project.
var pythonTools = map[string]string{
	"pytest": "pytest", "black": "black", "ruff": "ruff", "mypy": "mypy", "flake8": "flake8",
	"isort": "isort", "pylint": "pylint", "tox": "tox", "nox": "nox", "ipython": "ipython",
	"jupyter": "jupyter", "pre-commit": "pre-commit", "uvicorn": "uvicorn", "gunicorn": "gunicorn",
	"django-admin": "Django", "flask": "Flask", "sphinx-build": "sphinx", "coverage": "coverage",
	"twine": "twine", "alembic": "alembic", "celery": "celery", "streamlit": "streamlit",
}

// jsTools are command-line programs that come from an npm package, usually
// installed per project.
var jsTools = map[string]string{
	"eslint": "eslint", "prettier": "prettier", "tsc": "typescript", "jest": "jest", "vitest": "vitest",
	"mocha": "mocha", "webpack": "webpack-cli", "vite": "vite", "next": "next", "nuxt": "nuxt",
	"tsx": "tsx", "ts-node": "ts-node", "nodemon": "nodemon", "playwright": "@playwright/test",
	"cypress": "cypress", "rollup": "rollup", "esbuild": "esbuild", "turbo": "turbo", "nx": "nx",
	"stylelint": "stylelint", "ng": "@angular/cli", "react-scripts": "react-scripts", "lerna": "lerna",
}

// program reads "command not found" and its relatives, and a command
// whose own first word is a path that is not there.
func (h *hinter) program() string {
	if s := h.interpreter(); s != "" {
		return s
	}
	if s := h.missingPath(); s != "" {
		return s
	}
	for _, re := range programMissing {
		if names := h.matches(re); len(names) > 0 {
			return h.installProgram(names[0])
		}
	}
	return ""
}

// interpreter reads a script's #! line naming a program that is missing.
func (h *hinter) interpreter() string {
	names := h.matches(envInterpreter)
	if len(names) == 0 {
		names = h.matches(badInterpreter)
	}
	if len(names) == 0 {
		return ""
	}
	name := path.Base(filepath.ToSlash(names[0]))
	if !programName().MatchString(name) {
		return ""
	}
	if name == "python" {
		return "the script's first line (#!) asks for python, which is not installed here; change it to python3, or run the script with `python3 " + firstWord(h.command) + "`."
	}
	return "the script's first line (#!) asks for " + name + ", which is not installed; install it or change that line."
}

// missingPath handles a command that starts with a path (./gradlew,
// bin/setup) that does not exist or cannot run.
func (h *hinter) missingPath() string {
	fw := firstWord(h.command)
	if !strings.ContainsAny(fw, `/\`) {
		return ""
	}
	switch {
	case strings.Contains(h.output, fw+": No such file or directory"):
		return fw + " does not exist; check the path (commands run in the project root) with ls or glob."
	case strings.Contains(h.output, fw+": cannot execute: required file not found"):
		return "the program on the first line (#!) of " + fw + " is not installed; check that line."
	case strings.Contains(h.output, fw+": Permission denied"):
		return fw + " is not executable; run it through its interpreter (for example `sh " + fw + "`) or make it executable with chmod +x."
	}
	return ""
}

// installProgram says how to get a program that is not on PATH.
func (h *hinter) installProgram(name string) string {
	if strings.ContainsAny(name, `/\`) {
		return name + " does not exist; check the path (commands run in the project root)."
	}
	if strings.EqualFold(path.Ext(name), ".exe") {
		name = name[:len(name)-4]
	}
	if !programName().MatchString(name) {
		return ""
	}
	switch name {
	case "ll", "la", "l":
		return name + " is an alias that only interactive shells define; use `ls -l` (or `ls -la`)."
	}
	if pkg, ok := pythonTools[name]; ok {
		return h.pythonTool(name, pkg)
	}
	if pkg, ok := jsTools[name]; ok {
		return h.jsTool(name, pkg)
	}
	if mod, ok := goTools[name]; ok {
		return name + " is not installed; install it with `go install " + mod + "@latest` (it lands in $(go env GOPATH)/bin, which must be on PATH)."
	}
	if what, ok := toolPackages[name]; ok {
		return "the command " + name + " is not installed; install " + what + ", then run the command again."
	}
	return "the program " + name + " is not installed or not on PATH; install it, or check the name."
}

// pythonTool says how to get a Python command-line program.
func (h *hinter) pythonTool(name, pkg string) string {
	switch {
	case h.has("uv.lock"):
		return name + " is not on PATH; run it in the project's environment with `uv run " + name + "` (add it with `uv add --dev " + pkg + "` if the project lacks it)."
	case h.has("poetry.lock"):
		return name + " is not on PATH; run it in the project's environment with `poetry run " + name + "` (add it with `poetry add --group dev " + pkg + "` if the project lacks it)."
	}
	return name + " is not installed; install it with `" + h.pythonInstall(true) + " " + pkg + "`, then run the command again."
}

// jsTool says how to get a Node command-line program: the project's own
// copy when it has one, else a dev dependency. It never suggests npx for a
// package the project lacks: npx would fetch whatever the registry holds
// under that name.
func (h *hinter) jsTool(name, pkg string) string {
	pm := h.nodeManager()
	if h.has("package.json") && !h.has("node_modules") {
		return "the project's dependencies are not installed (there is no node_modules); run `" + pm + " install`, then `" + jsExec(pm) + " " + name + "`."
	}
	if h.has("node_modules/.bin/" + name) {
		return name + " is installed in the project but not on PATH; run it with `" + jsExec(pm) + " " + name + "`."
	}
	add := map[string]string{"npm": "npm install --save-dev", "pnpm": "pnpm add -D", "yarn": "yarn add --dev", "bun": "bun add -d"}[pm]
	return name + " is not installed; add it to the project with `" + add + " " + pkg + "`, then run it with `" + jsExec(pm) + " " + name + "`."
}

// jsExec is how a package manager runs a program of the project.
func jsExec(pm string) string {
	switch pm {
	case "pnpm":
		return "pnpm exec"
	case "yarn":
		return "yarn"
	case "bun":
		return "bunx"
	}
	return "npx"
}
