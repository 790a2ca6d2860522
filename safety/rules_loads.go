package safety

import "strings"

// An allow rule names a program ("make *"), and vouches for what that
// program does with the project's own files: the project's Makefile, its
// package.json, its go.mod. It does not vouch for code or settings the
// program is told to load from somewhere else: a makefile, template,
// configuration, module or start-up file outside the project, a directory
// outside the project to work in, or a variable that points the program at
// one. Such a command is asked about whatever the allow rules say. The rule
// is one, applied in one place (part.pinned, from part.finish): the table
// below only says which options of which programs name what they load.

// loadSpec says which options of a program name a file or directory it
// loads code or settings from.
type loadSpec struct {
	spec  optSpec  // the program's options that take a value, so clusters parse right
	short string   // short options among them that name what is loaded
	long  []string // long options among them that name what is loaded
	// codeShort and codeLong are options whose value is the program's own
	// code (make --eval): it can load anything, so it counts wherever it
	// points.
	codeShort string
	codeLong  []string
}

// loadSpecs are the programs whose options load code or settings from a
// path. Long options GNU-style programs accept abbreviated match from
// three letters.
var loadSpecs = map[string]loadSpec{
	"make": {spec: optSpec{shortArg: "CfIoWEjl", longArg: []string{"directory", "file", "makefile", "include-dir", "old-file", "assume-old", "what-if", "new-file", "assume-new", "eval", "jobs", "load-average"}},
		short: "CfI", long: []string{"directory", "file", "makefile", "include-dir"}, codeShort: "E", codeLong: []string{"eval"}},
	"npm": {spec: optSpec{shortArg: "Cw", longArg: []string{"prefix", "userconfig", "globalconfig", "node-options", "workspace", "cache", "script-shell"}},
		short: "C", long: []string{"prefix", "userconfig", "globalconfig", "cache"}},
	"yarn": {spec: optSpec{longArg: []string{"cwd", "use-yarnrc", "modules-folder"}},
		long: []string{"cwd", "use-yarnrc", "modules-folder"}},
	"pnpm": {spec: optSpec{shortArg: "C", longArg: []string{"dir", "config", "store-dir", "global-dir"}},
		short: "C", long: []string{"dir", "store-dir", "global-dir"}},
	"go": {spec: optSpec{single: true, longArg: []string{"modfile", "overlay", "C", "o", "pgo", "tags", "ldflags", "gcflags", "asmflags", "run", "bench", "p", "mod", "coverprofile"}},
		long: []string{"modfile", "overlay", "C"}},
	"cargo": {spec: optSpec{shortArg: "CZpjF", longArg: []string{"manifest-path", "config", "target-dir", "package", "features", "jobs", "target", "profile", "bin", "example", "test", "bench"}},
		short: "C", long: []string{"manifest-path"}},
	"node": {spec: optSpec{posix: true, shortArg: "r", longArg: []string{"require", "import", "loader", "experimental-loader", "env-file", "env-file-if-exists", "experimental-config-file"}},
		short: "r", long: []string{"require", "import", "loader", "experimental-loader", "env-file", "env-file-if-exists", "experimental-config-file"}},
	"env": {spec: optSpec{posix: true, shortArg: "CuS", longArg: []string{"chdir", "unset", "split-string"}},
		short: "C", long: []string{"chdir"}},
	"pip": {spec: optSpec{shortArg: "rceitf", longArg: []string{"requirement", "constraint", "editable", "index-url", "extra-index-url", "target", "prefix", "root", "src", "find-links", "python"}},
		short: "rcef", long: []string{"requirement", "constraint", "editable", "find-links", "src"}},
}

// loadsFrom records the options of a program that load code or settings
// from outside the project, for pinned.
func (p *part) loadsFrom(name string, args []field) {
	base := name
	switch name {
	case "gmake":
		base = "make"
	case "pip3":
		base = "pip"
	case "nodejs":
		base = "node"
	}
	ls, ok := loadSpecs[base]
	if !ok {
		return
	}
	ps := getopt(args, ls.spec)
	for _, o := range ps.opts {
		if !o.isVal {
			continue
		}
		flag := "-" + o.name
		if o.long && !ls.spec.single {
			flag = "--" + o.name
		}
		if matchesOpt(o, ls.codeShort, ls.codeLong, ls.spec.single) {
			p.loads = append(p.loads, "runs "+base+" code given in "+flag+", which can load anything")
			continue
		}
		if !ls.names(o) {
			continue
		}
		// A value with a colon is a URL (https:, git+ssh:, data:, file:),
		// not a file of the project.
		if l := p.w.resolve(o.val); !l.project || l.unknown || strings.ContainsRune(o.val, ':') {
			p.loads = append(p.loads, "loads code or settings from "+display(o.val)+" ("+flag+"), outside the project")
		}
	}
}

// scriptSpecs are the interpreters whose first operand is a script they
// run, with the options that take a value and those that give the code
// itself (then there is no script operand).
var scriptSpecs = map[string]struct {
	spec optSpec
	code string // short options whose value is the code
}{
	"python":  {optSpec{posix: true, shortArg: "cmWXQ"}, "cm"},
	"node":    {optSpec{posix: true, shortArg: "erpC", longArg: []string{"require", "import", "loader", "experimental-loader", "eval", "print", "env-file", "conditions", "input-type", "title"}}, "ep"},
	"ruby":    {optSpec{posix: true, shortArg: "eIrCEFTx"}, "e"},
	"perl":    {optSpec{posix: true, shortArg: "eEIMmx"}, "eE"},
	"php":     {optSpec{posix: true, shortArg: "rcdBRFEz"}, "rBRE"},
	"bash":    {optSpec{posix: true, shortArg: "oO"}, ""},
	"sh":      {optSpec{posix: true, shortArg: "oO"}, ""},
	"zsh":     {optSpec{posix: true, shortArg: "oO"}, ""},
	"dash":    {optSpec{posix: true, shortArg: "oO"}, ""},
	"deno":    {optSpec{posix: true}, ""},
	"bun":     {optSpec{posix: true}, ""},
	"tsx":     {optSpec{posix: true}, ""},
	"ts-node": {optSpec{posix: true}, ""},
}

// scriptFrom records the script an interpreter (or go run) runs when it
// lies outside the project, or is fetched (go run pkg@version): an allow
// rule for python3 vouches for the project's code, not for /tmp/x.py.
func (p *part) scriptFrom(name string, args []field) {
	if name == "go" {
		if op, i := firstOperand(args); op.s == "run" {
			ps := getopt(args[i+1:], loadSpecs["go"].spec)
			for _, o := range ps.operands {
				if strings.HasPrefix(o.s, "-") {
					continue
				}
				if strings.Contains(o.s, "@") {
					p.loads = append(p.loads, "runs "+display(o.s)+", a module fetched from the network")
				} else if l := p.w.resolve(o.s); (!l.project || l.unknown) && (strings.ContainsAny(o.s, "/~") || strings.HasSuffix(o.s, ".go")) {
					p.loads = append(p.loads, "runs "+display(o.s)+", outside the project")
				}
				break
			}
		}
		return
	}
	base := strings.TrimRight(name, "0123456789.")
	sp, ok := scriptSpecs[base]
	if !ok {
		return
	}
	if base == "deno" || base == "bun" {
		// deno run and bun run take the script after the subcommand.
		if op, i := firstOperand(args); op.s == "run" {
			args = args[i+1:]
		}
	}
	ps := getopt(args, sp.spec)
	for _, o := range ps.opts {
		if !o.long && strings.Contains(sp.code, o.name) || o.long && (o.name == "eval" || o.name == "print") || !o.long && (base == "bash" || base == "sh" || base == "zsh" || base == "dash") && o.name == "c" {
			return // the code is in the arguments, judged as such
		}
	}
	if len(ps.operands) == 0 {
		return
	}
	s := ps.operands[0].s
	if l := p.w.resolve(s); !l.project || l.unknown {
		p.loads = append(p.loads, "runs the script "+display(s)+", outside the project")
	}
}

// names reports whether o is one of the spec's loading options.
func (ls loadSpec) names(o opt) bool { return matchesOpt(o, ls.short, ls.long, ls.spec.single) }

// matchesOpt reports whether o is one of the short options or the long
// ones, a long one also abbreviated to any prefix (getopt_long takes any
// prefix that names one option, --ev for --eval, and counting a prefix
// that would be ambiguous only asks more often) unless the program takes
// single-dash long options (go), which it does not abbreviate.
func matchesOpt(o opt, short string, long []string, single bool) bool {
	if !o.long {
		return len(o.name) == 1 && strings.Contains(short, o.name)
	}
	for _, l := range long {
		if o.name == l || (!single && o.name != "" && strings.HasPrefix(l, o.name)) {
			return true
		}
	}
	return false
}

// envLoads records a variable set for a command that points it at a place
// outside the project, or passes it options: HOME=/tmp/h makes git read
// /tmp/h/.gitconfig, MAKEFILES=/tmp/M makes make read /tmp/M first,
// npm_config_userconfig=/tmp/rc gives npm another configuration. Variables
// known to be inert are left alone.
func (p *part) envLoads(name, value string) {
	if inertEnv(envSetting{name: name, value: value, known: !strings.Contains(value, unknownMark)}) {
		return
	}
	if strings.Contains(value, unknownMark) {
		p.loads = append(p.loads, "sets "+name+" to text only known at run time")
		return
	}
	for _, piece := range strings.FieldsFunc(value, func(r rune) bool {
		return r == ':' || r == ' ' || r == '\t' || r == '\n' || r == ',' || r == ';' || r == '='
	}) {
		if strings.HasPrefix(piece, "-") {
			p.loads = append(p.loads, "sets "+name+" to options for the program ("+display(piece)+")")
			return
		}
		if !strings.ContainsRune(piece, '/') && !strings.HasPrefix(piece, "~") && !strings.HasPrefix(piece, ".") {
			continue
		}
		if l := p.w.resolve(piece); !l.project || l.unknown {
			p.loads = append(p.loads, "sets "+name+" to "+display(piece)+", outside the project, where the program may load code or settings from")
			return
		}
	}
}

// pinned are the reasons no allow rule lowers this part: what it loads
// from outside the project (loadsFrom, envLoads), and a directory outside
// the project it runs in, whose build files and configuration it reads.
func (p *part) pinned() []string {
	whys := p.loads
	if cwd := p.w.cwd; cwd != "" {
		if l := placePath(".", cwd); !l.project || l.unknown {
			whys = append(whys, "runs in "+display(strings.ReplaceAll(cwd, unknownMark, "…"))+", outside the project, whose build files and configuration it reads")
		}
	}
	return whys
}
