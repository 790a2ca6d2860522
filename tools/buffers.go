package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
)

// Buffers reads and writes files through the editor that holds them open
// (pincer acp, when the editor offers it), so the model reads what the
// person sees, unsaved changes included, and an approved edit lands in the
// editor's buffer instead of under it. Paths are absolute with their links
// resolved: the paths the path policy judged. The policy, the approvals and
// the checks before a write are the same as for the disk.
type Buffers interface {
	// ReadFile returns the file's text as the editor has it. ErrNoBuffers
	// (or any error) makes the tool read the disk instead.
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// WriteFile replaces the file's text in the editor. ErrNoBuffers makes
	// the tool write the disk instead; any other error fails the edit.
	WriteFile(ctx context.Context, path string, content []byte) error
}

// ErrNoBuffers is what Buffers returns for what the editor does not offer.
var ErrNoBuffers = errors.New("the editor does not offer this")

// readBuffer returns the editor's text of path, or ok false to read the
// disk: no editor, the editor does not offer reading, or it failed.
func readBuffer(ctx context.Context, b Buffers, path string) (data []byte, ok bool) {
	if b == nil {
		return nil, false
	}
	data, err := b.ReadFile(ctx, path)
	if err != nil {
		return nil, false
	}
	if data == nil {
		data = []byte{}
	}
	return data, true
}

// applyToBuffer writes an edit of an existing file through the editor,
// after the same check Apply makes on the disk: the text there is still
// what the edit was planned on. handled is false when the editor does not
// take writes, and the disk is written as usual.
func applyToBuffer(ctx context.Context, ch *Change, content []byte) (handled bool, err error) {
	b := ch.buffers
	if b == nil || ch.Created || ch.Before == nil || ch.target.real == "" {
		return false, nil
	}
	if err := ch.target.unchanged(ch.Path); err != nil {
		return true, err
	}
	current, ok := readBuffer(ctx, b, ch.target.real)
	if !ok {
		var err error
		if current, err = readExisting(ch.target.real, ch.Rel); err != nil {
			return true, err
		}
	}
	if current == nil {
		return true, fmt.Errorf("apply edit to %s: it was deleted meanwhile: %w", ch.Rel, ErrChangedOnDisk)
	}
	if !bytes.Equal(current, ch.Before) {
		return true, fmt.Errorf("apply edit to %s: %w", ch.Rel, ErrChangedOnDisk)
	}
	switch err := b.WriteFile(ctx, ch.target.real, content); {
	case errors.Is(err, ErrNoBuffers):
		return false, nil
	case err != nil:
		return true, fmt.Errorf("the editor did not take the edit of %s: %w", ch.Rel, err)
	}
	ch.log.Saw(ch.Path, content)
	return true, nil
}
