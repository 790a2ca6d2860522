package telegram

import (
	"html"
	"net/url"
	"strings"
	"unicode/utf8"

	"pincer/internal/safetext"
)

// MaxMessage is the most characters Telegram accepts in one message, after
// entities are parsed. Chunks are measured on the HTML, which is never
// shorter than the text Telegram counts, so they always fit.
const MaxMessage = 4096

// ToHTML converts the Markdown a model writes to Telegram's HTML subset:
// fenced code blocks become <pre>, `code` <code>, **bold** and headings <b>,
// [text](https://…) <a href>. Everything else is escaped text, so the
// result only ever holds those tags, balanced. Single * and _ are left as
// they are: in code-heavy answers they are far more often part of a name
// (snake_case, *ptr) than emphasis, and a wrong guess would eat them.
func ToHTML(md string) string {
	md = clean(md)
	var b strings.Builder
	lines := strings.Split(md, "\n")
	inFence := false
	var code []string
	for i, line := range lines {
		if fence(line) {
			if inFence {
				writePre(&b, code)
				code = nil
			}
			inFence = !inFence
			if !inFence && i < len(lines)-1 {
				b.WriteString("\n")
			}
			continue
		}
		if inFence {
			code = append(code, line)
			continue
		}
		if h := heading(line); h != "" {
			b.WriteString("<b>")
			b.WriteString(inline(h))
			b.WriteString("</b>")
		} else {
			b.WriteString(inline(line))
		}
		if i < len(lines)-1 {
			b.WriteString("\n")
		}
	}
	if inFence { // still streaming, or never closed: show what came
		writePre(&b, code)
	}
	return b.String()
}

func writePre(b *strings.Builder, code []string) {
	b.WriteString("<pre>")
	b.WriteString(html.EscapeString(strings.Join(code, "\n")))
	b.WriteString("</pre>")
}

// fence reports whether line opens or closes a fenced code block.
func fence(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " "), "```")
}

// heading is the text of a Markdown heading line, or "".
func heading(line string) string {
	t := strings.TrimLeft(line, "#")
	if t == line || len(line)-len(t) > 6 || !strings.HasPrefix(t, " ") {
		return ""
	}
	return strings.TrimSpace(t)
}

// inline converts one line outside code blocks.
func inline(s string) string {
	var b strings.Builder
	for s != "" {
		switch {
		case s[0] == '`':
			if end := strings.IndexByte(s[1:], '`'); end > 0 {
				b.WriteString("<code>" + html.EscapeString(s[1:1+end]) + "</code>")
				s = s[end+2:]
				continue
			}
		case strings.HasPrefix(s, "**"):
			if end := strings.Index(s[2:], "**"); end > 0 {
				b.WriteString("<b>" + inline(s[2:2+end]) + "</b>")
				s = s[end+4:]
				continue
			}
		case s[0] == '[':
			if text, href, rest, ok := link(s); ok {
				b.WriteString(`<a href="` + html.EscapeString(href) + `">` + html.EscapeString(text) + "</a>")
				s = rest
				continue
			}
		}
		_, n := utf8.DecodeRuneInString(s)
		b.WriteString(html.EscapeString(s[:n]))
		s = s[n:]
	}
	return b.String()
}

// link parses [text](url) at the start of s; only http and https links
// become links.
func link(s string) (text, href, rest string, ok bool) {
	close := strings.Index(s, "](")
	if close < 1 || strings.ContainsAny(s[1:close], "[]") {
		return "", "", "", false
	}
	end := strings.IndexByte(s[close+2:], ')')
	if end < 1 {
		return "", "", "", false
	}
	href = s[close+2 : close+2+end]
	u, err := url.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || strings.ContainsAny(href, " \"<>") {
		return "", "", "", false
	}
	return s[1:close], href, s[close+3+end:], true
}

// Split cuts an answer in Markdown into pieces whose HTML each fits in one
// message. Cuts fall between lines; a code block cut in two is closed at
// the end of one piece and opened again (with its language) at the start
// of the next, so both render as code.
func Split(md string, limit int) []string {
	md = clean(md)
	if len(ToHTML(md)) <= limit {
		return []string{md}
	}
	var out []string
	var cur strings.Builder
	opener := "" // the fence line of the open code block, or ""
	closed := func(s string) string {
		if opener != "" {
			return s + "\n```"
		}
		return s
	}
	flush := func() {
		out = append(out, closed(strings.TrimSuffix(cur.String(), "\n")))
		cur.Reset()
		if opener != "" {
			cur.WriteString(opener + "\n")
		}
	}
	for _, line := range strings.SplitAfter(md, "\n") {
		for j, piece := range cutLine(line, limit/8) {
			wasOpen := opener
			isFence := j == 0 && fence(piece)
			if isFence {
				if opener == "" {
					opener = strings.TrimRight(piece, "\n")
				} else {
					opener = ""
				}
			}
			candidate := cur.String() + piece
			if len(ToHTML(closed(strings.TrimSuffix(candidate, "\n")))) > limit && cur.Len() > len(wasOpen)+1 {
				now := opener
				opener = wasOpen
				flush()
				opener = now
				if isFence && now == "" {
					// The piece closes the block that flush reopened.
					cur.Reset()
					continue
				}
			}
			cur.WriteString(piece)
		}
	}
	if strings.TrimSpace(cur.String()) != "" && cur.String() != opener+"\n" {
		out = append(out, strings.TrimSuffix(cur.String(), "\n"))
	}
	return out
}

// cutLine cuts a line too long for any message into pieces of at most n
// bytes, after a space where there is one, else at a rune boundary.
// Joined, the pieces are the line.
func cutLine(line string, n int) []string {
	var out []string
	for len(line) > n {
		i := strings.LastIndexByte(line[:n], ' ') + 1
		if i < n/2 {
			for i = n; i > 0 && !utf8.RuneStart(line[i]); i-- {
			}
		}
		out = append(out, line[:i])
		line = line[i:]
	}
	return append(out, line)
}

// clean applies pincer's one sanitising policy (package safetext) to
// foreign text: control, bidi and invisible characters are shown, never
// passed on, so what a person reads on the phone is what is there.
func clean(s string) string { return safetext.TextOf(s) }
