package safety

import "strings"

// roughScan looks at text the parser rejected. It cuts the text at every
// character that can separate commands, strips quotes and backslashes, and
// classifies each run of words as a command. Only dangerous findings are
// recorded: the text already needs approval because it does not parse, and
// the scan exists so that a syntax error cannot hide `rm -rf ~` next to it.
func (w *walker) roughScan(src string) {
	chunks := strings.FieldsFunc(src, func(r rune) bool {
		switch r {
		case '\n', ';', '&', '|', '(', ')', '`', '{', '}', '<', '>':
			return true
		}
		return false
	})
	for i, chunk := range chunks {
		if i >= 256 {
			w.sh.acc.add(Dangerous, display(src)+": too large to analyse")
			return
		}
		var argv []field
		for _, word := range strings.Fields(chunk) {
			word = strings.NewReplacer(`"`, "", `'`, "", `\`, "", "$", "").Replace(word)
			if word != "" {
				argv = append(argv, field{s: word})
			}
		}
		if len(argv) == 0 {
			continue
		}
		sh := newShared(w.sh.c)
		tw := &walker{sh: sh, sc: newScope(), src: chunk, depth: w.depth + 1, cwd: w.cwd}
		if tw.depth > maxDepth {
			return
		}
		p := tw.newPart(chunk, stream{})
		p.run(argv)
		if p.tier() == Dangerous || sh.acc.top == Dangerous {
			why := ""
			for _, r := range p.raises {
				if r.tier == Dangerous {
					why = r.why
					break
				}
			}
			if why == "" && len(sh.acc.dangerous) > 0 {
				why = sh.acc.dangerous[0]
			}
			w.sh.acc.add(Dangerous, display(chunk)+": "+why)
		}
	}
}
