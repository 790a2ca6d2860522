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
}

// varVals is what a variable may hold: each value a list of elements (one
// for a plain variable), and whether the list is exact.
type varVals struct {
	vals  [][]string
	exact bool
}

func newScope() *scope {
	return &scope{
		assigns:   map[string][]*syntax.Assign{},
		loops:     map[string][]*syntax.Word{},
		funcs:     map[string]bool{},
		aliases:   map[string]string{},
		expanding: map[string]bool{},
		resolving: map[string]bool{},
		cache:     map[string]varVals{},
	}
}

// collect records the assignments, loop variables and functions of a
// parsed script. The walk is flow-insensitive on purpose: a value assigned
// anywhere is a value the variable may have everywhere.
func (sc *scope) collect(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil && !x.Naked {
				sc.assigns[x.Name.Value] = append(sc.assigns[x.Name.Value], x)
			}
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok && it.Name != nil {
				sc.loops[it.Name.Value] = append(sc.loops[it.Name.Value], it.Items...)
			}
		case *syntax.CallExpr:
			if len(x.Args) > 1 && x.Args[0].Lit() == "set" {
				args := x.Args[1:]
				for len(args) > 0 && strings.HasPrefix(args[0].Lit(), "-") {
					args = args[1:]
				}
				sc.setArgs = append(sc.setArgs, args)
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
