package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

const (
	maxDepth = 8    // nested shells (bash -c "bash -c …") before giving up
	maxParts = 4000 // simple commands evaluated in one classification
)

// shared is the state of one Classify call, common to every nested walk.
type shared struct {
	c          *Classifier
	acc        *acc
	parts      int
	substs     map[syntax.Node]stream
	words      map[*syntax.Word][][]field
	downloaded map[string]bool   // files a downloader wrote earlier in the command
	leaked     map[string]taint  // files written earlier in the command with secrets or the whole project
	wrote      map[string]string // what redirections wrote into files earlier in the command
	record     bool              // keep every finished part (for SuggestRule)
	finished   []*part
	trial      bool // a trial classification (trialTier): no trials inside it
	probe      bool // a probe for dangers inside another language: nothing is proven
	globs      map[string]globResult
	keys       map[string]bool // files whose content was looked at: whether each holds a private key
	sniffFiles int             // how many files were opened for that
	sniffBytes int64           // and how much of them was read
}

func newShared(c *Classifier) *shared {
	return &shared{
		c:          c,
		acc:        newAcc(),
		substs:     map[syntax.Node]stream{},
		words:      map[*syntax.Word][][]field{},
		downloaded: map[string]bool{},
		leaked:     map[string]taint{},
		wrote:      map[string]string{},
		globs:      map[string]globResult{},
		keys:       map[string]bool{},
	}
}

// walker walks one shell script.
type walker struct {
	sh    *shared
	sc    *scope
	src   string
	depth int
	cwd   string // "" is the project root; otherwise "sub/dir", "../x", "~", "/abs" or "?"
	bulk  bool   // commands run once per item of a list (find -exec, xargs)
}

// scriptOpts says how a nested script runs.
type scriptOpts struct {
	shareScope bool     // eval and source: same variables and functions
	positional []string // bash -c 'script' $0 $1 …
	hasPos     bool
	stdin      stream
	bulk       bool
	// program is set when the text names a program and its arguments,
	// split into words without a shell (go -toolexec, -vettool): a value
	// only known at run time is then an unknown program name, Confirm
	// like $CMD, not an unreadable script.
	program bool
}

// parseScript parses bash source. The parser takes a carriage return for
// a blank, as if the script had Windows line ends; bash does not: in
// `touch a.txt\recho x` the \r is part of the word, and touch makes a file
// named "a.txt\recho". So carriage returns are swapped for a byte the
// source does not hold before parsing, and swapped back in the words
// after: the classifier reads the words bash will run.
func parseScript(src string) (*syntax.File, error) {
	if !strings.Contains(src, "\r") {
		return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	}
	stand := byte(0)
	for b := byte(0x02); b < 0x20; b++ {
		if b != '\t' && b != '\n' && b != '\r' && b != 0x0b && b != 0x0c && strings.IndexByte(src, b) < 0 {
			stand = b
			break
		}
	}
	if stand == 0 {
		return nil, syntax.ParseError{Text: "holds every control character"}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(strings.ReplaceAll(src, "\r", string(stand))), "")
	if f == nil {
		return f, err
	}
	back := func(s string) string { return strings.ReplaceAll(s, string(stand), "\r") }
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Lit:
			x.Value = back(x.Value)
		case *syntax.SglQuoted:
			x.Value = back(x.Value)
		}
		return true
	})
	return f, err
}

// script classifies shell source run by the current command (bash -c,
// eval, a here-document fed to sh, …) and returns what it prints.
func (w *walker) script(src string, o scriptOpts) stream {
	if w.depth >= maxDepth {
		w.sh.acc.add(Dangerous, display(src)+": shells nested too deeply to analyse")
		return stream{present: true}
	}
	child := &walker{sh: w.sh, src: src, depth: w.depth + 1, cwd: w.cwd, bulk: w.bulk || o.bulk}
	if why := tooComplex(src); why != "" {
		child.sc = newScope()
		child.oversized(src, why)
		return stream{present: true}
	}
	if o.shareScope {
		child.sc = w.sc
	} else {
		child.sc = newScope()
		child.sc.positional, child.sc.hasPos = o.positional, o.hasPos
	}
	f, err := parseScript(src)
	if err != nil {
		child.unparsable(src, err)
		return stream{present: true}
	}
	child.sc.collect(f, src)
	if !o.shareScope {
		child.evalScan(f)
	}
	child.proveScan(f)
	out := child.stmts(f.Stmts, o.stdin)
	if o.shareScope {
		w.cwd = child.cwd
	}
	return out
}

// unparsable handles source the parser rejects: at least Confirm, and a
// rough look at every command-like run of words for anything dangerous.
func (w *walker) unparsable(src string, err error) {
	msg := err.Error()
	if pe, ok := err.(syntax.ParseError); ok {
		msg = pe.Text
	}
	w.sh.acc.add(Confirm, display(src)+": does not parse as a shell command ("+msg+")")
	w.roughScan(src)
	// Bash runs the lines before a syntax error; a pipe into a shell among
	// them is only visible in the text.
	if m := pipeToShellRe().FindString(src); m != "" && strings.Contains(src, "\n") {
		w.sh.acc.add(Dangerous, display(m)+": pipes text into a shell or interpreter, in a script that does not parse")
	}
	// PowerShell rarely parses as bash; its known dangerous forms are
	// recognised in the raw text.
	for _, r := range codeRules()["powershell"] {
		if r.re.MatchString(src) {
			w.sh.acc.add(Dangerous, display(src)+": "+r.why)
			break
		}
	}
}

func (w *walker) text(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if s, ok := n.(*syntax.Stmt); ok && s.Cmd != nil {
		// Leave out the ; or & that ends the statement.
		end = int(s.Cmd.End().Offset())
		for _, r := range s.Redirs {
			if e := int(r.End().Offset()); e > end {
				end = e
			}
		}
	}
	if start < 0 || end > len(w.src) || start >= end {
		return w.src
	}
	return w.src[start:end]
}

func (w *walker) stmts(list []*syntax.Stmt, in stream) stream {
	var out stream
	for i, s := range list {
		o := w.stmt(s, in)
		if len(list) == 1 {
			return o
		}
		if i == 0 {
			out = stream{present: true}
		}
		out.taint |= o.taint
	}
	return out
}

func (w *walker) stmt(s *syntax.Stmt, in stream) stream {
	if s == nil {
		return stream{}
	}
	if w.sh.parts > maxParts {
		w.sh.acc.add(Dangerous, display(w.src)+": too large to analyse")
		return stream{}
	}
	stdin, effects, written := w.redirects(s.Redirs, in)
	effects = append(effects, w.truncations(s)...)
	if call, ok := s.Cmd.(*syntax.CallExpr); ok {
		out := w.call(s, call, stdin, effects)
		if out.taint&taintDownload != 0 {
			// curl … > file: the file now holds downloaded code.
			for _, path := range written {
				w.sh.downloaded[path] = true
			}
		}
		w.keepWrites(written, out)
		return out
	}
	if len(effects) > 0 || s.Cmd == nil {
		p := w.newPart(w.text(s), stdin)
		p.raises = append(p.raises, effects...)
		p.finish()
	}
	switch x := s.Cmd.(type) {
	case nil:
		return stream{}
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			return w.pipeline(x, stdin)
		}
		w.stmt(x.X, stdin)
		return w.stmt(x.Y, stdin)
	case *syntax.Block:
		return w.stmts(x.Stmts, stdin)
	case *syntax.Subshell:
		cwd := w.cwd
		out := w.stmts(x.Stmts, stdin)
		w.cwd = cwd
		return out
	case *syntax.IfClause:
		out := stream{present: true}
		for c := x; c != nil; c = c.Else {
			w.stmts(c.Cond, stdin)
			out.taint |= w.stmts(c.Then, stdin).taint
		}
		return out
	case *syntax.WhileClause:
		w.stmts(x.Cond, stdin)
		return w.stmts(x.Do, stdin)
	case *syntax.ForClause:
		w.substsIn(x.Loop)
		if it, ok := x.Loop.(*syntax.WordIter); ok {
			for _, item := range it.Items {
				w.expand(item)
			}
		}
		return w.stmts(x.Do, stdin)
	case *syntax.CaseClause:
		w.expand(x.Word)
		out := stream{present: true}
		for _, item := range x.Items {
			for _, pat := range item.Patterns {
				w.substsIn(pat)
			}
			out.taint |= w.stmts(item.Stmts, stdin).taint
		}
		return out
	case *syntax.FuncDecl:
		w.funcDecl(x)
		return stream{}
	case *syntax.ArithmCmd:
		w.substsIn(x)
		return stream{}
	case *syntax.TestClause:
		w.substsIn(x)
		return stream{}
	case *syntax.LetClause:
		w.substsIn(x)
		return stream{}
	case *syntax.DeclClause:
		return w.decl(s, x)
	case *syntax.TimeClause:
		return w.stmt(x.Stmt, stdin)
	case *syntax.CoprocClause:
		// The parser takes the first word for the coprocess's name, but
		// bash only does so before a compound command: in
		// `coproc rm -rf x | head` the word is the program.
		if x.Name != nil {
			left := x.Stmt
			for left != nil {
				bc, ok := left.Cmd.(*syntax.BinaryCmd)
				if !ok {
					break
				}
				left = bc.X
			}
			if ce, ok := left.Cmd.(*syntax.CallExpr); ok && left != nil {
				ce.Args = append([]*syntax.Word{x.Name}, ce.Args...)
				x.Name = nil
			}
		}
		return w.stmt(x.Stmt, stdin)
	case *syntax.TestDecl:
		w.substsIn(x.Description)
		return w.stmt(x.Body, stdin)
	}
	w.sh.acc.add(Confirm, display(w.text(s))+": a shell construct pincer does not analyse")
	return stream{present: true}
}

// pipeline walks the stages of a | b | c, feeding each stage what the
// previous one prints. Taint accumulates: curl … | gunzip | sh still runs
// downloaded code.
func (w *walker) pipeline(b *syntax.BinaryCmd, in stream) stream {
	var stages []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if bc, ok := s.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated {
			flatten(bc.X)
			flatten(bc.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(b.X)
	flatten(b.Y)
	cur := in
	var acc taint
	shell := false
	for _, st := range stages {
		cwd := w.cwd
		out := w.stmt(st, cur)
		w.cwd = cwd
		acc |= out.taint
		shell = shell || out.shell
		out.taint, out.shell, out.present = acc, shell, true
		cur = out
	}
	return cur
}

// substsIn classifies every command and process substitution inside a
// node, once each, and remembers what each prints.
func (w *walker) substsIn(n syntax.Node) { w.substsWith(n, stream{}) }

// substsWith is substsIn for the words of a command whose standard input
// is stdin: substitutions read the same input (sh -c "$(cat)" runs what is
// piped in, tee >(sh) feeds sh what tee reads).
func (w *walker) substsWith(n syntax.Node, stdin stream) {
	if n == nil {
		return
	}
	if word, ok := n.(*syntax.Word); ok && word == nil {
		return
	}
	in := stream{present: stdin.present, taint: stdin.taint}
	syntax.Walk(n, func(n syntax.Node) bool {
		var stmts []*syntax.Stmt
		switch x := n.(type) {
		case *syntax.CmdSubst:
			stmts = x.Stmts
		case *syntax.ProcSubst:
			stmts = x.Stmts
		default:
			return true
		}
		if _, done := w.sh.substs[n]; !done {
			w.sh.substs[n] = stream{}
			cwd := w.cwd
			w.sh.substs[n] = w.stmts(stmts, in)
			w.cwd = cwd
		}
		return false
	})
}

// ranDownload reports a program path that names a file a downloader wrote
// earlier in the command. .\x.ps1 loses its backslash to the shell parse,
// so a name ending in a downloaded file's base name after a separator or
// dot counts too.
func (w *walker) ranDownload(prog string) bool {
	if w.sh.downloaded[w.resolve(prog).path] {
		return true
	}
	for p := range w.sh.downloaded {
		base := p[strings.LastIndexByte(p, '/')+1:]
		if i := len(prog) - len(base); base != "" && i > 0 && strings.HasSuffix(prog, base) && strings.IndexByte("/\\.", prog[i-1]) >= 0 {
			return true
		}
	}
	return false
}

// funcDecl classifies a function body as if it ran (it usually does), and
// recognises fork bombs: a function that calls itself in a pipe or in the
// background.
func (w *walker) funcDecl(fd *syntax.FuncDecl) {
	var names []string
	if fd.Name != nil {
		names = append(names, fd.Name.Value)
	}
	for _, n := range fd.Names {
		names = append(names, n.Value)
	}
	for _, name := range names {
		if w.selfSpawning(fd.Body, name) {
			w.sh.acc.add(Dangerous, display(w.text(fd))+": fork bomb (the function "+name+" starts copies of itself)")
		}
	}
	w.stmt(fd.Body, stream{})
}

func (w *walker) selfSpawning(body *syntax.Stmt, name string) bool {
	calls, spawned := 0, false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Stmt:
			if ce, ok := x.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 && w.firstLit(ce.Args[0]) == name {
				calls++
				if x.Background {
					spawned = true
				}
			}
			if bc, ok := x.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) {
				for _, side := range []*syntax.Stmt{bc.X, bc.Y} {
					if ce, ok := side.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 && w.firstLit(ce.Args[0]) == name {
						spawned = true
					}
				}
				if x.Background && strings.Contains(w.text(x), name) {
					spawned = true
				}
			}
		}
		return true
	})
	return spawned || calls > 1
}

func (w *walker) firstLit(word *syntax.Word) string {
	alts := w.expand(word)
	if len(alts) == 0 || len(alts[0]) == 0 {
		return ""
	}
	return alts[0][0].s
}

// decl handles declare/local/export/readonly/typeset. Names given as text
// ('a[$(cmd)]') have their subscripts evaluated, and so do the values of
// integer variables (-i) and the names namerefs (-n) point to; without
// names they print variables.
func (w *walker) decl(s *syntax.Stmt, d *syntax.DeclClause) stream {
	p := w.newPart(w.text(s), stream{})
	integer, nameref, functions, names := false, false, false, 0
	for _, a := range d.Args {
		w.substsIn(a)
		switch {
		case a.Naked && a.Name == nil && a.Value != nil:
			for _, alt := range w.expand(a.Value) {
				for _, f := range alt {
					if (strings.HasPrefix(f.s, "-") || strings.HasPrefix(f.s, "+")) && len(f.s) > 1 && !f.dynamic() {
						integer = integer || strings.ContainsRune(f.s, 'i')
						nameref = nameref || strings.ContainsRune(f.s, 'n') && f.s[0] == '-'
						functions = functions || strings.ContainsAny(f.s, "fF")
						continue
					}
					names++
					n, v, _ := strings.Cut(f.s, "=")
					p.evalName(n)
					if integer {
						p.evalArith(v)
					}
					if nameref {
						p.evalName(v)
					}
				}
			}
		case a.Name != nil:
			names++
			if !a.Naked {
				p.assignment(a)
				if (integer || nameref) && a.Value != nil {
					for _, v := range w.valueAlts(a.Value) {
						if integer {
							p.evalArith(v)
						}
						if nameref {
							p.evalName(v)
						}
					}
				}
			}
		}
	}
	if names == 0 && !functions && d.Variant != nil && d.Variant.Value != "local" {
		p.raise(Confirm, "prints variables, which often hold secrets")
	}
	if w.sh.proving() && p.tier() == Safe {
		if why := w.declWhy(w.declItems(d)); why != "" {
			p.raise(Confirm, unprovenWhy+" ("+why+")")
		}
	}
	p.finish()
	return stream{}
}

// trialTier classifies argv as if its program were name, without
// recording anything: used when a program name is only known at run time.
func (w *walker) trialTier(name string, argv []field, stdin stream) Tier {
	sh := newShared(w.sh.c)
	sh.parts = w.sh.parts
	sh.trial = true
	tw := &walker{sh: sh, sc: w.sc, src: w.src, depth: w.depth, cwd: w.cwd, bulk: w.bulk}
	p := tw.newPart("", stdin)
	args := append([]field{literalField(name)}, argv[1:]...)
	p.run(args)
	t := p.tier()
	if sh.acc.top > t {
		t = sh.acc.top
	}
	return t
}
