package diffview

import "pincer/internal/safetext"

// appendDisplay appends s, one line of a file, to b as it is drawn under
// pincer's one policy (package safetext): tabs expanded to the next stop,
// control characters, escape sequences, bidirectional and zero-width
// characters shown, not obeyed, so a file cannot move the cursor, recolour
// the screen or make a line read differently from what it is. col is the
// column s starts at; the column after it is returned, so a line can be
// converted token by token with the same result as converting it whole.
func appendDisplay(b []byte, s string, col int) ([]byte, int) {
	return safetext.Append(b, s, col, safetext.Line)
}

// lineContent is a line without its line break ("\n" or "\r\n").
func lineContent(line string) string {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
		if n > 0 && line[n-1] == '\r' {
			n--
		}
	}
	return line[:n]
}
