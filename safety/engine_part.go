package safety

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Levels of a raise, for allow rules: an allow rule that matches the
// command at unwrap level k lowers Confirm raises made at level k or deeper
// and raises made for the whole part (its redirections), never sticky ones.
const (
	levelPart   = -1 // redirections and other effects of the whole simple command
	levelSticky = -2 // never lowered by an allow rule
)

type raise struct {
	tier  Tier
	level int
	why   string
}

// part is one simple command being classified: its text, the argv at
// each level of unwrapping (sudo → env → rm), and what each level raised.
type part struct {
	w      *walker
	text   string
	level  int
	levels [][]field
	raises []raise
	stdin  stream
	out    stream
	bulk   bool
	wrote  []string // files the command writes (by name, not redirection)
	// params are the variables the command's own words expand (not those
	// inside its substitutions), when it came from a parsed command.
	params []string
	parsed bool
	// assigns are the NAME=value words before the command (or the whole
	// statement, when it has no command).
	assigns []*syntax.Assign
	proofs  []string // the allowlist entries that proved the part
	// loads are what the command loads from outside the project (options
	// and variables that point it there): no allow rule lowers them.
	loads []string
}

func (w *walker) newPart(text string, stdin stream) *part {
	w.sh.parts++
	return &part{w: w, text: text, stdin: stdin, bulk: w.bulk, level: levelPart}
}

func (p *part) raise(t Tier, why string) {
	if t > Safe {
		p.raises = append(p.raises, raise{t, p.level, why})
	}
}

func (p *part) raiseSticky(t Tier, why string) {
	if t > Safe {
		p.raises = append(p.raises, raise{t, levelSticky, why})
	}
}

func (p *part) tier() Tier {
	t := Safe
	for _, r := range p.raises {
		if r.tier > t {
			t = r.tier
		}
	}
	return t
}

// call classifies one simple command, once per way its words can expand.
func (w *walker) call(s *syntax.Stmt, ce *syntax.CallExpr, stdin stream, effects []raise) stream {
	text := w.text(s)
	for _, a := range ce.Assigns {
		w.substsWith(a, stdin)
	}
	for _, word := range ce.Args {
		w.substsWith(word, stdin)
	}
	words := make([][][]field, len(ce.Args))
	for i, word := range ce.Args {
		words[i] = w.expand(word)
	}
	var out stream
	params := wordParams(ce.Args)
	alts, complete := argvAlts(words)
	if !complete {
		w.sh.acc.add(Confirm, display(text)+": expands in too many ways to analyse each")
	}
	for i, argv := range alts {
		p := w.newPart(text, stdin)
		p.params, p.parsed = params, true
		p.assigns = ce.Assigns
		p.raises = append(p.raises, effects...)
		for _, a := range ce.Assigns {
			p.assignment(a)
		}
		p.run(argv)
		for _, f := range argv {
			p.out.taint |= f.taint
		}
		p.leaks(argv)
		p.finish()
		if i == 0 {
			out = p.out
		} else {
			out = out.merge(p.out)
		}
	}
	return out
}

// wordParams lists the parameters the words expand themselves, leaving out
// those inside command and process substitutions, which are parts of
// their own.
func wordParams(words []*syntax.Word) []string {
	var out []string
	for _, word := range words {
		syntax.Walk(word, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			case *syntax.ParamExp:
				if x.Param != nil {
					out = append(out, x.Param.Value)
				}
			}
			return true
		})
	}
	return out
}

// argvAlts combines the alternatives of each word into command lines:
// every combination when there are few, otherwise each word's alternatives
// in turn with the other words at their first, so no single word's value
// is ever left out. Each command line is built in one pass, so the work is
// linear in the number of words times the number of lines, and the lines
// are capped at maxArgvFields fields in all.
func argvAlts(words [][][]field) (alts [][]field, complete bool) {
	n := 1
	size := 0
	for _, alts := range words {
		if len(alts) == 0 {
			return nil, true
		}
		n *= len(alts)
		size += len(alts[0])
		if n > maxAlts {
			n = maxAlts + 1
		}
	}
	build := func(pick func(i int) []field) []field {
		argv := make([]field, 0, size)
		for i := range words {
			argv = append(argv, pick(i)...)
		}
		return argv
	}
	if n <= maxAlts {
		out := make([][]field, 0, n)
		idx := make([]int, len(words))
		for {
			out = append(out, build(func(i int) []field { return words[i][idx[i]] }))
			k := len(words) - 1
			for ; k >= 0; k-- {
				if idx[k]++; idx[k] < len(words[k]) {
					break
				}
				idx[k] = 0
			}
			if k < 0 {
				return out, true
			}
		}
	}
	out := [][]field{build(func(i int) []field { return words[i][0] })}
	total := len(out[0])
	for i, alts := range words {
		for _, alt := range alts[1:] {
			if total > maxArgvFields {
				return out, false
			}
			argv := build(func(j int) []field {
				if j == i {
					return alt
				}
				return words[j][0]
			})
			total += len(argv)
			out = append(out, argv)
		}
	}
	return out, true
}

// maxArgvFields bounds the fields of all the command lines argvAlts builds
// for one simple command.
const maxArgvFields = 1 << 16

// run classifies argv as the next level of this part: the command itself,
// or the command a wrapper runs.
func (p *part) run(argv []field) {
	if len(argv) == 0 {
		return
	}
	saved := p.level
	p.levels = append(p.levels, argv)
	p.level = len(p.levels) - 1
	defer func() { p.level = saved }()
	p.dispatch(argv)
}

func (p *part) dispatch(argv []field) {
	prog := argv[0]
	if prog.taint&taintDownload != 0 {
		p.raiseSticky(Dangerous, "runs a command name downloaded at run time")
	} else if prog.taint&taintDecoded != 0 {
		p.raiseSticky(Dangerous, "runs a command name decoded at run time")
	}
	if !prog.known() {
		if prog.glob && !prog.dynamic() {
			p.globProgram(argv)
			return
		}
		p.dynamicProgram(argv)
		return
	}
	if prog.computed {
		p.raiseSticky(Confirm, "the program name comes from a substitution or variable")
	}
	if p.w.ranDownload(prog.s) {
		p.raise(Dangerous, "runs "+display(prog.s)+", which this command downloaded")
	}
	if v, ok := p.w.sc.aliases[prog.s]; ok && len(p.levels) == 1 && !p.w.sc.expanding[prog.s] {
		// An alias: its text replaces the name. Like bash, an alias is not
		// expanded again inside its own text (alias ls='ls -la').
		src := v
		for _, a := range argv[1:] {
			src += " " + quoteWord(a)
		}
		p.w.sc.expanding[prog.s] = true
		p.nestedCommand(field{s: src}, scriptOpts{shareScope: true, stdin: p.stdin})
		delete(p.w.sc.expanding, prog.s)
		return
	}
	name := progName(prog.s)
	h, ok := p.w.sh.c.lookup(name)
	if ok && versionQuery(name, argv) && !alwaysDangerous(name) {
		return
	}
	if !ok {
		if p.w.sc.funcs[name] {
			return // a function of this script: its body is classified where it is defined
		}
		if prog.s == "%0" {
			p.raise(Dangerous, "fork bomb (the batch file starts copies of itself)")
			return
		}
		if strings.ContainsRune(prog.s, '/') && p.writtenScript(p.w.resolve(prog.s).path, "") {
			p.raise(Confirm, "runs "+display(prog.s)+", which this command wrote")
			return
		}
		p.raise(p.w.sh.c.unknown, "runs "+display(prog.s)+", a program pincer does not know")
		return
	}
	p.loadsFrom(name, argv[1:])
	p.scriptFrom(name, argv[1:])
	h(p, name, argv[1:])
}

// globProgram handles a program name that is a file pattern (/bin/r? -rf x):
// it is classified as every known program the pattern could name.
func (p *part) globProgram(argv []field) {
	p.raiseSticky(Confirm, "the program name is a file name pattern")
	base := strings.ToLower(argv[0].s)
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	match := func(name string) bool { ok, _ := path.Match(base, name); return ok }
	if _, err := path.Match(base, ""); err != nil {
		// A malformed class is read loosely, so that it matches too much
		// rather than too little.
		loose := strings.NewReplacer("[", "?", "]", "").Replace(base)
		match = func(name string) bool { return globMatch(loose, name) }
	}
	var names []string
	for _, name := range p.w.sh.c.tables().names {
		if match(name) {
			names = append(names, name)
		}
	}
	if len(names) > 24 {
		// A pattern such as * names whatever file comes first: unknown.
		p.dynamicProgram(argv)
		return
	}
	for _, name := range names {
		if p.w.sh.trial {
			break
		}
		if t := p.w.trialTier(name, argv, p.stdin); t > Confirm {
			p.raiseSticky(t, "the program name pattern matches "+name+", which would be "+t.String()+" here")
			return
		}
	}
}

// dynamicProgram handles a program name only known at run time ($CMD,
// $(…)): at least Confirm, and Dangerous when the arguments would be
// dangerous for a program whose risk depends on its arguments.
func (p *part) dynamicProgram(argv []field) {
	p.raiseSticky(Confirm, "the program name is only known at run time")
	if p.w.sh.trial {
		// Already trying names for an outer unknown program (env $x $x …):
		// trying again at every word would take time quadratic in them.
		return
	}
	for _, name := range []string{"rm", "chmod", "chown", "dd", "git", "find", "cp", "mv", "tee", "sed", "truncate", "kill", "curl", "sh", "env", "python", "perl"} {
		if t := p.w.trialTier(name, argv, p.stdin); t == Dangerous {
			p.raiseSticky(Dangerous, "the program name is only known at run time, and as "+name+" these arguments would be dangerous")
			return
		}
	}
}

// finish applies the user's rules to the part and records it.
func (p *part) finish() {
	sh := p.w.sh
	c := sh.c
	if sh.record {
		sh.finished = append(sh.finished, p)
	}
	denied := false
	for _, argv := range p.levels {
		if rule, ok := firstMatch(c.deny, argv); ok {
			sh.acc.deny(rule, p.text)
			denied = true
		}
	}
	t := p.tier()
	if t == Safe && sh.proving() {
		entries, fail := p.prove()
		if fail != nil {
			level := fail.level
			if fail.secret {
				level = levelSticky // an allow rule names a program, not the secrets it may read
			}
			p.raises = append(p.raises, raise{Confirm, level, unprovenWhy + " (" + fail.why + ")"})
			t = Confirm
		} else {
			p.proofs = entries
		}
	}
	if t == Confirm && !denied {
		for k, argv := range p.levels {
			rule, ok := firstMatch(c.allow, argv)
			if !ok {
				continue
			}
			for _, why := range p.pinned() {
				p.raises = append(p.raises, raise{Confirm, levelSticky, why + "; the allow rule " + rule + " does not cover that"})
			}
			kept := p.raises[:0:0]
			for _, r := range p.raises {
				if r.tier == Confirm && (r.level >= k || r.level == levelPart) {
					continue
				}
				kept = append(kept, r)
			}
			p.raises = kept
			if p.tier() == Safe {
				sh.acc.allowed = true
				if sh.acc.allowRule == "" {
					sh.acc.allowRule = rule
				}
			}
			break
		}
		t = p.tier()
	}
	if t == Safe {
		sh.acc.add(Safe, "")
		for _, e := range p.proofs {
			sh.acc.prove(display(p.text) + ": " + e)
		}
		return
	}
	var whys []string
	seen := map[string]bool{}
	for _, r := range p.raises {
		if r.tier == t && !seen[r.why] {
			seen[r.why] = true
			whys = append(whys, r.why)
		}
	}
	sh.acc.add(t, display(p.text)+": "+strings.Join(whys, "; "))
}

// progName normalises a program as the system would find it: the last
// path element, lower case (macOS and Windows file systems ignore case),
// without a Windows executable suffix.
func progName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ToLower(s)
	for _, ext := range []string{".exe", ".com", ".cmd", ".bat"} {
		if strings.HasSuffix(s, ext) && len(s) > len(ext) {
			return s[:len(s)-len(ext)]
		}
	}
	return s
}

// versionQuery reports argv of the form `prog --version` or `prog --help`,
// or a short version flag of a program known to use one.
func versionQuery(name string, argv []field) bool {
	if len(argv) != 2 || !argv[1].known() {
		return false
	}
	switch a := argv[1].s; a {
	case "--version", "--help", "-version", "-help":
		return true
	case "-V", "-v":
		return shortVersion[name] == a || shortVersion[name] == "-Vv"
	}
	return false
}

// shortVersion lists programs whose lone -V or -v only prints the version.
var shortVersion = map[string]string{
	"rustc": "-Vv", "cargo": "-Vv", "rustup": "-V", "ssh": "-V", "tmux": "-V", "psql": "-V", "git": "-v",
	"docker": "-v", "podman": "-v", "terraform": "-v", "make": "-v", "gcc": "-v", "g++": "-v", "clang": "-v",
	"helm": "-v", "mysql": "-V", "sqlite3": "-V", "redis-cli": "-v", "kubectl": "-v",
	"gradle": "-v", "mvn": "-v", "dotnet": "-v", "deno": "-V", "bun": "-v", "yarn": "-v", "pnpm": "-v", "npx": "-v",
	"zip": "-v", "unzip": "-v", "curl": "-V", "wget": "-V",
}

// quoteWord renders a field as shell source for a nested parse.
func quoteWord(f field) string {
	if !f.known() {
		return strings.ReplaceAll(f.s, unknownMark, unknownParam)
	}
	q, err := syntax.Quote(f.s, syntax.LangBash)
	if err != nil {
		return unknownParam
	}
	return q
}

// netRedirect reports a redirection of this part to /dev/tcp or /dev/udp.
func (p *part) netRedirect() bool {
	for _, r := range p.raises {
		if r.why == netWhy {
			return true
		}
	}
	return false
}
