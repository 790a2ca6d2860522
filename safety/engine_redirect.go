package safety

import (
	"mvdan.cc/sh/v3/syntax"
)

// netWhy is the reason given for a redirection to /dev/tcp or /dev/udp;
// shells check for it, since a shell wired to a socket is a remote shell.
const netWhy = "opens a network connection"

// redirects works out what a statement's redirections do: the stdin they
// give the command and the raises for what they write or read.
func (w *walker) redirects(rs []*syntax.Redirect, in stream) (stream, []raise, []string) {
	stdin := in
	var effects []raise
	var written []string
	add := func(t Tier, why string) {
		if t > Safe {
			effects = append(effects, raise{t, levelPart, why})
		}
	}
	for _, r := range rs {
		if r.Word != nil {
			w.substsWith(r.Word, in)
		}
		if r.Hdoc != nil {
			w.substsWith(r.Hdoc, in)
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body := ""
			var t taint
			if r.Hdoc != nil {
				body, t = w.docText(r.Hdoc, quotedDelim(r.Word))
			}
			stdin = stream{literal: body, exact: true, present: true, taint: t}
			continue
		case syntax.WordHdoc:
			text, t := w.docText(r.Word, false)
			if len(r.Word.Parts) > 0 {
				alts := w.expand(r.Word)
				if len(alts) == 1 {
					text = joinFields(alts[0])
				}
			}
			stdin = stream{literal: text + "\n", exact: true, present: true, taint: t}
			continue
		}
		for _, target := range w.targets(r.Word) {
			l := w.resolve(target.s)
			switch r.Op {
			case syntax.RdrIn:
				st := stream{present: true, taint: target.taint}
				if l.path == "/dev/null" {
					st.exact = true // reads nothing: sh < /dev/null runs nothing
				}
				if isNetDev(l.path) || w.sh.downloaded[l.path] {
					st.taint |= taintDownload
				}
				if isNetDev(l.path) {
					add(Confirm, netWhy)
				}
				if t, _ := exfilLoc(l); t != 0 {
					st.taint |= t // nc host 1 < ~/.ssh/id_rsa sends it
				}
				st.taint |= w.sh.leaked[l.path]
				stdin = st
				if why := secretLoc(l); why != "" {
					// As for operands, no allow rule lowers a secret read.
					effects = append(effects, raise{Confirm, levelSticky, "reads " + display(target.s) + " (" + why + ")"})
				} else if w.sh.proving() && !target.proc && !isNetDev(l.path) {
					if why := w.redirReadWhy(target, l); why != "" {
						add(Confirm, unprovenWhy+" ("+why+")")
					}
				}
			case syntax.DplIn:
			case syntax.DplOut:
				if isDigits(target.s) || target.s == "-" {
					continue
				}
				add(w.writeEffect(target, l))
				w.redirWriteProof(target, l, add)
			default: // >, >>, >|, &>, &>>, <>
				if target.proc {
					continue
				}
				add(w.writeEffect(target, l))
				w.redirWriteProof(target, l, add)
				written = append(written, l.path)
				if _, seen := w.sh.wrote[l.path]; !seen && (r.Op == syntax.AppOut || r.Op == syntax.AppAll || r.Op == syntax.RdrInOut) {
					w.sh.wrote[l.path] = unknownMark + "\n" // what the file held before is not known
				}
			}
		}
	}
	return stdin, effects, written
}

// targets returns the possible values of a redirection word; a redirection
// never splits, so each alternative is joined into one path.
func (w *walker) targets(word *syntax.Word) []field {
	if word == nil {
		return nil
	}
	var out []field
	for _, alt := range w.expand(word) {
		f := field{s: joinFields(alt), taint: fieldsTaint(alt)}
		for _, x := range alt {
			f.glob = f.glob || x.glob
			f.proc = f.proc || x.proc
		}
		out = append(out, f)
	}
	return out
}

// writeEffect is the tier and reason of writing one path.
func (w *walker) writeEffect(target field, l loc) (Tier, string) {
	t, why := writeRisk(l)
	switch {
	case t == Safe:
		return Safe, ""
	case why == netWhy:
		return t, why
	case why != "":
		return t, "writes " + display(target.s) + " (" + why + ")"
	case l.unknown:
		return Confirm, "writes a file whose name is only known at run time"
	}
	return Confirm, "writes " + display(target.s)
}

// quotedDelim reports a here-document delimiter written with quotes or a
// backslash, whose body is taken literally.
func quotedDelim(word *syntax.Word) bool {
	if word == nil {
		return false
	}
	for _, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			for i := 0; i < len(x.Value); i++ {
				if x.Value[i] == '\\' {
					return true
				}
			}
		}
	}
	return false
}

// truncations finds a statement that empties a file: a > redirection of
// nothing (> f, : > f, true > f, cat /dev/null > f, echo -n > f,
// printf "" > f). What the file held is gone without a way back.
func (w *walker) truncations(s *syntax.Stmt) []raise {
	var out []raise
	for _, r := range s.Redirs {
		if r.Op != syntax.RdrOut && r.Op != syntax.ClbOut && r.Op != syntax.RdrAll {
			continue
		}
		if (r.N != nil && r.N.Value != "1") || !w.printsNothing(s.Cmd) {
			continue
		}
		for _, t := range w.targets(r.Word) {
			if t.proc || isSink(w.resolve(t.s).path) || isNetDev(w.resolve(t.s).path) {
				continue
			}
			out = append(out, raise{Dangerous, levelPart, "empties " + display(t.s)})
		}
	}
	return out
}

// printsNothing reports a command whose output is empty (or one blank
// line): no command at all, :, true, false, cat /dev/null, echo, echo -n,
// printf "".
func (w *walker) printsNothing(cmd syntax.Command) bool {
	if cmd == nil {
		return true
	}
	ce, ok := cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return ok
	}
	alts := w.expand(ce.Args[0])
	if len(alts) != 1 || len(alts[0]) != 1 {
		return false
	}
	var rest []string
	for _, a := range ce.Args[1:] {
		as := w.expand(a)
		if len(as) != 1 {
			return false
		}
		for _, f := range as[0] {
			if !f.known() {
				return false
			}
			rest = append(rest, f.s)
		}
	}
	switch progName(alts[0][0].s) {
	case ":", "true", "false":
		return true
	case "cat":
		return len(rest) == 1 && rest[0] == "/dev/null"
	case "echo":
		for _, a := range rest {
			if a != "-n" && a != "" && a != "-e" && a != "-ne" {
				return false
			}
		}
		return true
	case "printf":
		return len(rest) == 1 && rest[0] == ""
	}
	return false
}

// redirReadWhy proves a file a redirection reads (< file), like a read
// operand: written out, not a device, nothing private of another process.
func (w *walker) redirReadWhy(target field, l loc) string {
	c := &proofCtx{p: &part{w: w}}
	return c.read(target)
}

// redirWriteProof adds the proof's reason for a write the engine found
// harmless: only /dev/null and the command's own streams are proven, so
// writes to a terminal (/dev/pts/N, /dev/tty) or another descriptor are
// asked about.
func (w *walker) redirWriteProof(target field, l loc, add func(Tier, string)) {
	if !w.sh.proving() || target.proc {
		return
	}
	if t, _ := writeRisk(l); t != Safe {
		return // the engine gave its own reason
	}
	if !target.known() || !ownStream(l.path) {
		add(Confirm, unprovenWhy+" (writes "+display(target.s)+", and only /dev/null and the command's own output are on the list)")
	}
}
