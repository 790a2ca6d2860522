// Package diffview shows the diff of an edit the model proposed and lets the
// person choose which of its hunks land.
//
// A Model is built from a tools.Change. It splits the change into hunks — runs
// of changed lines separated by at least one unchanged line — and draws them
// with line numbers, a few lines of context, syntax highlighting and the
// theme's diff colours, unified or side by side. Every hunk starts accepted;
// the person moves between hunks, toggles them, and Result gives the file with
// exactly the accepted hunks applied, byte for byte (line endings and a
// missing final newline included).
//
// The package draws only the diff. The dialog around it — title, the keys to
// accept or reject the edit, the comment, writing the file and answering the
// model — belongs to its caller, which passes its other keys through Update
// and uses Result and RejectedNote when the person confirms.
package diffview
