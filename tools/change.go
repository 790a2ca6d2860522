package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"pincer/chat"
)

// ErrChangedOnDisk is returned by Apply when the file no longer holds what it
// held when the change was planned, so applying it would lose someone's work.
var ErrChangedOnDisk = errors.New("the file changed on disk after the edit was planned; read it again and redo the edit")

// Change is an edit planned but not yet written, so a person can review the
// diff before it lands.
type Change struct {
	Path    string // absolute
	Rel     string // relative to Root, for display
	Before  []byte // content on disk when planned; nil when the file does not exist
	After   []byte // proposed content
	Created bool   // the file does not exist yet
	// Removed says the change deletes the file (a rewind's preview); the
	// edit tools never set it.
	Removed bool
	// Summary says what the edit does, for the model and the review dialog,
	// e.g. "replaced 1 occurrence (lines 40-44)".
	Summary string
	// Stale reports that the file on disk is no longer what the model last
	// read or wrote: someone changed it meanwhile. Before is what is on
	// disk now, so the diff shows the change against the current file.
	Stale bool

	log     *ReadLog   // told what Apply writes
	target  judgedPath // where Apply writes: the path as the policy judged it
	buffers Buffers    // the editor's buffers, when Apply writes through them
}

// Planner is implemented by the Calls of edit_file and write_file. Plan reads
// the disk, computes the new content and writes nothing. A plan failure
// (old_text not found, path is a directory) is an error whose text is for
// the model; send it back as an error result. To review an edit: Plan, show
// the diff of Before and After, Apply what the person accepted, and answer
// the model with AppliedResult. Calling Run instead plans and applies at
// once, without review.
type Planner interface {
	Plan(ctx context.Context) (*Change, error)
}

// Apply writes content to ch.Path if the file on disk still equals ch.Before
// (or still does not exist, for a new file); otherwise it returns an error
// wrapping ErrChangedOnDisk and writes nothing. content is usually ch.After,
// or what the reviewer made of it. The write is atomic: a temporary file in
// the same directory renamed over the target, keeping the file mode. Parent
// directories of a new file are created. A symbolic link is followed and its
// target written, so the link survives — but only as it was resolved when
// the call was made (what the path policy judged): a link swapped in since
// is refused and nothing is written.
func Apply(ch *Change, content []byte) error {
	return ApplyContext(context.Background(), ch, content)
}

// ApplyContext is Apply for a change planned with editor buffers
// (Options.Buffers): an existing file is written through the editor, after
// the same check against the text the edit was planned on, and ctx bounds
// the exchange with the editor. A new file is written to the disk.
func ApplyContext(ctx context.Context, ch *Change, content []byte) error {
	if handled, err := applyToBuffer(ctx, ch, content); handled {
		return err
	}
	target := ch.target
	if target.real == "" {
		target = newJudgedPath("", ch.Path)
	}
	err := target.write(content, func(current []byte, exists bool) error {
		switch {
		case ch.Before == nil && exists:
			return fmt.Errorf("it was created by someone else meanwhile: %w", ErrChangedOnDisk)
		case ch.Before != nil && !exists:
			return fmt.Errorf("it was deleted meanwhile: %w", ErrChangedOnDisk)
		case ch.Before != nil && !bytes.Equal(current, ch.Before):
			return ErrChangedOnDisk
		}
		return nil
	})
	if errors.Is(err, ErrChangedOnDisk) {
		return fmt.Errorf("apply edit to %s: %w", ch.Rel, err)
	}
	if err != nil {
		return writeError(ch.Rel, err)
	}
	ch.log.Saw(ch.Path, content)
	return nil
}

// AppliedResult is the tool result for a change that Apply wrote with
// content: what changed, and a numbered snippet of the changed region so the
// model can check it without reading the file again. When the reviewer
// altered the proposal the text says so.
func AppliedResult(ch *Change, content []byte) Result {
	kind := chat.TouchChanged
	verb := "Edited"
	if ch.Created {
		kind, verb = chat.TouchCreated, "Created"
	}
	var b bytes.Buffer
	if bytes.Equal(content, ch.After) {
		fmt.Fprintf(&b, "%s %s: %s.", verb, ch.Rel, ch.Summary)
	} else {
		fmt.Fprintf(&b, "%s %s, with changes the user made during review: the file now differs from your proposal, so read the snippet below (or the file) before editing it again.", verb, ch.Rel)
	}
	if snippet := changedSnippet(ch.Before, content); snippet != "" {
		b.WriteString("\n")
		b.WriteString(snippet)
	}
	return Result{Content: b.String(), Touched: []chat.Touch{{Path: ch.Rel, Kind: kind}}}
}
