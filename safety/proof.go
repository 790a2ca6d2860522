package safety

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A part the engine finds nothing against is still not Safe until it is
// proven harmless: every level of it (wrapper → program) is on the closed
// list of commands that run without asking (proof_safelist.go), with options on
// that program's list and arguments that are written out (or resolve to
// text the classifier can read) and name no secret, no device and nothing
// a command that runs unasked may not read. Environment prefixes come from
// a short inert list, redirections go to /dev/null, and nothing the shell
// evaluates as code is left unproven. Whatever the list does not prove is
// at least Confirm: the list says what is harmless, so a family of harm
// nobody thought of is asked about rather than let through.

// unprovenWhy starts the reason given for a part the list does not prove.
const unprovenWhy = "not on the list of commands that run without asking"

// proofCtx is what proving one command line knows besides its words.
type proofCtx struct {
	p     *part
	level int          // the unwrapping level being proven (wrapper → program)
	items *itemSource  // what item words stand for (find -exec {}, xargs input)
	out   *listing     // set when the command prints file names (find, ls)
	env   []envSetting // the environment prefixes of the command
	// secret is set when the proof found the command reads a secret or a
	// private key: a failure then is one no allow rule lowers.
	secret bool
}

// proofFail says which level a proof failed at and why.
type proofFail struct {
	level int
	why   string
	// secret: the command reads a secret, which an allow rule, written
	// for a program, does not vouch for.
	secret bool
}

// itemSource describes words a command gets at run time from a listing:
// the files find -exec passes for {}, the lines xargs reads.
type itemSource struct {
	list *listing // nil: nothing is known about them
}

// listing describes a stream of file names: paths under roots, dotfiles
// included when hidden, only those a filter keeps.
type listing struct {
	roots  []string
	hidden bool
	keep   func(name string, dir bool) bool // nil keeps all
}

// envSetting is one NAME=value before a command.
type envSetting struct {
	name, value string
	known       bool
}

// prove checks a part the engine left at Safe. It returns the allowlist
// entries that proved it, or why it is not proven and at which level.
func (p *part) prove() ([]string, *proofFail) {
	c := &proofCtx{p: p}
	for _, a := range p.assigns {
		c.env = append(c.env, p.envSettings(a)...)
	}
	if len(p.levels) == 0 {
		// NAME=value on its own, or a statement that is only redirections.
		for _, e := range c.env {
			if why := standaloneAssign(e); why != "" {
				return nil, &proofFail{level: levelPart, why: why}
			}
		}
		if len(c.env) > 0 {
			return []string{"a shell variable"}, nil
		}
		return nil, nil
	}
	entry, fail := c.argv(p.levels[0])
	if fail != nil {
		fail.secret = c.secret
		return nil, fail
	}
	if c.out != nil {
		p.out.list = c.out
	}
	return []string{entry}, nil
}

// fail builds a failure at the current level.
func (c *proofCtx) fail(why string) *proofFail {
	lvl := c.level
	if n := len(c.p.levels); lvl >= n {
		lvl = n - 1
	}
	return &proofFail{level: lvl, why: why}
}

// argv proves one command line: its program is on the list and its
// arguments are what the list allows.
func (c *proofCtx) argv(argv []field) (string, *proofFail) {
	if len(argv) == 0 {
		return "", nil
	}
	prog := argv[0]
	if !prog.known() || prog.computed || prog.item {
		return "", c.fail("the program name is not written out in the command")
	}
	name := prog.s
	if strings.ContainsRune(name, '\\') {
		return "", c.fail("runs " + display(name) + ", a program path pincer does not place")
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		if !systemBinDirs[name[:i]] {
			return "", c.fail("runs " + display(name) + ", not a program from the system's directories")
		}
		name = name[i+1:]
	}
	sc := c.p.w.sc
	if _, ok := sc.aliases[name]; ok && c.level == 0 {
		return "", c.fail("uses the alias " + name + ", whose text is only known when it is defined")
	}
	if sc.funcs[name] && c.level == 0 {
		// Its body is proven where it is defined; what it is given is
		// proven where the body uses it.
		return "the function " + name + " of this command", nil
	}
	e, ok := c.p.w.sh.c.tables().safelist[name]
	if !ok {
		if len(argv) == 2 && c.p.w.sh.c.tables().versionOK[name] && isVersionFlag(name, argv[1].s) && argv[1].known() {
			if why := c.envFor(name, nil); why != "" {
				return "", c.fail(why)
			}
			return name + " " + argv[1].s + " (prints its version or help)", nil
		}
		return "", c.fail(display(name) + " is not one of them")
	}
	if len(argv) == 2 && isVersionFlag(name, argv[1].s) && argv[1].known() && c.p.w.sh.c.tables().versionOK[name] {
		if why := c.envFor(name, e); why != "" {
			return "", c.fail(why)
		}
		return name + " " + argv[1].s + " (prints its version or help)", nil
	}
	if why := c.envFor(name, e); why != "" {
		return "", c.fail(why)
	}
	return c.entry(name, e, argv[1:])
}

// isVersionFlag reports a lone --version or --help style argument, or
// the short version flag of a program known to use one (python3 -V, not
// grep -v).
func isVersionFlag(name, s string) bool {
	switch s {
	case "--version", "--help", "-version", "-help":
		return true
	case "-V", "-v":
		return shortVersion[name] == s || shortVersion[name] == "-Vv" || name == "python" || name == "python3" || name == "python2"
	}
	return false
}

// systemBinDirs are the directories a program may be named by path from
// and still be the system's own.
var systemBinDirs = map[string]bool{
	"/bin": true, "/usr/bin": true, "/usr/local/bin": true, "/sbin": true, "/usr/sbin": true,
	"/opt/homebrew/bin": true, "/usr/local/sbin": true, "/run/current-system/sw/bin": true,
}

// entry proves the arguments of one program against its entry.
func (c *proofCtx) entry(name string, e *entry, args []field) (string, *proofFail) {
	a, why := c.parse(e, args)
	if why != "" {
		return "", c.fail(why)
	}
	if e.subs != nil {
		return c.sub(name, e, a)
	}
	if e.check != nil {
		if why := e.check(c, a); why != "" {
			return "", c.fail(why)
		}
	}
	if why := c.operands(e, a.ops); why != "" {
		return "", c.fail(why)
	}
	if e.filter && len(a.ops) == 0 && c.p.stdin.list != nil && c.out == nil {
		c.out = c.p.stdin.list // a subset of the names it reads
	}
	label := name + " (" + e.about + ")"
	if a.rest != nil {
		inner, fail := c.wrapped(a.rest)
		if fail != nil {
			return "", fail
		}
		return label + " → " + inner, nil
	}
	return label, nil
}

// sub proves a program with subcommands (git, go): the first operand
// names the entry for the rest.
func (c *proofCtx) sub(name string, e *entry, a *proofArgs) (string, *proofFail) {
	if e.check != nil {
		if why := e.check(c, a); why != "" {
			return "", c.fail(why)
		}
	}
	if len(a.ops) == 0 {
		if e.subs[""] != nil {
			return name + " (" + e.about + ")", nil
		}
		return "", c.fail(name + " without a subcommand")
	}
	s := a.ops[0]
	if !s.known() {
		return "", c.fail("the " + name + " subcommand is only known at run time")
	}
	se, ok := e.subs[s.s]
	if !ok {
		return "", c.fail(name + " " + display(s.s) + " is not one of them")
	}
	label, fail := c.entry(name+" "+s.s, se, a.ops[1:])
	if fail != nil {
		return "", fail
	}
	return label, nil
}

// wrapped proves the command a wrapper runs, one level down.
func (c *proofCtx) wrapped(argv []field) (string, *proofFail) {
	saved := c.level
	c.level++
	defer func() { c.level = saved }()
	return c.argv(argv)
}

// proofArgs is a command line split by an entry's options.
type proofArgs struct {
	opts []provenOpt
	ops  []field
	rest []field // the command a wrapper runs
}

type provenOpt struct {
	name string // "-n" or "--lines"
	val  field
	has  bool
}

// has reports an option by any of its names.
func (a *proofArgs) has(names ...string) bool {
	_, ok := a.value(names...)
	return ok
}

// value returns the last value of an option by any of its names.
func (a *proofArgs) value(names ...string) (field, bool) {
	var v field
	found := false
	for _, o := range a.opts {
		for _, n := range names {
			if o.name == n {
				v, found = o.val, true
			}
		}
	}
	return v, found
}

// values returns every value of an option.
func (a *proofArgs) values(names ...string) []field {
	var out []field
	for _, o := range a.opts {
		for _, n := range names {
			if o.name == n && o.has {
				out = append(out, o.val)
			}
		}
	}
	return out
}

// parse splits args by the entry's options, checking each option against
// the list and each option value by its kind. Operands are left for the
// entry's checks.
func (c *proofCtx) parse(e *entry, args []field) (*proofArgs, string) {
	a := &proofArgs{}
	args = c.expandGlobs(args, e)
	if e.raw {
		a.ops = args
		return a, ""
	}
	posix := e.posix || e.subs != nil
	dashdash := false
	for i := 0; i < len(args); i++ {
		f := args[i]
		if dashdash || (posix && len(a.ops) > 0) {
			a.ops = append(a.ops, f)
		} else if !f.known() && !f.glob && !f.item && !f.proc {
			if !e.unknownOK() {
				return nil, "an argument is only known at run time, so it may be an option"
			}
			a.ops = append(a.ops, f)
		} else if f.s == "--" && !e.noDashDash {
			dashdash = true
		} else if len(f.s) < 2 || (f.s[0] != '-' && !(f.s[0] == '+' && e.plus)) || f.glob || f.item {
			a.ops = append(a.ops, f)
		} else if e.anyOpts {
			a.opts = append(a.opts, provenOpt{name: f.s})
		} else {
			n, why := c.option(e, a, args, i)
			if why != "" {
				return nil, why
			}
			i = n
		}
		if e.wrap > 0 && len(a.ops) >= e.wrap {
			// Options end at the first operand; after the ones the wrapper
			// takes itself comes the command.
			for _, op := range a.ops[:e.wrap-1] {
				if why := c.value(argLit, op); why != "" {
					return nil, why
				}
			}
			cmd := a.ops[e.wrap-1:]
			a.rest = append(cmd, args[i+1:]...)
			a.ops = nil
			return a, ""
		}
	}
	if e.wrap > 0 && !e.bare {
		return nil, "runs no command"
	}
	return a, ""
}

// option reads the option at args[i] (one word, or a word and its value)
// and returns the index of the last word it used.
func (c *proofCtx) option(e *entry, a *proofArgs, args []field, i int) (int, string) {
	s := args[i].s
	if e.number && isDigits(s[1:]) {
		a.opts = append(a.opts, provenOpt{name: "-#", val: literalField(s[1:]), has: true})
		return i, ""
	}
	if s[0] == '+' {
		a.opts = append(a.opts, provenOpt{name: "+", val: literalField(s[1:]), has: true})
		return i, ""
	}
	long := strings.HasPrefix(s, "--") || e.single
	if long {
		name, val, hasEq := strings.Cut(s, "=")
		o, ok := e.opts.long[name]
		if !ok {
			return i, "the option " + display(name) + " of " + e.name + " is not on its list"
		}
		switch {
		case !o.takes && hasEq:
			return i, "the option " + display(name) + " takes no value"
		case !o.takes:
			a.opts = append(a.opts, provenOpt{name: name})
			return i, ""
		case hasEq:
			f := args[i]
			f.s = val
			if why := c.value(o.kind, f); why != "" {
				return i, why
			}
			a.opts = append(a.opts, provenOpt{name: name, val: f, has: true})
			return i, ""
		case o.next && i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "-"):
		case o.optional:
			a.opts = append(a.opts, provenOpt{name: name})
			return i, ""
		case i+1 >= len(args):
			return i, "the option " + display(name) + " lacks its value"
		}
		if why := c.value(o.kind, args[i+1]); why != "" {
			return i, why
		}
		a.opts = append(a.opts, provenOpt{name: name, val: args[i+1], has: true})
		return i + 1, ""
	}
	for j := 1; j < len(s); j++ {
		o, ok := e.opts.short[s[j]]
		if !ok {
			return i, "the option -" + s[j:j+1] + " of " + e.name + " is not on its list"
		}
		name := "-" + s[j:j+1]
		if !o.takes {
			a.opts = append(a.opts, provenOpt{name: name})
			continue
		}
		if j+1 < len(s) {
			f := args[i]
			f.s = s[j+1:]
			if why := c.value(o.kind, f); why != "" {
				return i, why
			}
			a.opts = append(a.opts, provenOpt{name: name, val: f, has: true})
			return i, ""
		}
		if o.optional {
			a.opts = append(a.opts, provenOpt{name: name})
			return i, ""
		}
		if i+1 >= len(args) {
			return i, "the option " + name + " lacks its value"
		}
		if why := c.value(o.kind, args[i+1]); why != "" {
			return i, why
		}
		a.opts = append(a.opts, provenOpt{name: name, val: args[i+1], has: true})
		return i + 1, ""
	}
	return i, ""
}

// expandGlobs replaces each file name pattern by the names it matches when
// the file system says (so a file named like an option is read as one),
// and leaves it as a pattern otherwise.
func (c *proofCtx) expandGlobs(args []field, e *entry) []field {
	var out []field
	changed := false
	for i, f := range args {
		if !f.glob && !f.fromGlob {
			if changed {
				out = append(out, f)
			}
			continue
		}
		names, ok := c.p.w.globFiles(f.s)
		if !ok || len(names) == 0 || dotPatternSecret(f.s) != "" {
			// Left as a pattern: judged by what it could match.
			if changed {
				out = append(out, f)
			}
			continue
		}
		if !changed {
			out = append(out, args[:i]...)
			changed = true
		}
		for _, n := range names {
			out = append(out, field{s: n, taint: f.taint, computed: f.computed, matched: true})
		}
	}
	if !changed {
		return args
	}
	return out
}

// operands checks the operands by the entry's kinds.
func (c *proofCtx) operands(e *entry, ops []field) string {
	if e.maxOps >= 0 && len(ops) > e.maxOps {
		if e.maxOps == 0 {
			return e.name + " takes no operands here"
		}
		return e.name + " takes at most " + itoa(e.maxOps) + " operands here"
	}
	for i, op := range ops {
		k := e.operands
		if i == 0 && e.first != argNone {
			k = e.first
		}
		if why := c.value(k, op); why != "" {
			return why
		}
	}
	return ""
}

// value checks one word by what the program does with it.
func (c *proofCtx) value(k argKind, f field) string {
	switch k {
	case argAny, argList:
		return ""
	case argLit, argNone:
		if !f.known() && !f.fromGlob {
			return display(strings.ReplaceAll(f.s, unknownMark, "…")) + " is only known at run time"
		}
		return ""
	case argRead:
		return c.read(f)
	case argTree:
		return c.tree(f, true, nil)
	case argDir:
		if !f.known() {
			return "works in a directory only known at run time"
		}
		if l := c.p.w.resolve(f.s); !l.project {
			return "works in " + display(f.s) + ", outside the project"
		}
		return ""
	case argScript:
		if f.dynamic() {
			return "runs shell text only known at run time"
		}
		return ""
	}
	return "an argument pincer cannot check"
}

// read proves a file the program reads.
func (c *proofCtx) read(f field) string {
	if f.item {
		return c.itemRead(f)
	}
	if f.proc {
		return "" // <(cmd): the command is proven on its own
	}
	if f.glob || f.fromGlob {
		return c.globRead(f.s)
	}
	if !f.known() {
		return "reads a file whose name is only known at run time"
	}
	if f.s == "-" {
		return ""
	}
	l := c.p.w.resolve(f.s)
	if why := c.readRisk(l); why != "" {
		return "reads " + display(f.s) + " (" + why + ")"
	}
	if why := c.linkRisk(l); why != "" {
		return "reads " + display(f.s) + " (" + why + ")"
	}
	if f.matched && !sniffName(path.Base(l.path)) {
		return ""
	}
	if why := c.keyRisk(l); why != "" {
		return "reads " + display(f.s) + " (" + why + ")"
	}
	return ""
}

// keyRisk looks into a file the program reads: a private key in a file
// with an innocent name (deploy_key) is a secret all the same.
func (c *proofCtx) keyRisk(l loc) string {
	if l.unknown {
		return ""
	}
	holds, ok := c.p.w.keyIn(l.path)
	switch {
	case !ok:
		return "pincer cannot check it for a private key: the command reads too many files"
	case holds:
		c.secret = true
		return "holds a private key"
	}
	return ""
}

// linkRisk follows symbolic links (when the file system says) and judges
// where they lead: a link in the project may point at a secret.
func (c *proofCtx) linkRisk(l loc) string {
	files := c.p.w.sh.c.files
	if files == nil || l.unknown {
		return ""
	}
	real, err := files.EvalSymlinks(l.path)
	if err != nil || real == l.path {
		return ""
	}
	if why := c.readRisk(placePath(real, "")); why != "" {
		return "a link to " + display(real) + ": " + why
	}
	return ""
}

// globRead proves a pattern of files the program reads: each file it
// matches, and for a pattern over dotfiles, each secret it could match.
func (c *proofCtx) globRead(pattern string) string {
	names, ok := c.p.w.globFiles(pattern)
	if !ok {
		if s := couldNameSecret(pattern); s != "" {
			return "reads " + display(pattern) + ", which could match " + s + " (a secret-looking file)"
		}
		if l := c.p.w.resolve(pattern); c.readRisk(l) != "" {
			return "reads " + display(pattern) + " (" + c.readRisk(l) + ")"
		}
		return ""
	}
	for _, n := range names {
		l := c.p.w.resolve(n)
		if why := c.readRisk(l); why != "" {
			return "reads " + display(pattern) + ", which matches " + display(n) + " (" + why + ")"
		}
		if why := c.linkRisk(l); why != "" {
			return "reads " + display(pattern) + ", which matches " + display(n) + " (" + why + ")"
		}
		// Like a tree, a pattern's matches are looked into only when their
		// names could be a key's: head -n1 *.csv must not spend the budget.
		if !sniffName(path.Base(n)) {
			continue
		}
		if why := c.keyRisk(l); why != "" {
			return "reads " + display(pattern) + ", which matches " + display(n) + " (" + why + ")"
		}
	}
	if s := dotPatternSecret(pattern); s != "" {
		return "reads " + display(pattern) + ", a pattern over dotfiles that could match " + s
	}
	return ""
}

// dotPatternSecret reports a pattern over dotfiles (.e*) that could match
// a secret, whether or not one is there when the command is judged.
func dotPatternSecret(pattern string) string {
	for _, comp := range strings.Split(pattern, "/") {
		if strings.HasPrefix(comp, ".") && hasMeta(comp) {
			return couldNameSecret(pattern)
		}
	}
	return ""
}

// itemRead proves a file the program gets from a listing at run time.
func (c *proofCtx) itemRead(f field) string {
	if c.items == nil || c.items.list == nil {
		return "reads files named in its input, which pincer cannot see"
	}
	return c.listRead(c.items.list)
}

// listRead proves reading every file a listing may name.
func (c *proofCtx) listRead(l *listing) string {
	for _, r := range l.roots {
		if why := c.treeAt(r, l.hidden, l.keep); why != "" {
			return why
		}
	}
	return ""
}

// tree proves a directory (or file) the program reads recursively.
func (c *proofCtx) tree(f field, hidden bool, keep func(string, bool) bool) string {
	if f.item {
		return c.itemRead(f)
	}
	if f.glob || f.fromGlob {
		names, ok := c.p.w.globFiles(f.s)
		if !ok {
			return "reads every file under " + display(f.s) + ", a pattern pincer cannot expand"
		}
		for _, n := range names {
			if why := c.treeAt(n, hidden, keep); why != "" {
				return why
			}
			if sniffName(path.Base(n)) {
				if why := c.keyRisk(c.p.w.resolve(n)); why != "" {
					return "reads " + display(f.s) + ", which matches " + display(n) + " (" + why + ")"
				}
			}
		}
		return ""
	}
	if !f.known() {
		return "reads every file under a directory only known at run time"
	}
	if why := c.treeAt(f.s, hidden, keep); why != "" {
		return why
	}
	// A file named as the tree (rg foo deploy_key) is read as itself.
	if l := c.p.w.resolve(f.s); !f.matched || sniffName(path.Base(l.path)) {
		if why := c.keyRisk(l); why != "" {
			return "reads " + display(f.s) + " (" + why + ")"
		}
	}
	return ""
}

// treeAt proves reading every file under one path.
func (c *proofCtx) treeAt(p string, hidden bool, keep func(string, bool) bool) string {
	l := c.p.w.resolve(p)
	if why := c.readRisk(l); why != "" {
		return "reads " + display(p) + " (" + why + ")"
	}
	if why := c.linkRisk(l); why != "" {
		return "reads " + display(p) + " (" + why + ")"
	}
	var skip func(string, bool) bool
	if keep != nil {
		skip = func(name string, dir bool) bool { return !keep(name, dir) }
	}
	found, why, ok := c.p.w.treeSecret(l.path, hidden, skip)
	if !ok {
		return "reads every file under " + display(p) + ", which pincer cannot check for secrets"
	}
	if found != "" {
		c.secret = true
		return "reads every file under " + display(p) + ", including " + display(found) + ", which " + why
	}
	return ""
}

// readRisk is readRisk, noting a secret.
func (c *proofCtx) readRisk(l loc) string {
	why := readRisk(l)
	if why != "" && !l.unknown && secretLoc(l) != "" {
		c.secret = true
	}
	return why
}

// readRisk names why reading a place is not proven harmless: a secret, a
// device, another process's private files, or "" for an ordinary file.
func readRisk(l loc) string {
	if l.unknown {
		return "its name is only known at run time"
	}
	if why := secretLoc(l); why != "" {
		return why
	}
	p := l.path
	switch {
	case ownStream(p):
		return ""
	case under(p, "/dev"):
		return "a device"
	case strings.HasPrefix(p, "/proc/"):
		comps := strings.Split(p, "/")
		if len(comps) > 3 {
			switch comps[3] {
			case "environ", "mem", "fd", "fdinfo", "map_files", "root", "cwd", "exe", "task", "pagemap", "syscall", "auxv", "stack":
				return "another process's private files"
			}
		}
		if p == "/proc/kcore" || p == "/proc/kmsg" {
			return "the kernel's memory or messages"
		}
	case under(p, "/sys/firmware"), under(p, "/sys/kernel/debug"):
		return "firmware or kernel data"
	}
	return ""
}

// ownStream reports the paths of a command's own standard streams and
// /dev/null, the only device a proven command may use.
func ownStream(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/0", "/dev/fd/1", "/dev/fd/2":
		return true
	}
	return false
}

// envSettings lists the NAME=value prefixes of one assignment.
func (p *part) envSettings(a *syntax.Assign) []envSetting {
	if a.Name == nil {
		return nil
	}
	name := a.Name.Value
	if a.Naked || a.Value == nil && a.Array == nil {
		return []envSetting{{name: name, known: true}}
	}
	if a.Array != nil || a.Index != nil || a.Append {
		return []envSetting{{name: name + "[…]"}}
	}
	var out []envSetting
	for _, v := range p.w.valueAlts(a.Value) {
		out = append(out, envSetting{name: name, value: v, known: !strings.Contains(v, unknownMark)})
	}
	return out
}

// envFor proves the environment prefixes of a command: each is inert, or
// inert for this program.
func (c *proofCtx) envFor(name string, e *entry) string {
	if e != nil && e.passEnv {
		return "" // the command it runs gets them, and is judged with them
	}
	for _, s := range c.env {
		if inertEnv(s) {
			continue
		}
		if e != nil && e.env != nil && s.known && e.env(s.name, s.value) {
			continue
		}
		return "sets " + display(s.name) + " for it, which is not on the list of inert variables"
	}
	return ""
}

// inertEnv reports a variable that changes only how output looks: the
// locale, the time zone, colours and the terminal's size, and pagers set
// to cat.
func inertEnv(s envSetting) bool {
	if !s.known {
		return false
	}
	switch n := s.name; {
	case strings.HasPrefix(n, "LC_") && isEnvName(n):
		return true
	case n == "LANG", n == "LANGUAGE", n == "TZ", n == "NO_COLOR", n == "CLICOLOR", n == "CLICOLOR_FORCE",
		n == "FORCE_COLOR", n == "TERM", n == "COLORTERM", n == "COLUMNS", n == "LINES", n == "POSIXLY_CORRECT",
		n == "TIME_STYLE", n == "LS_COLORS", n == "GREP_COLORS", n == "GREP_COLOR", n == "QUOTING_STYLE",
		n == "BLOCK_SIZE", n == "BLOCKSIZE", n == "DU_BLOCK_SIZE", n == "DF_BLOCK_SIZE":
		return true
	case n == "PAGER", n == "GIT_PAGER", n == "MANPAGER", n == "SYSTEMD_PAGER":
		return s.value == "cat" || s.value == ""
	}
	return false
}

// isEnvName reports a plain variable name.
func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// localName reports a name a script may use for its own variables
// without touching what programs read: lower case, or inert.
func localName(s string) bool {
	if !isEnvName(s) {
		return false
	}
	c := s[0]
	if c == '_' && len(s) > 1 {
		c = s[1]
	}
	return c >= 'a' && c <= 'z' || c == '_'
}

// standaloneAssign proves NAME=value on its own: a variable of the script
// (lower case) or an inert one. Any other name may already be exported,
// and then changes what every later program reads (HOME=.; git diff).
func standaloneAssign(s envSetting) string {
	if strings.HasSuffix(s.name, "[…]") {
		if localName(strings.TrimSuffix(s.name, "[…]")) {
			return ""
		}
		return "sets the array " + display(strings.TrimSuffix(s.name, "[…]")) + ", which is not a variable of the script's own"
	}
	if localName(s.name) || inertEnv(envSetting{name: s.name, value: s.value, known: true}) {
		return ""
	}
	return "sets " + display(s.name) + ", which may be in the environment of the programs that follow and is not on the list of inert variables"
}

// itoa is strconv.Itoa for small counts.
func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// placeOf is the clean place of a path argument, for messages.
func placeOf(s string) string { return path.Clean(s) }

// unknownOK reports an entry whose every option and operand is harmless
// whatever it is (it prints or lists only), so a word known only at run
// time may stand anywhere: as an option it is one from the list or an
// error, as an operand it is printed or listed.
func (e *entry) unknownOK() bool {
	if e.wrap > 0 || e.raw || e.subs != nil || e.passEnv || (e.operands != argAny && e.operands != argList) {
		return false
	}
	if e.anyOpts {
		return e.operands == argAny
	}
	for _, o := range e.opts.short {
		if o.takes && o.kind != argLit && o.kind != argAny && o.kind != argList {
			return false
		}
	}
	for _, o := range e.opts.long {
		if o.takes && o.kind != argLit && o.kind != argAny && o.kind != argList {
			return false
		}
	}
	return true
}
