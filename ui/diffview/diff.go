package diffview

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"pincer/internal/human"
	"pincer/tools"
)

// doc is everything about one change that does not depend on the person's
// choices, the size or the theme. It is built once and shared by the copies
// of a Model.
type doc struct {
	name          string // the path shown
	before, after []byte
	created       bool // the file does not exist yet
	deletes       bool // the change deletes the file
	binary        bool
	old, new      *side
	hunks         []hunk
	added         int
	removed       int
	highlighted   bool       // old and new carry their syntax segments
	bounds        [][2]int   // the old lines each hunk shows, context included
	titles        []string   // hunk titles
	notes         []string   // remarks on the whole file: new file, line endings
	layouts       [2]*rowSet // unified, side by side
	// preview: the change is shown, not reviewed (a rewind's preview):
	// hunks are not accepted or rejected one by one.
	preview bool
}

func newDoc(ch *tools.Change) *doc {
	d := &doc{
		name:    ch.Rel,
		before:  ch.Before,
		after:   ch.After,
		created: ch.Created || ch.Before == nil,
		deletes: ch.Removed,
	}
	if d.name == "" {
		d.name = ch.Path
	}
	d.binary = looksBinary(ch.Before) || looksBinary(ch.After)
	if d.binary {
		d.old, d.new = newSide(""), newSide("")
		if !bytes.Equal(ch.Before, ch.After) {
			d.hunks = []hunk{{}}
		}
	} else {
		d.old, d.new = newSide(string(ch.Before)), newSide(string(ch.After))
		d.hunks = diffHunks(d.old.src, d.new.src, d.old.starts)
	}
	for _, h := range d.hunks {
		d.added += h.added()
		d.removed += h.removed()
	}
	lookalikes, mixed := 0, 0
	if !d.binary {
		d.computeBounds()
		lookalikes = d.revealLookalikes()
		mixed = d.revealMixedScripts()
	}
	d.titles = hunkTitles(d)
	d.notes = fileNotes(d)
	if lookalikes > 0 {
		d.notes = append(d.notes, lookalikeNote(lookalikes))
	}
	if mixed > 0 {
		d.notes = append(d.notes, mixedNote(mixed))
	}
	d.layouts = [2]*rowSet{buildRows(d, false), buildRows(d, true)}
	return d
}

// looksBinary reports whether data is not text, as git decides it: a NUL
// byte near the start, or mostly bytes that are not UTF-8.
func looksBinary(data []byte) bool {
	head := data[:min(len(data), 8000)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if utf8.Valid(head) {
		return false
	}
	bad := 0
	for i := 0; i < len(head); {
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
		}
		i += size
	}
	return bad*10 > len(head)
}

// apply returns before with the hunks that accepted marks applied. All
// accepted gives after exactly, none gives before; a binary change, one
// hunk, is always one or the other.
func (d *doc) apply(accepted []bool) []byte {
	all, none := true, true
	for _, a := range accepted {
		all = all && a
		none = none && !a
	}
	switch {
	case all:
		return d.after
	case none:
		return d.before
	}
	out := make([]byte, 0, max(len(d.before), len(d.after)))
	last := 0
	for i, h := range d.hunks {
		if !accepted[i] {
			continue
		}
		out = append(out, d.before[last:h.edit.Start]...)
		out = append(out, h.edit.New...)
		last = h.edit.End
	}
	return append(out, d.before[last:]...)
}

// hunkTitles are the titles drawn above the hunks: where each one is, its
// number and what it adds and removes.
func hunkTitles(d *doc) []string {
	if d.binary && len(d.hunks) == 1 {
		return []string{fmt.Sprintf("binary content  hunk 1/1  %s → %s", human.Bytes(int64(len(d.before))), human.Bytes(int64(len(d.after))))}
	}
	ranges := hunkRanges(d)
	out := make([]string, len(d.hunks))
	for i, h := range d.hunks {
		out[i] = fmt.Sprintf("%s  hunk %d/%d  +%d −%d", ranges[i], i+1, len(d.hunks), h.added(), h.removed())
	}
	return out
}

// fileNotes are remarks on the change as a whole, for the status line.
func fileNotes(d *doc) []string {
	var notes []string
	switch {
	case d.created:
		notes = append(notes, "new file")
	case d.deletes:
		notes = append(notes, "file removed")
	case len(d.after) == 0 && len(d.before) > 0:
		notes = append(notes, "emptied")
	}
	if !d.binary && d.old.crlf != d.new.crlf &&
		strings.Contains(d.old.src, "\n") && strings.Contains(d.new.src, "\n") {
		notes = append(notes, fmt.Sprintf("line endings %s → %s", endingName(d.old.crlf), endingName(d.new.crlf)))
	}
	return notes
}

func endingName(crlf bool) string {
	if crlf {
		return "CRLF"
	}
	return "LF"
}

// highlightSync lexes both versions now when the change is small enough
// to do it on the event loop, once. Both versions are lexed whole so that
// strings and comments that span lines are coloured right; finding the
// lexer alone takes a millisecond, so it waits until a row is drawn.
func (d *doc) highlightSync() {
	if d.highlighted || d.binary || len(d.old.src)+len(d.new.src) > syncHighlightBytes {
		return
	}
	lexer := lexerFor(d.name)
	d.setSegments(d.old.lex(lexer), d.new.lex(lexer))
}

// highlightCmd lexes a change too large for highlightSync off the event
// loop; nil when there is nothing to do.
func (d *doc) highlightCmd() tea.Cmd {
	if d.highlighted || d.binary || len(d.old.src)+len(d.new.src) <= syncHighlightBytes {
		return nil
	}
	return func() tea.Msg {
		lexer := lexerFor(d.name)
		return highlightedMsg{d: d, old: d.old.lex(lexer), new: d.new.lex(lexer)}
	}
}

func (d *doc) setSegments(old, new [][]segment) {
	d.old.segs, d.new.segs = old, new
	d.highlighted = true
}
