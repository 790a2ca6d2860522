package safety

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// unknownMark stands for text only known at run time. A NUL byte cannot
// occur in a shell word, so it never collides with real text.
const unknownMark = "\x00"

// globMark starts a variable's value that is a file name pattern the
// shell expands before the value is taken (for f in *.go): the variable
// holds one of the names it matches.
const globMark = "\x01"

// unknownParam is how unknown text is spelled when it is put back into
// shell source (a bash -c string built from an expansion); it is never
// given a value, so the nested walk sees an unknown expansion.
const unknownParam = "${__pincer_unknown}"

// taint marks text whose content the user cannot see in the command.
type taint uint8

const (
	taintDownload taint = 1 << iota // fetched from the network (or another machine)
	taintDecoded                    // decoded or rewritten at run time (base64 -d, rev, tr, …)
)

// stream describes text on a pipe, in a here-document or produced by a
// command substitution.
type stream struct {
	taint   taint
	literal string // the whole text when exact; may hold unknownMark pieces
	exact   bool
	present bool     // something feeds it; false means nothing (a terminal)
	shell   bool     // the output of a shell running whatever it reads
	list    *listing // file names, when a proven lister prints them
}

func (s stream) merge(o stream) stream {
	return stream{taint: s.taint | o.taint, present: s.present || o.present, shell: s.shell || o.shell}
}

// field is one word of a command after expansion.
type field struct {
	s     string // the text; unknown pieces are unknownMark
	split bool   // holds an unquoted unknown expansion: may be several words or flags
	glob  bool   // holds unquoted pattern characters: may expand to file names
	proc  bool   // a process substitution path such as <(cmd)
	taint taint
	// computed is set when the text came from a command substitution or a
	// variable whose value is not certain, even if every value is known:
	// a program named that way needs approval.
	computed bool
	// fromGlob is set when the text is a file name pattern the shell
	// expanded earlier (the variable of for f in *.go): the word is one
	// of the files it matches.
	fromGlob bool
	// matched is set for a name a file name pattern matched (expandGlobs):
	// like a file found in a tree, its content is looked into only when
	// its name could be a key's (sniffName).
	matched bool
	// item is set for a word a wrapper fills in at run time from what it
	// reads (find -exec {}, xargs): the proof layer judges it by where
	// those names come from.
	item bool
}

// known reports whether the field's text is exactly what the program will see.
func (f field) known() bool { return !f.glob && !strings.Contains(f.s, unknownMark) }

// dynamic reports whether any of the field is only known at run time.
func (f field) dynamic() bool { return strings.Contains(f.s, unknownMark) }

// seg is a piece of a word while it is being expanded.
type seg struct {
	s         string
	quoted    bool // inside quotes: never split
	splits    bool // the result of an unquoted expansion: split on blanks
	unknown   bool
	glob      bool
	proc      bool
	taint     taint
	fieldsSep bool // "${a[@]}": elements become separate words even when quoted
	computed  bool // from a command substitution or an uncertain variable
	fromGlob  bool // a loop variable over a file name pattern
}

const (
	maxAlts   = 16 // command lines built from every combination of word values
	maxValues = 64 // values kept per variable and per word
	maxBraces = 64 // words kept from one brace expansion
)

// expand returns the ways a word can expand: each alternative is a list of
// fields. Substitutions inside the word are classified on the way.
func (w *walker) expand(word *syntax.Word) [][]field {
	if alts, ok := w.sh.words[word]; ok {
		return alts
	}
	w.substsIn(word)
	words := []*syntax.Word{word}
	if n := braceCount(word); n > maxBraceChars {
		// Splitting braces costs time quadratic in their number; a word
		// with this many is not expanded, and needs approval.
		w.sh.acc.add(Confirm, display(w.wordText(word))+": too many braces to expand")
	} else if n > 0 {
		cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
		if syntax.SplitBraces(cp) {
			words = words[:0]
			for bw, err := range expand.BracesSeq(nil, cp) {
				if err != nil || len(words) == maxBraces {
					break
				}
				words = append(words, bw)
			}
		}
	}
	alts := [][]field{nil}
	for _, bw := range words {
		alts = concatAlts(alts, w.wordAlts(bw.Parts))
	}
	w.sh.words[word] = alts
	return alts
}

// braceCount counts the { of a word's unquoted literal parts.
func braceCount(word *syntax.Word) int {
	n := 0
	for _, p := range word.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			n += strings.Count(l.Value, "{")
		}
	}
	return n
}

// maxBraceChars is the most { a word may hold to be brace-expanded.
const maxBraceChars = 64

// wordText is the source text of a word.
func (w *walker) wordText(word *syntax.Word) string {
	start, end := int(word.Pos().Offset()), int(word.End().Offset())
	if start < 0 || end > len(w.src) || start >= end {
		return "a word"
	}
	return w.src[start:end]
}

// concatAlts appends every alternative of b to every alternative of a.
// Past maxValues combinations it keeps the first of a with every b.
func concatAlts(a, b [][]field) [][]field {
	if len(a)*len(b) > maxValues {
		a = a[:1]
		if len(b) > 2*maxValues {
			b = b[:2*maxValues]
		}
	}
	out := make([][]field, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(append([]field(nil), x...), y...))
		}
	}
	return out
}

// wordAlts expands the parts of one (brace-free) word.
func (w *walker) wordAlts(parts []syntax.WordPart) [][]field {
	segAlts := w.partsSegs(parts, false)
	out := make([][]field, 0, len(segAlts))
	seps := w.fieldSeparators()
	for _, segs := range segAlts {
		out = append(out, assemble(segs, seps))
	}
	return out
}

// partsSegs returns alternatives of segment lists for a run of word parts.
func (w *walker) partsSegs(parts []syntax.WordPart, quoted bool) [][]seg {
	alts := [][]seg{nil}
	for _, part := range parts {
		next := w.partSegs(part, quoted)
		if len(alts)*len(next) > maxValues {
			// Collapse this part to one unknown piece rather than drop options.
			next = [][]seg{{{s: unknownMark, unknown: true, quoted: quoted, splits: !quoted}}}
		}
		if len(next) == 1 {
			// The common case: extend every alternative in place.
			for i := range alts {
				alts[i] = append(alts[i], next[0]...)
			}
			continue
		}
		var merged [][]seg
		for _, a := range alts {
			for _, n := range next {
				merged = append(merged, append(append([]seg(nil), a...), n...))
			}
		}
		alts = merged
	}
	return alts
}

func one(s seg) [][]seg { return [][]seg{{s}} }

func (w *walker) partSegs(part syntax.WordPart, quoted bool) [][]seg {
	switch x := part.(type) {
	case *syntax.Lit:
		if quoted {
			return one(seg{s: unescapeDouble(x.Value), quoted: true})
		}
		return one(seg{s: unescapeBare(x.Value), glob: hasGlob(x.Value)})
	case *syntax.SglQuoted:
		v := x.Value
		if x.Dollar {
			v = ansiC(v)
		}
		return one(seg{s: v, quoted: true})
	case *syntax.DblQuoted:
		alts := w.partsSegs(x.Parts, true)
		for i := range alts {
			if len(alts[i]) == 0 {
				alts[i] = []seg{{quoted: true}} // "" is an empty word, not no word
			}
		}
		return alts
	case *syntax.ParamExp:
		return w.paramSegs(x, quoted)
	case *syntax.CmdSubst:
		st := w.sh.substs[x]
		if st.exact && !strings.Contains(st.literal, unknownMark) {
			return one(seg{s: strings.TrimRight(st.literal, "\n"), quoted: quoted, splits: !quoted, taint: st.taint, computed: true})
		}
		return one(seg{s: unknownMark, unknown: true, quoted: quoted, splits: !quoted, taint: st.taint, computed: true})
	case *syntax.ProcSubst:
		st := w.sh.substs[x]
		return one(seg{s: unknownMark, unknown: true, quoted: true, proc: true, taint: st.taint})
	case *syntax.ArithmExp:
		return one(seg{s: unknownMark, unknown: true, quoted: true})
	case *syntax.ExtGlob:
		return one(seg{s: x.Op.String() + x.Pattern.Value + ")", glob: true})
	}
	return one(seg{s: unknownMark, unknown: true, quoted: quoted, splits: !quoted})
}

// paramSegs expands $name and ${name…} from what the script assigns.
func (w *walker) paramSegs(pe *syntax.ParamExp, quoted bool) [][]seg {
	unknown := seg{s: unknownMark, unknown: true, quoted: quoted, splits: !quoted}
	if pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.IsSet || pe.Flags != nil ||
		pe.NestedParam != nil || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || len(pe.Modifiers) > 0 {
		return one(unknown)
	}
	name := pe.Param.Value
	vals, exact := w.varValues(name)
	if !exact && w.loopSet(name, pe) {
		exact = true
	}
	all := false
	if pe.Index != nil {
		idx, ok := pe.Index.(*syntax.Word)
		if !ok {
			return one(unknown)
		}
		switch lit := idx.Lit(); {
		case lit == "@" || lit == "*":
			all = true
		case lit == "0":
		default:
			n := 0
			for _, c := range lit {
				if c < '0' || c > '9' || n > 1000 {
					return one(unknown)
				}
				n = n*10 + int(c-'0')
			}
			if lit == "" {
				return one(unknown)
			}
			picked := make([][]string, 0, len(vals))
			for _, v := range vals {
				if n < len(v) {
					picked = append(picked, []string{v[n]})
				}
			}
			vals = picked
		}
	}
	if name == "@" || name == "*" {
		all = true
	}
	var out [][]seg
	add := func(s seg) {
		if len(out) < 2*maxValues {
			out = append(out, []seg{s})
		}
	}
	if !exact {
		// First, so that a capped list never loses it.
		add(unknown)
	}
	for _, v := range vals {
		switch {
		case len(v) == 0:
			add(seg{quoted: quoted, splits: !quoted, computed: !exact})
		case all:
			add(seg{s: strings.Join(v, " "), quoted: quoted, splits: true, fieldsSep: quoted && name != "*", computed: !exact})
		case strings.HasPrefix(v[0], globMark):
			add(seg{s: v[0][len(globMark):], quoted: quoted, splits: !quoted, computed: !exact, fromGlob: true})
		default:
			add(seg{s: v[0], quoted: quoted, splits: !quoted, computed: !exact})
		}
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
			syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			if pe.Exp.Word != nil {
				for _, alt := range w.partsSegs(pe.Exp.Word.Parts, quoted) {
					if len(out) < 2*maxValues {
						out = append(out, markComputed(alt, quoted))
					}
				}
			}
			if len(out) == 0 {
				add(unknown)
			}
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		default:
			// Trimming and case changes: the result is not tracked.
			return one(unknown)
		}
	}
	if len(out) == 0 {
		add(unknown)
	}
	return out
}

// markComputed marks the text of a ${x:-word} default as an expansion
// result: unquoted, it splits like one.
func markComputed(segs []seg, quoted bool) []seg {
	out := make([]seg, len(segs))
	for i, s := range segs {
		if !quoted && !s.quoted {
			s.splits = true
		}
		s.computed = true
		out[i] = s
	}
	return out
}

// fieldSeparators are the characters expansions may be split on: blanks,
// and every character the script ever assigns to IFS.
func (w *walker) fieldSeparators() string {
	seps := " \t\n"
	for _, a := range w.sc.assigns["IFS"] {
		if a.Value != nil {
			for _, v := range w.valueAlts(a.Value) {
				seps += strings.ReplaceAll(v, unknownMark, "")
			}
		}
	}
	return seps
}

// assemble joins segments into fields, splitting unquoted expansion results
// on the separators.
func assemble(segs []seg, seps string) []field {
	var out []field
	var cur field
	var text strings.Builder // cur.s, built without quadratic concatenation
	open := false
	flush := func() {
		if open {
			cur.s = text.String()
			out = append(out, cur)
		}
		cur, open = field{}, false
		text.Reset()
	}
	addTo := func(s seg, t string) {
		text.WriteString(t)
		cur.glob = cur.glob || s.glob
		cur.proc = cur.proc || s.proc
		cur.computed = cur.computed || s.computed
		cur.fromGlob = cur.fromGlob || s.fromGlob
		cur.taint |= s.taint
		if s.unknown && !s.quoted {
			cur.split = true
		}
		open = true
	}
	for _, s := range segs {
		if s.unknown || !s.splits || (s.quoted && !s.fieldsSep) {
			addTo(s, s.s)
			continue
		}
		// An expansion result: split on blanks like the shell does with IFS.
		text := s.s
		if text == "" {
			if s.quoted {
				addTo(s, "")
			}
			continue
		}
		isSep := func(r rune) bool { return strings.ContainsRune(seps, r) }
		if isSep(rune(text[0])) {
			flush()
		}
		for i, piece := range strings.FieldsFunc(text, isSep) {
			if i > 0 {
				flush()
			}
			addTo(s, piece)
		}
		if isSep(rune(text[len(text)-1])) {
			flush()
		}
	}
	flush()
	return out
}

// hasGlob reports unquoted, unescaped pattern characters in a literal.
func hasGlob(raw string) bool {
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.IndexByte(raw[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// unescapeBare removes the backslashes of an unquoted literal: \x is x and
// backslash-newline disappears.
func unescapeBare(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) {
			i++
			if raw[i] != '\n' {
				b.WriteByte(raw[i])
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// unescapeDouble removes the backslashes that double quotes honour.
func unescapeDouble(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) {
			switch raw[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(raw[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// unescapeHeredoc removes the backslashes an unquoted here-document honours.
func unescapeHeredoc(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) {
			switch raw[i+1] {
			case '$', '`', '\\':
				b.WriteByte(raw[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ansiC decodes a $'…' string.
func ansiC(v string) string {
	s, _, err := expand.Format(nil, v, nil)
	if err != nil {
		return unknownMark
	}
	s, _, _ = strings.Cut(s, "\x00")
	return s
}

// docText renders a here-document body (or any word) as one string,
// with unknownMark where it expands to something unknown.
func (w *walker) docText(word *syntax.Word, raw bool) (string, taint) {
	w.substsIn(word)
	var b strings.Builder
	var t taint
	for _, part := range word.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			if raw {
				b.WriteString(x.Value)
			} else {
				b.WriteString(unescapeHeredoc(x.Value))
			}
		default:
			alts := w.partSegs(part, true)
			if len(alts) == 1 {
				for _, s := range alts[0] {
					b.WriteString(s.s)
					t |= s.taint
				}
			} else {
				b.WriteString(unknownMark)
				for _, a := range alts {
					for _, s := range a {
						t |= s.taint
					}
				}
			}
		}
	}
	return b.String(), t
}

// joinFields renders fields as one string separated by spaces.
func joinFields(fs []field) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.s
	}
	return strings.Join(parts, " ")
}

// fieldsTaint returns the taint of any of the fields.
func fieldsTaint(fs []field) taint {
	var t taint
	for _, f := range fs {
		t |= f.taint
	}
	return t
}

// asSource turns text with unknown pieces back into shell source for a nested parse.
func asSource(s string) string {
	return strings.ReplaceAll(s, unknownMark, unknownParam)
}

// literalField makes a known field.
func literalField(s string) field { return field{s: s} }
