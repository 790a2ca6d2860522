package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What the shell evaluates outside the words of simple commands is proven
// here: arithmetic ($(( )), (( )), let, subscripts, slices, [[ -eq ]]) may
// only read variables proven to hold integers; ${!x} and ${x@P} may only
// use values the command writes out; a variable the script does not set
// may be read only when it is on the list of environment variables that
// hold no secrets; and declare and its family may only declare plain
// variables (no name references, no arrays built from quoted text, no
// arithmetic on text).

// proving reports whether this classification proves Safe parts: not for
// trials and probes (they record nothing), and not when the person chose
// to run unknown programs unasked (unknown_commands = safe), which keeps
// the older rule that only a danger found raises a command.
func (sh *shared) proving() bool {
	return !sh.trial && !sh.probe && sh.c.unknown == Confirm && !sh.c.engineOnly
}

// unproven records a construct the list does not prove.
func (w *walker) unproven(at syntax.Node, why string) {
	w.sh.acc.add(Confirm, display(w.text(at))+": "+unprovenWhy+" ("+why+")")
}

// proveScan checks every place of a script where the shell evaluates text
// or reads a variable.
func (w *walker) proveScan(f *syntax.File) {
	if !w.sh.proving() {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ArithmExp:
			w.proveArith(x.X, x)
		case *syntax.ArithmCmd:
			w.proveArith(x.X, x)
		case *syntax.LetClause:
			for _, e := range x.Exprs {
				w.proveArith(e, x)
			}
		case *syntax.CStyleLoop:
			for _, e := range []syntax.ArithmExpr{x.Init, x.Cond, x.Post} {
				if e != nil {
					w.proveArith(e, x)
				}
			}
		case *syntax.Assign:
			if x.Index != nil {
				w.proveArith(x.Index, x)
			}
		case *syntax.ParamExp:
			w.proveParam(x)
			if x.Index != nil {
				if word, ok := x.Index.(*syntax.Word); !ok || (word.Lit() != "@" && word.Lit() != "*") {
					w.proveArith(x.Index, x)
				}
			}
			if x.Slice != nil {
				for _, e := range []syntax.ArithmExpr{x.Slice.Offset, x.Slice.Length} {
					if e != nil {
						w.proveArith(e, x)
					}
				}
			}
		case *syntax.BinaryTest:
			switch x.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				for _, side := range []syntax.TestExpr{x.X, x.Y} {
					if word, ok := side.(*syntax.Word); ok {
						w.proveArithWord(word, x)
					}
				}
			}
		case *syntax.UnaryTest:
			if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
				if word, ok := x.X.(*syntax.Word); !ok || !isEnvName(word.Lit()) {
					w.unproven(x, "tests a variable whose name is not written out plainly")
				}
			}
		}
		return true
	})
}

// proveArith checks an arithmetic expression: every word in it is
// evaluated, so each must be a number or a variable proven to hold one.
func (w *walker) proveArith(e syntax.ArithmExpr, at syntax.Node) {
	syntax.Walk(e, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.Word:
			w.proveArithWord(x, at)
			return false
		}
		return true
	})
}

// proveArithWord checks one word bash evaluates as arithmetic.
func (w *walker) proveArithWord(word *syntax.Word, at syntax.Node) {
	for _, part := range word.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			if why := w.arithNamesWhy(x.Value); why != "" {
				w.unproven(at, why)
				return
			}
		case *syntax.ParamExp:
			if x.Param != nil && !w.provenInt(x.Param.Value) {
				w.unproven(at, "evaluates $"+x.Param.Value+" as arithmetic, and it is not proven to hold a number")
				return
			}
		case *syntax.CmdSubst:
			w.unproven(at, "evaluates the output of a command as arithmetic")
			return
		case *syntax.SglQuoted, *syntax.DblQuoted:
			text, _ := w.docText(&syntax.Word{Parts: []syntax.WordPart{x}}, false)
			if strings.Contains(text, unknownMark) || strings.ContainsAny(text, codeChars) {
				w.unproven(at, "evaluates quoted text with expansions as arithmetic")
				return
			}
			if why := w.arithNamesWhy(text); why != "" {
				w.unproven(at, why)
				return
			}
		case *syntax.ArithmExp:
			// Checked on its own.
		default:
			w.unproven(at, "evaluates a word pincer cannot read as arithmetic")
			return
		}
	}
}

// arithNamesWhy checks the names in arithmetic text.
func (w *walker) arithNamesWhy(text string) string {
	for _, name := range identifiers(text) {
		if !w.provenInt(name) {
			return "evaluates " + name + " as arithmetic, and it is not proven to hold a number"
		}
	}
	return ""
}

// arithTextWhy parses text as an arithmetic expression (let's arguments)
// and checks it.
func (w *walker) arithTextWhy(text string) string {
	if strings.ContainsAny(text, codeChars) {
		return "evaluates " + display(text) + " as arithmetic, with expansions in it"
	}
	return w.arithNamesWhy(text)
}

// numericEnv are the shell's own variables that always hold a number.
var numericEnv = map[string]bool{
	"COLUMNS": true, "LINES": true, "SECONDS": true, "RANDOM": true, "SRANDOM": true, "LINENO": true, "UID": true,
	"EUID": true, "PPID": true, "BASHPID": true, "SHLVL": true, "EPOCHSECONDS": true, "OPTIND": true, "OPTERR": true,
	"HISTCMD": true, "#": true, "?": true, "$": true, "!": true,
}

// provenInt reports a variable proven to hold an integer: every value the
// script gives it is a number or the result of arithmetic, and nothing
// reads text into it.
func (w *walker) provenInt(name string) bool {
	sc := w.sc
	if numericEnv[name] {
		return len(sc.assigns[name]) == 0 && !sc.inputs[name]
	}
	if sc.inputs[name] || isDigits(name) {
		return false
	}
	assigned := sc.arith[name]
	for _, a := range sc.assigns[name] {
		assigned = true
		switch {
		case a.Append:
			return false
		case a.Array != nil:
			for _, e := range a.Array.Elems {
				if e.Value == nil {
					continue
				}
				for _, v := range w.valueAlts(e.Value) {
					if !isInteger(v) {
						return false
					}
				}
			}
		case a.Value != nil:
			for _, v := range w.valueAlts(a.Value) {
				if !isInteger(v) {
					return false
				}
			}
		}
	}
	for _, item := range sc.loops[name] {
		assigned = true
		for _, alt := range w.expand(item) {
			for _, f := range alt {
				if !f.known() || !isInteger(f.s) {
					return false
				}
			}
		}
	}
	if !assigned {
		// Unset here: the person's environment, or nothing.
		return localName(name) && !proxyVar(name)
	}
	return true
}

// proxyVar reports the lower-case variables programs do read from the
// environment; their values may carry a password (http://user:pass@host).
func proxyVar(name string) bool {
	switch name {
	case "http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "no_proxy", "rsync_proxy":
		return true
	}
	return false
}

// isInteger reports a number as bash reads one: decimal, 0x hex or octal,
// with an optional sign.
func isInteger(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s = s[2:]
		if s == "" {
			return false
		}
		for _, c := range s {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
		return true
	}
	return isDigits(s)
}

// readableVar reports a variable a proven command may read: one the
// script sets, or an environment variable on the list of those that hold
// no secrets.
func (w *walker) readableVar(name string) bool {
	sc := w.sc
	switch {
	case name == "@" || name == "*" || name == "#" || name == "?" || name == "$" || name == "!" || name == "-" || name == "_":
		return true
	case isDigits(name), name == strings.Trim(unknownParam, "${}"):
		return true
	case len(sc.assigns[name]) > 0, len(sc.loops[name]) > 0, sc.inputs[name], sc.arith[name], sc.declared[name]:
		return true
	case localName(name) && !proxyVar(name):
		return true // a lower-case name is the script's own, by convention
	}
	return readableEnv(name)
}

// proveParam checks one parameter expansion.
func (w *walker) proveParam(pe *syntax.ParamExp) {
	if pe.Param == nil || w.text(pe) == w.src {
		return
	}
	name := pe.Param.Value
	if pe.Names != 0 {
		return // ${!prefix*} lists names
	}
	if !w.readableVar(name) {
		w.unproven(pe, "reads the environment variable "+name+", which may hold a secret")
		return
	}
	switch {
	case pe.Excl && pe.Index == nil:
		vals, exact := w.varValues(name)
		if !exact && len(w.sc.assigns[name]) == 0 && len(w.sc.loops[name]) == 0 {
			w.unproven(pe, "uses the value of "+name+" as a variable name")
			return
		}
		for _, v := range vals {
			for _, e := range v {
				if !isEnvName(e) || !w.readableVar(e) {
					w.unproven(pe, "uses the value of "+name+" as a variable name")
					return
				}
			}
		}
	case pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && pe.Exp.Word != nil && strings.Contains(pe.Exp.Word.Lit(), "P"):
		if w.sc.inputs[name] || (len(w.sc.assigns[name]) == 0 && len(w.sc.loops[name]) == 0) {
			w.unproven(pe, "expands the value of "+name+" like a prompt, and it is not written out in the command")
			return
		}
		vals, _ := w.varValues(name)
		for _, v := range vals {
			for _, e := range v {
				if strings.ContainsAny(e, codeChars+unknownMark) {
					w.unproven(pe, "expands the value of "+name+" like a prompt, which runs the commands in it")
					return
				}
			}
		}
	}
}

// declItem is one operand of declare and its family.
type declItem struct {
	name, value string
	hasValue    bool // name=value
	known       bool // the name is written out
	valueKnown  bool // so is the value
	array       bool // a parsed array literal: a=(…)
	text        bool // a word bash splits at = itself (command form, or a word from an expansion)
	appendOp    bool
	index       bool
}

// declWhy proves a declaration: flags from the list, plain names, no name
// references, no arrays or numbers built by evaluating text.
func (w *walker) declWhy(flags string, items []declItem) string {
	for _, f := range flags {
		switch f {
		case 'r', 'x', 'g', 'l', 'u', 't', 'f', 'F', 'p', 'i', 'a', 'A', 'I':
		case 'n':
			return "makes a name reference, whose uses evaluate the name it holds"
		default:
			return "declares with -" + string(f) + ", which is not on the list"
		}
	}
	for _, it := range items {
		switch {
		case !it.known:
			return "declares a variable whose name or value is only known at run time"
		case it.index || !isEnvName(it.name):
			return "declares " + display(it.name) + ", which is not a plain variable name"
		case it.appendOp:
			return "appends to " + it.name + " with +="
		}
		if strings.ContainsRune(flags, 'p') && !w.readableVar(it.name) {
			return "prints " + it.name + ", which may hold a secret"
		}
		if !it.hasValue {
			continue
		}
		if !it.valueKnown && !it.array {
			if it.text || strings.ContainsAny(flags, "aAi") {
				return "declares " + it.name + " from a value only known at run time, which bash may evaluate"
			}
		}
		if !localName(it.name) && !inertEnv(envSetting{name: it.name, value: it.value, known: true}) {
			return "sets " + it.name + ", which may be in the environment of the programs that follow and is not on the list of inert variables"
		}
		if strings.ContainsRune(flags, 'i') && !it.array && !isInteger(it.value) {
			return "declares " + it.name + " a number, so its value " + display(it.value) + " is evaluated as arithmetic"
		}
		if !it.array && it.valueKnown && strings.HasPrefix(strings.TrimSpace(it.value), "(") {
			return "declares " + it.name + " from the text " + display(it.value) + ", which bash evaluates as an array, running what is in it"
		}
	}
	return ""
}

// declItems reads the operands of a parsed declaration.
func (w *walker) declItems(d *syntax.DeclClause) (string, []declItem) {
	flags := ""
	if d.Variant != nil {
		switch d.Variant.Value {
		case "export":
			flags = "x"
		case "readonly":
			flags = "r"
		case "nameref":
			flags = "n"
		}
	}
	var items []declItem
	for _, a := range d.Args {
		switch {
		case a.Naked && a.Name == nil && a.Value != nil:
			for _, alt := range w.expand(a.Value) {
				for _, f := range alt {
					if (strings.HasPrefix(f.s, "-") || strings.HasPrefix(f.s, "+")) && len(f.s) > 1 && f.known() {
						flags += f.s[1:]
						continue
					}
					n, v, has := strings.Cut(f.s, "=")
					items = append(items, declItem{name: n, value: v, hasValue: has, known: !strings.Contains(n, unknownMark) && !f.glob,
						valueKnown: f.known(), text: true})
				}
			}
		case a.Name != nil && a.Naked:
			items = append(items, declItem{name: a.Name.Value, known: true, valueKnown: true, index: a.Index != nil})
		case a.Name != nil:
			it := declItem{name: a.Name.Value, hasValue: true, known: true, valueKnown: true, index: a.Index != nil, appendOp: a.Append}
			switch {
			case a.Array != nil:
				it.array = true
				items = append(items, it)
			case a.Value != nil:
				for _, v := range w.valueAlts(a.Value) {
					it.value = v
					it.valueKnown = !strings.Contains(v, unknownMark)
					items = append(items, it)
				}
			default:
				items = append(items, it)
			}
		}
	}
	return flags, items
}
