package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scope is what one shell process knows: the variables the script assigns,
// the functions it defines and its positional parameters. eval and source
// share their caller's scope; bash -c gets a new one.
type scope struct {
	assigns    map[string][]*syntax.Assign
	loops      map[string][]*syntax.Word
	funcs      map[string]bool
	aliases    map[string]string
	expanding  map[string]bool  // aliases being expanded
	setArgs    [][]*syntax.Word // the words of every `set -- …`: possible positional parameters
	positional []string         // $0, $1, … when known exactly (bash -c 'script' name args)
	hasPos     bool
	resolving  map[string]bool
	cache      map[string]varVals
	// inputs are variables a builtin fills from what it reads (read,
	// mapfile, getopts, printf -v, declare as a command): their values
	// are not in the command. arith are variables assigned in arithmetic,
	// declared those named by declare without a value.
	inputs   map[string]bool
	arith    map[string]bool
	declared map[string]bool
	// loopBodies are where each loop variable is certainly set: the bodies
	// of the for loops over it, in the source they were collected from.
	loopBodies map[string][]span
}

// span is a stretch of one source text.
type span struct {
	src        string
	start, end int
}

// varVals is what a variable may hold: each value a list of elements (one
// for a plain variable), and whether the list is exact.
type varVals struct {
	vals  [][]string
	exact bool
}

func newScope() *scope {
	return &scope{
		assigns:    map[string][]*syntax.Assign{},
		loops:      map[string][]*syntax.Word{},
		funcs:      map[string]bool{},
		aliases:    map[string]string{},
		expanding:  map[string]bool{},
		resolving:  map[string]bool{},
		cache:      map[string]varVals{},
		inputs:     map[string]bool{},
		arith:      map[string]bool{},
		declared:   map[string]bool{},
		loopBodies: map[string][]span{},
	}
}

// collect records the assignments, loop variables and functions of a
// parsed script. The walk is flow-insensitive on purpose: a value assigned
// anywhere is a value the variable may have everywhere.
func (sc *scope) collect(f *syntax.File, src string) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil && !x.Naked {
				sc.assigns[x.Name.Value] = append(sc.assigns[x.Name.Value], x)
			}
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok && it.Name != nil {
				sc.loops[it.Name.Value] = append(sc.loops[it.Name.Value], it.Items...)
				if len(it.Items) > 0 && !x.Select {
					sc.loopBodies[it.Name.Value] = append(sc.loopBodies[it.Name.Value],
						span{src, int(x.DoPos.Offset()), int(x.DonePos.Offset())})
				}
			}
		case *syntax.CallExpr:
			sc.collectInputs(x)
			if len(x.Args) > 1 && x.Args[0].Lit() == "set" {
				args := x.Args[1:]
				for len(args) > 0 && strings.HasPrefix(args[0].Lit(), "-") {
					args = args[1:]
				}
				sc.setArgs = append(sc.setArgs, args)
			}
		case *syntax.DeclClause:
			for _, a := range x.Args {
				if a.Name != nil && a.Naked {
					sc.declared[a.Name.Value] = true
				}
			}
		case *syntax.BinaryArithm:
			switch x.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
				syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				if word, ok := x.X.(*syntax.Word); ok {
					sc.arith[word.Lit()] = true
				}
			}
		case *syntax.UnaryArithm:
			if word, ok := x.X.(*syntax.Word); ok && (x.Op == syntax.Inc || x.Op == syntax.Dec) {
				sc.arith[word.Lit()] = true
			}
		case *syntax.FuncDecl:
			if x.Name != nil {
				sc.funcs[progName(x.Name.Value)] = true
			}
			for _, n := range x.Names {
				sc.funcs[progName(n.Value)] = true
			}
		}
		return true
	})
	for k := range sc.cache {
		delete(sc.cache, k)
	}
}

// varValues returns the values a variable may hold, each a list of
// elements (one for a plain variable), and whether that list is exact.
// Variables are never exact unless they are known positional parameters:
// the environment may set them before the script assigns anything.
func (w *walker) varValues(name string) ([][]string, bool) {
	sc := w.sc
	if !sc.hasPos && (name == "@" || name == "*" || isDigits(name)) && len(sc.setArgs) > 0 {
		// set -- "$@" refers to the parameters it replaces.
		if sc.resolving["@"] {
			return nil, false
		}
		sc.resolving["@"] = true
		defer delete(sc.resolving, "@")
		var vals [][]string
		for _, words := range sc.setArgs {
			var elems []string
			for _, word := range words {
				for _, f := range w.expand(word)[0] {
					elems = append(elems, f.s)
				}
			}
			if name == "@" || name == "*" {
				vals = append(vals, elems)
			} else if n := atoiSmall(name); n >= 1 && n <= len(elems) {
				vals = append(vals, []string{elems[n-1]})
			}
		}
		return vals, false
	}
	if sc.hasPos {
		switch {
		case name == "@" || name == "*":
			if len(sc.positional) > 1 {
				return [][]string{sc.positional[1:]}, true
			}
			return [][]string{{}}, true
		case isDigits(name):
			n := atoiSmall(name)
			if n < len(sc.positional) {
				return [][]string{{sc.positional[n]}}, true
			}
			return [][]string{{""}}, true
		}
	}
	if v, ok := sc.cache[name]; ok {
		return v.vals, v.exact
	}
	if sc.resolving[name] {
		return nil, false
	}
	sc.resolving[name] = true
	defer delete(sc.resolving, name)

	var vals [][]string
	add := func(v []string) {
		// Past the cap, keep only values that could change what runs: flags
		// and names of known programs.
		if len(vals) < maxValues || (len(vals) < 2*maxValues && len(v) > 0 && w.telling(v[0])) {
			vals = append(vals, v)
		}
	}
	for _, a := range sc.assigns[name] {
		switch {
		case a.Append:
			// x+=y: the earlier value is unknown here.
		case a.Array != nil:
			var elems []string
			for _, e := range a.Array.Elems {
				if e.Value == nil {
					continue
				}
				alts := w.expand(e.Value)
				for _, f := range alts[0] {
					elems = append(elems, f.s)
				}
			}
			add(elems)
		case a.Value != nil:
			// Assignment values are not split: join each alternative's fields.
			for _, alt := range w.valueAlts(a.Value) {
				add([]string{alt})
			}
		default:
			add([]string{""})
		}
	}
	for _, item := range sc.loops[name] {
		for _, alt := range w.expand(item) {
			for _, f := range alt {
				if f.glob && !f.dynamic() {
					add([]string{globMark + f.s})
					continue
				}
				add([]string{f.s})
			}
		}
	}
	exact := false
	if len(vals) == 0 {
		// The environment always sets these two, and to what pincer expects.
		switch {
		case name == "HOME":
			vals, exact = [][]string{{"~"}}, true
		case name == "IFS":
			vals, exact = [][]string{{" \t\n"}}, true
		case name == "PWD" && w.cwd != "?":
			vals, exact = [][]string{{"."}}, w.cwd == ""
		}
	}
	sc.cache[name] = varVals{vals, exact}
	return vals, exact
}

// valueAlts expands an assignment value, which is never split into words.
func (w *walker) valueAlts(word *syntax.Word) []string {
	w.substsIn(word)
	var out []string
	for _, segs := range w.partsSegs(word.Parts, false) {
		var b strings.Builder
		for _, s := range segs {
			b.WriteString(s.s)
		}
		out = append(out, b.String())
	}
	return out
}

// telling reports a value that changes what a command does when it is a
// word of it: an option, or the name of a program pincer knows.
func (w *walker) telling(v string) bool {
	if strings.HasPrefix(v, "-") {
		return true
	}
	_, ok := w.sh.c.lookup(progName(v))
	return ok
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func atoiSmall(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			return n
		}
	}
	return n
}

// collectInputs records the variables a builtin fills from its input: every
// word of read, mapfile, readarray and getopts that is a plain name, the
// name printf -v assigns, and the names declare-like builtins assign when
// run as commands (command declare, builtin local). REPLY is read's own.
func (sc *scope) collectInputs(ce *syntax.CallExpr) {
	if len(ce.Args) == 0 {
		return
	}
	i := 0
	for i < len(ce.Args) && (ce.Args[i].Lit() == "command" || ce.Args[i].Lit() == "builtin") {
		i++
	}
	if i >= len(ce.Args) {
		return
	}
	switch ce.Args[i].Lit() {
	case "read", "mapfile", "readarray", "getopts", "printf", "declare", "typeset", "local", "export", "readonly", "select":
	default:
		return
	}
	prog := ce.Args[i].Lit()
	args := ce.Args[i+1:]
	if prog == "printf" {
		if len(args) > 1 && args[0].Lit() == "-v" && isEnvName(args[1].Lit()) {
			sc.inputs[args[1].Lit()] = true
		}
		return
	}
	sc.inputs["REPLY"] = true
	valued := map[string]string{"read": "dnNptui", "mapfile": "dnOsuCc", "readarray": "dnOsuCc"}[prog]
	for j := 0; j < len(args); j++ {
		lit := args[j].Lit()
		if strings.HasPrefix(lit, "-") {
			if len(lit) == 2 && strings.IndexByte(valued, lit[1]) >= 0 {
				j++ // the option's value is not a name
			}
			continue
		}
		name, _, _ := strings.Cut(lit, "=")
		if isEnvName(name) {
			sc.inputs[name] = true
		}
	}
}

// loopSet reports a reference to a variable inside the body of a for loop
// over it, when nothing else assigns the variable: there it holds one of
// the loop's items, never a value from the environment.
func (w *walker) loopSet(name string, at syntax.Node) bool {
	sc := w.sc
	if len(sc.assigns[name]) > 0 || sc.inputs[name] || sc.arith[name] || len(sc.loops[name]) == 0 {
		return false
	}
	off := int(at.Pos().Offset())
	for _, b := range sc.loopBodies[name] {
		if b.src == w.src && off > b.start && off < b.end {
			return true
		}
	}
	return false
}
