package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates some text as code although it is not a command: the
// operands of arithmetic ($(( )), (( )), let, [[ -eq ]], array subscripts,
// declare -i), variable names with subscripts (declare, read, printf -v,
// test -v, unset), indirect expansion (${!x}) and prompt expansion
// (${x@P}, PS4 under set -x). A command substitution in such text runs, so
// `declare 'a[$(rm -rf ~)]'` runs rm. The text is only as safe as what the
// classifier can read of it: text with a $ or ` in it is classified as
// the code it is and needs approval, and text only known at run time needs
// approval too.

// codeChars are the characters that make evaluated text run commands or
// read other variables.
const codeChars = "$`"

// evalScan looks at every place in a parsed script where bash evaluates
// text as arithmetic or as a variable reference.
func (w *walker) evalScan(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ArithmExp:
			w.arithExpr(x.X, x)
		case *syntax.ArithmCmd:
			w.arithExpr(x.X, x)
		case *syntax.LetClause:
			for _, e := range x.Exprs {
				w.arithExpr(e, x)
			}
		case *syntax.CStyleLoop:
			for _, e := range []syntax.ArithmExpr{x.Init, x.Cond, x.Post} {
				if e != nil {
					w.arithExpr(e, x)
				}
			}
		case *syntax.Assign:
			if x.Index != nil {
				w.arithExpr(x.Index, x)
			}
		case *syntax.ParamExp:
			w.paramEval(x)
			if x.Index != nil {
				w.arithExpr(x.Index, x)
			}
		case *syntax.BinaryTest:
			switch x.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				for _, side := range []syntax.TestExpr{x.X, x.Y} {
					if word, ok := side.(*syntax.Word); ok {
						w.arithWord(word, x)
					}
				}
			}
		case *syntax.UnaryTest:
			if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
				if word, ok := x.X.(*syntax.Word); ok {
					w.nameEvalWord(word, x)
				}
			}
		}
		return true
	})
}

// arithExpr checks an arithmetic expression: every word in it is evaluated.
func (w *walker) arithExpr(e syntax.ArithmExpr, at syntax.Node) {
	syntax.Walk(e, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.Word:
			w.arithWord(x, at)
			return false
		}
		return true
	})
}

// arithWord checks one word that bash evaluates as arithmetic: quoted text
// is evaluated as an expression of its own, an expansion's value is
// evaluated, and a bare name's value is evaluated.
func (w *walker) arithWord(word *syntax.Word, at syntax.Node) {
	for _, part := range word.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			w.arithNames(x.Value, at, 0)
		case *syntax.SglQuoted:
			w.evalText(x.Value, at, "evaluates "+display(x.Value)+" as arithmetic")
		case *syntax.DblQuoted:
			text, _ := w.docText(&syntax.Word{Parts: x.Parts}, false)
			w.evalText(text, at, "evaluates "+display(strings.ReplaceAll(text, unknownMark, "…"))+" as arithmetic")
			for _, p := range x.Parts {
				if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil {
					w.varEval(pe.Param.Value, at, 0)
				}
			}
		case *syntax.ParamExp:
			if x.Param != nil {
				w.varEval(x.Param.Value, at, 0)
			}
		case *syntax.CmdSubst:
			w.sh.acc.add(Confirm, display(w.text(at))+": evaluates the output of a command as arithmetic, which can run commands")
		}
	}
}

// arithNames checks the variables an arithmetic text names: bash evaluates
// their values as expressions in turn.
func (w *walker) arithNames(text string, at syntax.Node, depth int) {
	for _, name := range identifiers(text) {
		w.varEval(name, at, depth)
	}
}

// varEval checks the values the script gives a variable that bash will
// evaluate. A variable the script never assigns comes from the user's own
// environment and is trusted like it.
func (w *walker) varEval(name string, at syntax.Node, depth int) {
	if depth > 4 || (len(w.sc.assigns[name]) == 0 && len(w.sc.loops[name]) == 0) {
		return
	}
	vals, _ := w.varValues(name)
	for _, v := range vals {
		for _, e := range v {
			w.evalText(e, at, "evaluates the value of "+name+" as code")
			if !strings.ContainsAny(e, codeChars+unknownMark) {
				w.arithNames(e, at, depth+1)
			}
		}
	}
	for _, a := range w.sc.assigns[name] {
		if a.Append {
			w.sh.acc.add(Confirm, display(w.text(at))+": evaluates "+name+", whose value is only known at run time, as code")
		}
	}
}

// evalText checks text bash evaluates: text only known at run time needs
// approval, and text with an expansion in it is classified as the code it
// holds.
func (w *walker) evalText(text string, at syntax.Node, why string) {
	switch {
	case strings.Contains(text, unknownMark):
		w.sh.acc.add(Confirm, display(w.text(at))+": "+why+", and it is only known at run time")
	case strings.ContainsAny(text, codeChars):
		w.sh.acc.add(Confirm, display(w.text(at))+": "+why+", which runs the commands in it")
		w.evalCode(text)
	}
}

// evalCode classifies the commands in evaluated text, as the double-quoted
// string bash expands it as.
func (w *walker) evalCode(text string) {
	if w.depth >= maxDepth {
		w.sh.acc.add(Dangerous, display(text)+": evaluation nested too deeply to analyse")
		return
	}
	// Inside double quotes the text's $ and ` work as they do when bash
	// evaluates it; a literal in single quotes would hide them.
	src := ": \"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(text) + "\""
	w.script(src, scriptOpts{shareScope: true})
}

// nameEvalWord checks a word used as a variable name (test -v, [[ -v ]]).
func (w *walker) nameEvalWord(word *syntax.Word, at syntax.Node) {
	for _, alt := range w.expand(word) {
		for _, f := range alt {
			w.nameEval(f.s, at)
		}
	}
}

// nameEval checks text used as a variable name: a subscript in it is
// evaluated as arithmetic.
func (w *walker) nameEval(name string, at syntax.Node) {
	if strings.Contains(name, unknownMark) {
		w.sh.acc.add(Confirm, display(w.text(at))+": uses a variable name only known at run time, which can run commands")
		return
	}
	i := strings.IndexByte(name, '[')
	if i < 0 {
		return
	}
	sub := name[i+1:]
	if j := strings.LastIndexByte(sub, ']'); j >= 0 {
		sub = sub[:j]
	}
	w.evalText(sub, at, "evaluates the subscript "+display(sub))
	if !strings.ContainsAny(sub, codeChars) {
		w.arithNames(sub, at, 0)
	}
}

// paramEval checks ${!x} (the value of x names the variable, subscript
// included) and ${x@P} (the value is expanded like a prompt).
func (w *walker) paramEval(pe *syntax.ParamExp) {
	if pe.Param == nil || w.text(pe) == w.src {
		return
	}
	name := pe.Param.Value
	switch {
	case pe.Excl && pe.Names == 0 && pe.Index == nil:
		w.refEval(name, pe, "uses the value of "+name+" as a variable name")
	case pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && pe.Exp.Word != nil && strings.Contains(pe.Exp.Word.Lit(), "P"):
		w.refEval(name, pe, "expands the value of "+name+" like a prompt")
	}
}

// refEval checks a variable whose value bash evaluates again: values the
// script gives it are read, and a value from a substitution needs approval.
func (w *walker) refEval(name string, at syntax.Node, why string) {
	if len(w.sc.assigns[name]) == 0 && len(w.sc.loops[name]) == 0 {
		return
	}
	vals, _ := w.varValues(name)
	for _, v := range vals {
		for _, e := range v {
			w.evalText(e, at, why)
		}
	}
}

// identifiers returns the variable names in arithmetic text.
func identifiers(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		c := text[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j := i + 1
			for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			out = append(out, text[i:j])
			i = j
			continue
		}
		if c >= '0' && c <= '9' {
			// A number, including 0x1f and 2#101: not a name.
			for i < len(text) && (text[i] == '_' || text[i] == '#' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] >= '0' && text[i] <= '9') {
				i++
			}
			continue
		}
		i++
	}
	return out
}

// hSet handles set: alone it prints every variable, secrets included;
// with -x it expands PS4 before each command, running what PS4 holds.
func hSet(p *part, name string, args []field) {
	if len(args) == 0 {
		p.raise(Confirm, "prints every shell variable, which often hold secrets")
		return
	}
	p.historyOff(args)
	for i, a := range args {
		if a.s == "--" || a.s == "-" {
			break
		}
		trace := strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "x") ||
			a.s == "-o" && i+1 < len(args) && args[i+1].s == "xtrace"
		if trace {
			for _, as := range p.w.sc.assigns["PS4"] {
				if as.Value == nil {
					continue
				}
				for _, v := range p.w.valueAlts(as.Value) {
					if strings.ContainsAny(v, codeChars+unknownMark) {
						p.raiseSticky(Confirm, "traces commands with PS4, which runs the commands in it")
						p.nestedCommand(field{s: ": \"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + "\""}, scriptOpts{shareScope: true})
					}
				}
			}
		}
	}
}

// hDeclare handles declare, typeset, local, export and readonly when they
// are run as commands (command declare …, or through a wrapper); the parser
// handles the usual form in walker.decl.
func hDeclare(p *part, name string, args []field) {
	ps := getopt(args, optSpec{})
	if len(ps.operands) == 0 && (ps.has("px", 0) || len(ps.opts) == 0) && name != "local" {
		p.raise(Confirm, "prints variables, which often hold secrets")
	}
	for _, op := range ps.operands {
		n, v, _ := strings.Cut(op.s, "=")
		p.evalName(n)
		if ps.has("i", 0) {
			p.evalArith(v)
		}
	}
}

// hRead handles read: the names it assigns may carry subscripts.
func hRead(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "adinNptu"})
	if a, ok := ps.value("a", 0); ok {
		p.evalName(a)
	}
	for _, op := range ps.operands {
		p.evalName(op.s)
	}
}

// hMapfile handles mapfile and readarray: -C names a command run for
// every few lines read.
func hMapfile(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "dnOsuCc"})
	if cb, ok := ps.value("C", 0); ok {
		p.raiseSticky(Confirm, "runs "+display(cb)+" while reading (-C)")
		p.nestedCommand(field{s: cb}, scriptOpts{shareScope: true})
	}
	for _, op := range ps.operands {
		p.evalName(op.s)
	}
}

// hWait handles wait: -p names the variable that gets the process id, and
// bash evaluates a subscript in that name.
func hWait(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "p"})
	for _, v := range ps.values("p") {
		p.evalName(v)
	}
}

// hJobs handles jobs: -x runs the command that follows, with job specs
// replaced by process group ids.
func hJobs(p *part, name string, args []field) {
	ps := getopt(args, optSpec{posix: true})
	if ps.has("x", 0) {
		p.run(args[ps.rest:])
	}
}

// hUnset handles unset, which evaluates the subscripts of the names.
func hUnset(p *part, name string, args []field) {
	p.unsetsHistory(args)
	for _, op := range getopt(args, optSpec{}).operands {
		p.evalName(op.s)
	}
}

// hTest handles test and [: -v and -R take a variable name.
func hTest(p *part, name string, args []field) {
	for i, a := range args {
		if (a.s == "-v" || a.s == "-R") && i+1 < len(args) {
			p.evalName(args[i+1].s)
		}
	}
}

// hLet handles let run as a command (through a wrapper): every argument
// is an arithmetic expression.
func hLet(p *part, name string, args []field) {
	for _, a := range args {
		p.evalArith(a.s)
	}
}

// evalName is nameEval for a handler: text used as a variable name.
func (p *part) evalName(name string) {
	if strings.Contains(name, unknownMark) {
		p.raiseSticky(Confirm, "uses a variable name only known at run time, which can run commands")
		return
	}
	i := strings.IndexByte(name, '[')
	if i < 0 {
		return
	}
	p.evalArith(strings.TrimSuffix(name[i+1:], "]"))
}

// evalArith is evalText for a handler: text bash evaluates as arithmetic.
func (p *part) evalArith(text string) {
	switch {
	case strings.Contains(text, unknownMark):
		p.raiseSticky(Confirm, "evaluates text only known at run time as arithmetic, which can run commands")
	case strings.ContainsAny(text, codeChars):
		p.raiseSticky(Confirm, "evaluates "+display(text)+" as arithmetic, which runs the commands in it")
		p.nestedCommand(field{s: ": \"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(text) + "\""}, scriptOpts{shareScope: true})
	}
}

// hComplete handles complete and compgen: -C names a command run to
// produce completions, and -F a function of the script.
func hComplete(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "oAGWFCXPSEI"})
	for _, cmd := range ps.values("C") {
		p.raiseSticky(Confirm, "runs "+display(cmd)+" for completion")
		p.nestedCommand(field{s: cmd}, scriptOpts{shareScope: true})
	}
}
