package safety

import (
	"regexp"
	"strings"
	"sync"
)

// hAwk reads awk programs: printing is safe, system(), pipes to commands
// and getline from commands run programs, print > file writes.
func hAwk(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "FvfEi", longArg: []string{"field-separator", "assign", "file", "exec", "include", "load", "source"}})
	progs := ps.values("", "source")
	ops := ps.operands
	if ps.has("fEil", 3, "file", "exec", "include", "load") {
		p.raise(Confirm, "runs an awk program from a file")
	} else if len(progs) == 0 && len(ops) > 0 {
		progs = []string{ops[0].s}
		ops = ops[1:]
	}
	for _, prog := range progs {
		p.awkProgram(prog)
	}
	p.readsFiles(ops)
	p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
}

var (
	awkSystemRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bsystem\s*\(|\|\s*getline|\|&|@load|\bprint[f]?\b[^;{}\n]*\|`)
	})
	awkWriteRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bprint[f]?\b[^;{}\n]*>`) })
	awkStrRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`) })
	awkOutRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`>\s*>?\s*"([^"]*)"`) })
)

func (p *part) awkProgram(prog string) {
	if strings.Contains(prog, unknownMark) {
		p.raise(Confirm, "runs an awk program only known at run time")
		return
	}
	code := stripParens(prog)
	if strings.Contains(prog, "/inet") && strings.Contains(prog, "|&") {
		p.raise(Dangerous, "its awk program connects commands to the network (a remote shell)")
	}
	if awkSystemRe().MatchString(prog) {
		p.raise(Confirm, "its awk program runs shell commands")
		strs := awkStrRe().FindAllStringSubmatch(prog, -1)
		var joined []string
		for _, m := range strs {
			joined = append(joined, m[1])
			p.nestedProbe(m[1])
		}
		p.nestedProbe(strings.Join(joined, " "))
		if len(strs) == 0 {
			p.raise(Dangerous, "its awk program runs shell commands it builds at run time")
		}
	}
	if awkWriteRe().MatchString(code) {
		p.raise(Confirm, "its awk program writes files")
		for _, m := range awkOutRe().FindAllStringSubmatch(prog, -1) {
			p.writes([]field{{s: m[1]}})
		}
	}
}

func stripParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		default:
			if depth == 0 {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
