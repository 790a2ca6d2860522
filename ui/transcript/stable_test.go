package transcript

import "testing"

func TestStableEnd(t *testing.T) {
	tests := []struct {
		name string
		src  string
		tail string // src[stableEnd(src):], the part that stays unstable
	}{
		{"empty", "", ""},
		{"one partial paragraph", "Hello wor", "Hello wor"},
		{"finished paragraph, next begun", "Para one.\n\nPara tw", "Para tw"},
		{"blank line but nothing after", "Para one.\n\n", "Para one.\n\n"},
		{"blank line then spaces only", "Para one.\n\n   ", "Para one.\n\n   "},
		{"several paragraphs", "P1\n\nP2\n\nP3", "P3"},
		{"paragraph lines without blank", "line one\nline two", "line one\nline two"},
		{"heading then text", "# Title\n\nText", "Text"},
		{"heading right before text", "# Title\nText", "# Title\nText"},
		{"setext heading", "Title\n=====\n\nText", "Text"},
		{"open fence with blank lines inside", "Intro\n\n```go\nfunc f() {\n\n}\n\nx", "```go\nfunc f() {\n\n}\n\nx"},
		{"closed fence", "```go\nf()\n```\n\nAfter", "After"},
		{"closing fence not yet ended by newline", "Intro\n\n```\ncode\n```", "```\ncode\n```"},
		{"shorter fence does not close", "````\na\n```\n\nstill code\n````\n\nAfter", "After"},
		{"shorter fence does not close, open", "X\n\n````\na\n```\n\nstill code", "````\na\n```\n\nstill code"},
		{"tilde fence", "~~~\ncode\n\n~~~\n\nok", "ok"},
		{"backticks do not close tilde fence", "X\n\n~~~\ncode\n```\n\nmore", "~~~\ncode\n```\n\nmore"},
		{"fence with info string closes only on bare fence", "X\n\n```go\na\n``` not a close\n\nb", "```go\na\n``` not a close\n\nb"},
		{"inline triple backticks are not a fence", "Use ```x``` here\n\nNext", "Next"},
		{"list then paragraph", "- a\n- b\n\nNext", "Next"},
		{"loose list may continue", "- a\n\n- b", "- a\n\n- b"},
		{"another bullet char may continue", "- a\n\n* b", "- a\n\n* b"},
		{"bare marker is undecided", "- a\n\n-", "- a\n\n-"},
		{"digits are undecided", "- a\n\n12", "- a\n\n12"},
		{"digit and dot are undecided", "- a\n\n1.", "- a\n\n1."},
		{"digits then letters are text", "- a\n\n12abc", "12abc"},
		{"ordered list then paragraph", "1. a\n2. b\n\nDone", "Done"},
		{"item continuation", "- a\n\n  more a\n\nAfter", "After"},
		{"list item text at column 0 after blank ends list", "- a\n\nText", "Text"},
		{"thematic break after list ends it", "- a\n\n***\n\nB", "B"},
		{"table then paragraph", "| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter", "After"},
		{"table in progress", "Intro\n\n| a | b |\n|---|", "| a | b |\n|---|"},
		{"block quote then paragraph", "> q\n> r\n\nAfter", "After"},
		{"definition after blank", "Term\n\n: def", "Term\n\n: def"},
		{"paragraph after a definition may be its next term", "Term\n: def\n\nTerm2", "Term\n: def\n\nTerm2"},
		{"definition list then two paragraphs", "Term\n: def\n\nP1\n\nP2", "P2"},
		{"open html comment", "Intro\n\n<!-- a\n\nb", "Intro\n\n<!-- a\n\nb"},
		// glamour draws raw HTML with no blank line before or after it, so
		// no chunk starts at or right after an HTML block.
		{"closed html comment", "<!-- a\n\nb -->\n\nAfter\n\nMore", "More"},
		{"one-line html comment", "<!-- a -->\n\nAfter", "<!-- a -->\n\nAfter"},
		{"open pre block", "Intro\n\n<pre>\nx\n\ny", "Intro\n\n<pre>\nx\n\ny"},
		{"closed pre block", "Intro\n\n<pre>\nx\n\ny\n</pre>\n\nAfter\n\nMore", "More"},
		{"indented code keeps the block open", "Intro\n\n    code\n\n    more", "Intro\n\n    code\n\n    more"},
		{"tab indented line", "Intro\n\n\tcode", "Intro\n\n\tcode"},
		{"fence inside list item, closed", "- a\n\n  ```\n  x\n\n  y\n  ```\n\nAfter", "After"},
		// "not yet" ends the item and its fence, so the second fence line
		// opens a block that holds "After": no boundary may follow.
		{"fence inside list item cut by an outdented line", "- a\n\n  ```\n  x\n\nnot yet\n  ```\n\nAfter", "- a\n\n  ```\n  x\n\nnot yet\n  ```\n\nAfter"},
		{"html comment inside list item cut by an outdented line", "Intro\n\n- a\n\n  <!-- x\n\ny\n```\n\nz -->\n\nAfter", "- a\n\n  <!-- x\n\ny\n```\n\nz -->\n\nAfter"},
		// "```" right after a tag line is raw HTML (div) or a fence (b),
		// depending on the tag.
		{"fence after a tag line", "Intro\n\n<div>\n```\n</div>\n\n```\ncode\n\nmore\n```\n\nEnd", "Intro\n\n<div>\n```\n</div>\n\n```\ncode\n\nmore\n```\n\nEnd"},
		{"tag line without fence", "<div>\nx\n</div>\n\nAfter\n\nMore", "More"},
		{"html after a paragraph stays with it", "Para\n\n<div>\nx", "Para\n\n<div>\nx"},
		{"carriage returns", "P1\r\n\r\nP2", "P2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			end := stableEnd(tt.src)
			if got := tt.src[end:]; got != tt.tail {
				t.Errorf("tail = %q, want %q", got, tt.tail)
			}
			if end > 0 && tt.src[end-1] != '\n' {
				t.Errorf("boundary %d is not at a line start", end)
			}
		})
	}
}

func TestListMarker(t *testing.T) {
	tests := []struct {
		s        string
		complete bool
		want     int
	}{
		{"- a", false, isMarker},
		{"+ a", false, isMarker},
		{"* a", false, isMarker},
		{"-\ta", false, isMarker},
		{"-", false, maybeMarker},
		{"-", true, isMarker},
		{"-a", false, notMarker},
		{"1. a", false, isMarker},
		{"1) a", false, isMarker},
		{"123456789. a", false, isMarker},
		{"1234567890. a", false, notMarker},
		{"12", false, maybeMarker},
		{"12", true, notMarker},
		{"1.", false, maybeMarker},
		{"1.", true, isMarker},
		{"1.5", false, notMarker},
		{"a. b", false, notMarker},
		{"", false, notMarker},
	}
	for _, tt := range tests {
		if got := listMarker(tt.s, tt.complete); got != tt.want {
			t.Errorf("listMarker(%q, %v) = %d, want %d", tt.s, tt.complete, got, tt.want)
		}
	}
}

func TestFences(t *testing.T) {
	opens := []struct {
		s, want string
	}{
		{"```", "```"},
		{"```go", "```"},
		{"````md", "````"},
		{"~~~", "~~~"},
		{"~~~ `x`", "~~~"}, // tildes allow backticks in the info string
		{"``` a`b", ""},
		{"``", ""},
		{"text", ""},
	}
	for _, tt := range opens {
		if got := fenceOpen(tt.s); got != tt.want {
			t.Errorf("fenceOpen(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
	closes := []struct {
		line, marker string
		want         bool
	}{
		{"```", "```", true},
		{"````", "```", true},
		{"```  ", "```", true},
		{"   ```", "```", true},
		{"    ```", "```", false},
		{"``", "```", false},
		{"```go", "```", false},
		{"~~~", "```", false},
		{"```", "````", false},
	}
	for _, tt := range closes {
		if got := isFenceClose(tt.line, tt.marker); got != tt.want {
			t.Errorf("isFenceClose(%q, %q) = %v, want %v", tt.line, tt.marker, got, tt.want)
		}
	}
}

func TestLabelFences(t *testing.T) {
	tests := []struct{ in, want string }{
		{"```\nls\n```\n", "```text\nls\n```\n"},
		{"```go\nx\n```\n", "```go\nx\n```\n"},
		{"~~~\nx\n~~~", "~~~text\nx\n~~~"},
		{"```\na\n```\n\n```\nb\n```", "```text\na\n```\n\n```text\nb\n```"},
		{"  ```\nx\n  ```", "  ```text\nx\n  ```"},
		{"    ```\nindented code\n", "    ```\nindented code\n"},
		{"no fences", "no fences"},
	}
	for _, tt := range tests {
		if got := labelFences(tt.in); got != tt.want {
			t.Errorf("labelFences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
