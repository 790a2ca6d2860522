package themes

import (
	"image/color"

	"charm.land/glamour/v2/ansi"
)

// Glamour returns the markdown style for glamour built from the palette, so
// rendered answers use the same colours as the rest of the screen. Code
// blocks are highlighted with the theme's chroma style.
//
// The document has no margin and no blank lines around it: the transcript
// places rendered markdown itself.
func (t Theme) Glamour() ansi.StyleConfig {
	p := t.Palette
	fg := col(p.Foreground)
	if t.DefaultText {
		fg = nil
	}
	accent := col(p.Accent)
	muted := col(p.Muted)
	border := col(p.Border)

	return ansi.StyleConfig{
		Document: ansi.StyleBlock{
			StylePrimitive: ansi.StylePrimitive{Color: fg},
			Margin:         uintp(0),
		},
		BlockQuote: ansi.StyleBlock{
			StylePrimitive: ansi.StylePrimitive{Color: muted, Italic: boolp(true)},
			Indent:         uintp(1),
			IndentToken:    strp("│ "),
		},
		List: ansi.StyleList{LevelIndent: 2},
		Heading: ansi.StyleBlock{
			StylePrimitive: ansi.StylePrimitive{Color: accent, Bold: boolp(true), BlockSuffix: "\n"},
		},
		H1: ansi.StyleBlock{
			StylePrimitive: ansi.StylePrimitive{
				Prefix: " ", Suffix: " ",
				Color: col(p.Background), BackgroundColor: accent, Bold: boolp(true),
			},
		},
		H2: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "## "}},
		H3: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "### "}},
		H4: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "#### "}},
		H5: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "##### "}},
		H6: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "###### ", Color: muted, Bold: boolp(false)}},

		Strikethrough:  ansi.StylePrimitive{CrossedOut: boolp(true)},
		Emph:           ansi.StylePrimitive{Italic: boolp(true)},
		Strong:         ansi.StylePrimitive{Bold: boolp(true)},
		HorizontalRule: ansi.StylePrimitive{Color: border, Format: "\n────────\n"},

		Item:        ansi.StylePrimitive{BlockPrefix: "• "},
		Enumeration: ansi.StylePrimitive{BlockPrefix: ". "},
		Task:        ansi.StyleTask{Ticked: "[✓] ", Unticked: "[ ] "},

		Link:      ansi.StylePrimitive{Color: col(p.Link), Underline: boolp(true)},
		LinkText:  ansi.StylePrimitive{Color: col(p.Link), Bold: boolp(true)},
		Image:     ansi.StylePrimitive{Color: col(p.Link), Underline: boolp(true)},
		ImageText: ansi.StylePrimitive{Color: muted, Format: "Image: {{.text}} →"},

		Code: ansi.StyleBlock{
			StylePrimitive: ansi.StylePrimitive{
				Prefix: " ", Suffix: " ",
				Color: col(p.Code), BackgroundColor: col(p.CodeBg),
			},
		},
		CodeBlock: ansi.StyleCodeBlock{
			StyleBlock: ansi.StyleBlock{
				StylePrimitive: ansi.StylePrimitive{Color: fg},
				Margin:         uintp(2),
			},
			Theme: codeStyle(t),
		},
		Table: ansi.StyleTable{
			StyleBlock:      ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Color: fg}},
			CenterSeparator: strp("┼"),
			ColumnSeparator: strp("│"),
			RowSeparator:    strp("─"),
		},
		DefinitionTerm:        ansi.StylePrimitive{Bold: boolp(true)},
		DefinitionDescription: ansi.StylePrimitive{BlockPrefix: "\n→ "},
		HTMLBlock:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Color: muted}},
		HTMLSpan:              ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Color: muted}},
	}
}

func col(c color.Color) *string {
	if c == nil {
		return nil
	}
	s := ColorString(c)
	return &s
}

func strp(s string) *string { return &s }
func boolp(b bool) *bool    { return &b }
func uintp(u uint) *uint    { return &u }
