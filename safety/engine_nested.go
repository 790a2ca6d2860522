package safety

import "strings"

// nestedCommand classifies a string that a shell will run (bash -c, eval,
// ssh host '…', watch, …). Its commands become parts of their own.
func (p *part) nestedCommand(code field, o scriptOpts) stream {
	if code.taint&taintDownload != 0 {
		p.raiseSticky(Dangerous, "runs code downloaded from the network")
	}
	if code.taint&taintDecoded != 0 {
		p.raiseSticky(Dangerous, "runs code that is decoded or rewritten at run time")
	}
	if code.proc {
		p.raiseSticky(Dangerous, "runs a script produced by another command, which pincer cannot read")
	}
	if strings.TrimSpace(strings.ReplaceAll(code.s, unknownMark, "")) == "" {
		switch {
		case code.dynamic() && o.program:
			// Only the program's name is unknown, as with $CMD: what it
			// does depends on which program it is, not on a hidden script.
			p.raiseSticky(Confirm, "runs a program only known at run time")
		case code.dynamic():
			// Nothing of the code is visible: it is whatever the variable
			// or the other command holds when it runs.
			p.raiseSticky(Dangerous, "runs code only known at run time")
		}
		return stream{present: true, taint: code.taint}
	}
	if code.dynamic() {
		p.raiseSticky(Confirm, "runs a command only known at run time")
	}
	o.bulk = o.bulk || p.bulk
	out := p.w.script(asSource(code.s), o)
	out.taint |= code.taint
	return out
}

// nestedStdin classifies a shell reading its commands from standard input.
// Text written out in the command (a here-document, echo '…' | sh) is
// classified as the script it is; anything else piped or redirected into
// a shell is Dangerous, whatever produced it: pincer cannot read it, and
// neither can the user approving it.
func (p *part) nestedStdin(shell string, o scriptOpts) {
	in := p.stdin
	switch {
	case in.taint&taintDownload != 0:
		p.raiseSticky(Dangerous, "pipes code downloaded from the network into "+shell)
	case in.taint&taintDecoded != 0:
		p.raiseSticky(Dangerous, "pipes decoded or rewritten text into "+shell)
	}
	switch {
	case in.exact && strings.TrimSpace(strings.ReplaceAll(in.literal, unknownMark, "")) == "":
		if strings.Contains(in.literal, unknownMark) {
			p.raiseSticky(Dangerous, "runs commands that are only known at run time")
		}
	case in.exact:
		if strings.Contains(in.literal, unknownMark) {
			p.raiseSticky(Confirm, "runs commands that are only known at run time")
		}
		o.bulk = o.bulk || p.bulk
		p.w.script(asSource(in.literal), o)
	case in.present:
		if in.taint&(taintDownload|taintDecoded) == 0 {
			p.raiseSticky(Dangerous, "runs commands piped or redirected into "+shell+", which pincer cannot read")
		}
		p.out.shell = true
	case p.tier() == Safe:
		p.raise(Confirm, "starts an interactive "+shell)
	}
}

// nestedProbe looks for dangerous shell commands in text found inside
// another language (a string in a Python one-liner, an awk system() call).
// Only a dangerous finding is recorded; anything else adds nothing.
func (p *part) nestedProbe(text string) {
	text = strings.TrimSpace(text)
	if text == "" || len(text) > 4096 {
		return
	}
	sh := newShared(p.w.sh.c)
	sh.probe = true
	tw := &walker{sh: sh, sc: newScope(), depth: p.w.depth, cwd: p.w.cwd}
	tw.script(asSource(text), scriptOpts{bulk: p.bulk})
	if sh.acc.top == Dangerous && len(sh.acc.dangerous) > 0 {
		p.raise(Dangerous, "contains the shell command "+sh.acc.dangerous[0])
	}
}
