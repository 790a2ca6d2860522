package safety

import "strings"

func hSed(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "efl", longArg: []string{"expression", "file", "line-length"}})
	inPlace := false
	for _, o := range ps.opts {
		if o.name == "i" || (o.long && strings.HasPrefix("in-place", o.name) && len(o.name) >= 3) || o.name == "I" {
			inPlace = true
		}
	}
	for _, a := range args {
		// -i.bak and -i'' attach the suffix: getopt reads them as clusters.
		if strings.HasPrefix(a.s, "-i") || strings.HasPrefix(a.s, "--in-place") {
			inPlace = true
		}
	}
	scripts := ps.values("e", "expression")
	ops := ps.operands
	if ps.has("f", 3, "file") {
		p.raise(Confirm, "runs a sed script from a file")
	} else if len(scripts) == 0 && len(ops) > 0 {
		scripts = []string{ops[0].s}
		ops = ops[1:]
	}
	for _, sc := range scripts {
		if strings.Contains(sc, unknownMark) {
			p.raise(Confirm, "runs a sed script only known at run time")
			continue
		}
		for _, e := range sedEffects(sc) {
			switch e.kind {
			case 'e':
				p.raise(Dangerous, "runs shell commands from its script (e)")
				p.nestedCommand(field{s: e.arg}, scriptOpts{})
			case 'w':
				p.writes([]field{{s: e.arg}})
			case 'r':
				p.readsFiles([]field{{s: e.arg}})
			case '?':
				p.raise(Confirm, "has a sed script pincer cannot read")
			}
		}
	}
	if inPlace {
		p.writes(ops)
		p.raise(Confirm, "edits files in place")
	} else {
		p.readsFiles(ops)
	}
	p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
}

type sedEffect struct {
	kind byte // 'e' executes, 'w' writes a file, 'r' reads one, '?' unreadable
	arg  string
}

func sedEffects(script string) []sedEffect {
	var out []sedEffect
	s := script
	i := 0
	skipSpace := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ';' || s[i] == '\n' || s[i] == '}' || s[i] == '{' || s[i] == '!') {
			i++
		}
	}
	readDelimited := func() bool {
		if i >= len(s) {
			return false
		}
		d := s[i]
		i++
		for i < len(s) && s[i] != d {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(s) {
			return false
		}
		i++
		return true
	}
	restOfLine := func() string {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = len(s) - i
		}
		arg := strings.TrimSpace(s[i : i+j])
		i += j
		return arg
	}
	// Labels end at a newline or, in GNU sed, a semicolon.
	label := func() {
		for i < len(s) && s[i] != '\n' && s[i] != ';' {
			i++
		}
	}
	for guard := 0; i < len(s) && guard < 10000; guard++ {
		skipSpace()
		if i >= len(s) {
			break
		}
		// Addresses: numbers, $, /re/, \cre c, ranges, steps.
		for i < len(s) {
			c := s[i]
			switch {
			case c >= '0' && c <= '9' || c == '$' || c == ',' || c == '~' || c == '+' || c == ' ':
				i++
				continue
			case c == '/':
				if !readDelimited() {
					return append(out, sedEffect{kind: '?'})
				}
				if i < len(s) && (s[i] == 'I' || s[i] == 'M') {
					i++
				}
				continue
			case c == '\\' && i+1 < len(s):
				i++
				if !readDelimited() {
					return append(out, sedEffect{kind: '?'})
				}
				continue
			}
			break
		}
		skipSpace()
		if i >= len(s) {
			break
		}
		cmd := s[i]
		i++
		switch cmd {
		case 's':
			if !readDelimited() {
				return append(out, sedEffect{kind: '?'})
			}
			i-- // the delimiter closing the pattern opens the replacement
			if !readDelimited() {
				return append(out, sedEffect{kind: '?'})
			}
			for i < len(s) && strings.IndexByte("gpiImMe0123456789w", s[i]) >= 0 {
				switch s[i] {
				case 'e':
					out = append(out, sedEffect{kind: 'e'})
				case 'w':
					i++
					out = append(out, sedEffect{kind: 'w', arg: restOfLine()})
					continue
				}
				i++
			}
		case 'y':
			if !readDelimited() {
				return append(out, sedEffect{kind: '?'})
			}
			i--
			if !readDelimited() {
				return append(out, sedEffect{kind: '?'})
			}
		case 'e':
			out = append(out, sedEffect{kind: 'e', arg: restOfLine()})
		case 'w', 'W':
			out = append(out, sedEffect{kind: 'w', arg: restOfLine()})
		case 'b', 't', 'T', ':', 'l', 'L', 'q', 'Q', 'v':
			label()
		case 'r', 'R':
			out = append(out, sedEffect{kind: 'r', arg: restOfLine()})
		case 'a', 'i', 'c', '#':
			restOfLine()
		case 'F', 'z':
		case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=':
		default:
			return append(out, sedEffect{kind: '?'})
		}
	}
	return out
}
