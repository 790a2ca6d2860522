// Package rewind takes a session back to an earlier turn: the project's
// files, from the snapshots package checkpoint keeps in its shadow
// repository, and the conversation, from the rewinds the session store
// records. Recorder takes the snapshots around each turn (it is the
// agent's Checkpointer); Rewinder plans, applies and redoes rewinds for
// the screen's /rewind, /undo and /redo and for `pincer sessions rewind`.
package rewind

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"pincer/chat"
	"pincer/checkpoint"
	"pincer/session"
)

// Snapshots is the part of a checkpoint.Store this package uses.
type Snapshots interface {
	Snapshot(ctx context.Context, label string) (checkpoint.Snapshot, error)
	Changes(ctx context.Context, from, to string) ([]checkpoint.Change, error)
	Restore(ctx context.Context, id string, opts checkpoint.RestoreOptions) (checkpoint.RestoreResult, error)
	Blob(hash string, limit int64) ([]byte, bool, error)
}

// Sessions is the part of a session.Store this package uses.
type Sessions interface {
	PutCheckpoint(sessionID string, c session.Checkpoint) error
	Checkpoints(sessionID string) ([]session.Checkpoint, error)
	Messages(id string, afterSeq uint64) ([]chat.Message, error)
	Rewind(sessionID string, r session.Rewind) (session.Rewind, error)
	Rewinds(sessionID string) ([]session.Rewind, error)
	Redo(sessionID string) (session.Rewind, error)
}

// Recorder snapshots the project's files at the start and the end of
// each turn, in the background and one at a time, and stores each turn's
// snapshots with the session the turn belongs to.
type Recorder struct {
	snaps   Snapshots
	st      Sessions
	current func() string // the session in use

	mu   sync.Mutex
	last chan struct{} // closed when the latest queued job is done
	jobs sync.WaitGroup
	// started holds each running turn's checkpoint, by session and
	// prompt, once its first snapshot is stored.
	started map[turnKey]session.Checkpoint
	// told are the skipped files already named in a note, so each is
	// said once, not at every turn.
	told map[string]bool
}

type turnKey struct {
	session string
	seq     uint64
}

// NewRecorder returns a recorder for the turns of the session current
// names when each turn starts.
func NewRecorder(snaps Snapshots, st Sessions, current func() string) *Recorder {
	done := make(chan struct{})
	close(done)
	return &Recorder{snaps: snaps, st: st, current: current, last: done, started: map[turnKey]session.Checkpoint{}, told: map[string]bool{}}
}

// queue runs job after every job queued before it, in the background,
// and returns a channel closed when it is done.
func (r *Recorder) queue(job func()) <-chan struct{} {
	r.mu.Lock()
	prev := r.last
	done := make(chan struct{})
	r.last = done
	r.mu.Unlock()
	r.jobs.Add(1)
	go func() {
		defer r.jobs.Done()
		defer close(done)
		<-prev
		job()
	}()
	return done
}

// Warm takes a snapshot nobody waits for, so that the first turn's
// snapshot of a big project only records what changed since.
func (r *Recorder) Warm() {
	r.queue(func() { _, _ = r.snaps.Snapshot(context.Background(), "session opened") })
}

// TurnStarted snapshots the files as the turn finds them. The snapshot
// is not stopped when the turn is: it is cheap once taken and the turn
// may already have changed files by then.
func (r *Recorder) TurnStarted(ctx context.Context, seq uint64) func() (string, error) {
	key := turnKey{r.current(), seq}
	var err error
	var note string
	done := r.queue(func() {
		var snap checkpoint.Snapshot
		snap, err = r.snaps.Snapshot(context.WithoutCancel(ctx), fmt.Sprintf("before turn %d", seq))
		if err != nil {
			return
		}
		cp := session.Checkpoint{Seq: seq, Before: snap.ID, Time: snap.Time, Skipped: skippedPaths(snap.Skipped)}
		if err = r.st.PutCheckpoint(key.session, cp); err != nil {
			return
		}
		r.mu.Lock()
		r.started[key] = cp
		note = r.skippedNote(snap.Skipped)
		r.mu.Unlock()
	})
	return func() (string, error) {
		<-done
		return note, err
	}
}

// skippedNote names the files left out of a snapshot that no note named
// before; "" when there are none. Call it with r.mu held.
func (r *Recorder) skippedNote(skipped []checkpoint.Skipped) string {
	var fresh []string
	for _, s := range skipped {
		if !r.told[s.Path] {
			r.told[s.Path] = true
			fresh = append(fresh, fmt.Sprintf("%s (%s)", s.Path, s.Reason))
		}
	}
	if len(fresh) == 0 {
		return ""
	}
	more := ""
	if len(fresh) > 5 {
		fresh, more = fresh[:5], fmt.Sprintf(" and %d more", len(fresh)-5)
	}
	return "Not recorded for /rewind, so a rewind leaves them as they are: " + strings.Join(fresh, ", ") + more + ". checkpoint_max_file_mb raises the size limit."
}

// TurnEnded snapshots the files as the turn leaves them, so a later
// rewind can tell its changes from changes made outside pincer.
func (r *Recorder) TurnEnded(seq uint64) {
	key := turnKey{r.current(), seq}
	r.queue(func() {
		r.mu.Lock()
		cp, ok := r.started[key]
		delete(r.started, key)
		r.mu.Unlock()
		if !ok {
			return
		}
		snap, err := r.snaps.Snapshot(context.Background(), fmt.Sprintf("after turn %d", seq))
		if err != nil {
			return
		}
		cp.After = snap.ID
		_ = r.st.PutCheckpoint(key.session, cp)
	})
}

// Wait waits until every snapshot queued so far is taken and stored.
func (r *Recorder) Wait() { r.jobs.Wait() }

func skippedPaths(s []checkpoint.Skipped) []string {
	out := make([]string, len(s))
	for i, sk := range s {
		out[i] = sk.Path
	}
	return out
}

// Mode says what a rewind takes back.
type Mode int

const (
	// Both restores the files and drops the later conversation.
	Both Mode = iota
	// CodeOnly restores the files and keeps the conversation.
	CodeOnly
	// ConversationOnly drops the later conversation and leaves the files.
	ConversationOnly
)

// String names the mode as the CLI flags and the screen do.
func (m Mode) String() string {
	switch m {
	case CodeOnly:
		return "code only"
	case ConversationOnly:
		return "conversation only"
	}
	return "code and conversation"
}

// Turn is one prompt of the session a rewind can go back to.
type Turn struct {
	// N counts the session's turns that are not rewound, from 1.
	N int
	// Seq is the prompt's message.
	Seq    uint64
	Time   time.Time
	Prompt string
	// Checkpoint is the snapshot pair of the turn; nil when the files
	// were not recorded (checkpoints off, or the turn changed nothing
	// before it ended).
	Checkpoint *session.Checkpoint
}

// Rewinder rewinds one session.
type Rewinder struct {
	snaps   Snapshots // nil when the files are not recorded
	st      Sessions
	session string
	// wait, when set, waits for snapshots still being taken.
	wait func()
	// memo, when set, remembers a code-only rewind (which the session
	// store does not record) so /redo can take it back.
	memo *Memo
}

// Memo remembers the last code-only rewind of a process, for Redo; share
// one between the rewinders a screen makes. Its zero value is ready.
type Memo struct {
	mu      sync.Mutex
	session string
	before  string // the files just before the rewind
	target  string // the snapshot the rewind restored
}

// WithMemo makes the rewinder remember code-only rewinds in m.
func (rw *Rewinder) WithMemo(m *Memo) *Rewinder {
	rw.memo = m
	return rw
}

func (rw *Rewinder) remember(session, before, target string) {
	if rw.memo == nil {
		return
	}
	rw.memo.mu.Lock()
	rw.memo.session, rw.memo.before, rw.memo.target = session, before, target
	rw.memo.mu.Unlock()
}

// takeMemo returns the remembered code-only rewind of this session, if
// it is the last rewind, and forgets it.
func (rw *Rewinder) takeMemo() (before, target string, ok bool) {
	if rw.memo == nil {
		return "", "", false
	}
	rw.memo.mu.Lock()
	defer rw.memo.mu.Unlock()
	if rw.memo.session != rw.session || rw.memo.before == "" {
		return "", "", false
	}
	before, target = rw.memo.before, rw.memo.target
	rw.memo.session, rw.memo.before, rw.memo.target = "", "", ""
	return before, target, true
}

// New returns a rewinder for the session. snaps may be nil: then only the
// conversation can be rewound. wait (may be nil) is called before a
// rewind looks at the snapshots, so one still being taken is included.
func New(snaps Snapshots, st Sessions, sessionID string, wait func()) *Rewinder {
	return &Rewinder{snaps: snaps, st: st, session: sessionID, wait: wait}
}

// Turns lists the prompts a rewind can go back to, oldest first.
func (rw *Rewinder) Turns() ([]Turn, error) {
	msgs, err := rw.st.Messages(rw.session, 0)
	if err != nil {
		return nil, err
	}
	cps, err := rw.st.Checkpoints(rw.session)
	if err != nil {
		return nil, err
	}
	bySeq := map[uint64]session.Checkpoint{}
	for _, c := range cps {
		bySeq[c.Seq] = c
	}
	var out []Turn
	for _, m := range msgs {
		if m.Role != chat.RoleUser || m.Rewound || (m.Kind != "" && m.Kind != "task") {
			continue
		}
		t := Turn{N: len(out) + 1, Seq: m.Seq, Time: m.Time, Prompt: m.Content}
		if c, ok := bySeq[m.Seq]; ok {
			t.Checkpoint = &c
		}
		out = append(out, t)
	}
	return out, nil
}

// ChangedSince counts, for each turn with a checkpoint, the files that
// differ between the start of the turn and the end of the session's last
// turn (by prompt); a turn whose count cannot be told is left out.
func (rw *Rewinder) ChangedSince(ctx context.Context, turns []Turn) map[uint64]int {
	out := map[uint64]int{}
	if rw.snaps == nil {
		return out
	}
	latest := ""
	for _, t := range turns {
		if c := t.Checkpoint; c != nil {
			latest = c.Before
			if c.After != "" {
				latest = c.After
			}
		}
	}
	for _, t := range turns {
		if t.Checkpoint == nil || latest == "" {
			continue
		}
		if changes, err := rw.snaps.Changes(ctx, t.Checkpoint.Before, latest); err == nil {
			out[t.Seq] = len(changes)
		}
	}
	return out
}

// Blob returns a recorded file's content (at most limit bytes, and
// whether it was cut), for showing what a rewind changes.
func (rw *Rewinder) Blob(hash string, limit int64) ([]byte, bool, error) {
	if rw.snaps == nil {
		return nil, false, ErrNoCheckpoint
	}
	return rw.snaps.Blob(hash, limit)
}

// Plan is what a rewind will do, to show before it is done.
type Plan struct {
	Turn Turn
	Mode Mode
	// Changes are the files the rewind changes, from how they are now to
	// how they were when the turn started.
	Changes []checkpoint.Change
	// Outside are those of Changes that were changed outside pincer
	// (between turns, or since the last) and would be overwritten.
	Outside []string
	// Kept are files the rewind leaves alone (too large to record, say).
	Kept []string
	// Dropped counts the messages the model will no longer be sent.
	Dropped int
	// Now is the snapshot of the files taken for this plan.
	Now string
}

// ErrNoCheckpoint is a code rewind to a turn whose files were not recorded.
var ErrNoCheckpoint = errors.New("the files were not recorded before that turn, so only the conversation can be rewound to it (checkpoints may be off, or the turn changed nothing)")

// Plan works out what rewinding to the turn with prompt seq would do,
// without changing anything.
func (rw *Rewinder) Plan(ctx context.Context, seq uint64, mode Mode) (Plan, error) {
	turns, err := rw.Turns()
	if err != nil {
		return Plan{}, err
	}
	i := slices.IndexFunc(turns, func(t Turn) bool { return t.Seq == seq })
	if i < 0 {
		return Plan{}, fmt.Errorf("message %d does not start a turn that can be rewound; `pincer sessions checkpoints` lists them", seq)
	}
	p := Plan{Turn: turns[i], Mode: mode}
	if mode != CodeOnly {
		msgs, err := rw.st.Messages(rw.session, seq-1)
		if err != nil {
			return Plan{}, err
		}
		for _, m := range msgs {
			if !m.Rewound {
				p.Dropped++
			}
		}
	}
	if mode == ConversationOnly {
		return p, nil
	}
	if rw.snaps == nil || p.Turn.Checkpoint == nil {
		return Plan{}, ErrNoCheckpoint
	}
	if rw.wait != nil {
		rw.wait()
	}
	now, err := rw.snaps.Snapshot(ctx, "before a rewind")
	if err != nil {
		return Plan{}, err
	}
	dry, err := rw.snaps.Restore(ctx, p.Turn.Checkpoint.Before, checkpoint.RestoreOptions{DryRun: true, Force: true})
	if err != nil {
		return Plan{}, err
	}
	p.Changes, p.Kept, p.Now = dry.Changes, dry.Kept, now.ID
	outside, err := rw.outside(ctx, seq, p.Now)
	if err != nil {
		return Plan{}, err
	}
	for _, c := range p.Changes {
		if outside[c.Path] {
			p.Outside = append(p.Outside, c.Path)
		}
	}
	return p, nil
}

// outside lists the files changed outside pincer since the turn seq
// started: between the end of each turn from it on and the start of the
// next, and since the end of the last one (now is a snapshot of now).
func (rw *Rewinder) outside(ctx context.Context, seq uint64, now string) (map[string]bool, error) {
	cps, err := rw.st.Checkpoints(rw.session)
	if err != nil {
		return nil, err
	}
	cps = slices.DeleteFunc(cps, func(c session.Checkpoint) bool { return c.Seq < seq })
	out := map[string]bool{}
	for i, c := range cps {
		if c.After == "" {
			continue
		}
		next := now
		if i+1 < len(cps) {
			next = cps[i+1].Before
		}
		changes, err := rw.snaps.Changes(ctx, c.After, next)
		if err != nil {
			return nil, err
		}
		for _, ch := range changes {
			out[ch.Path] = true
		}
	}
	return out, nil
}

// OutsideError refuses a rewind that would overwrite files changed
// outside pincer, until the person agrees.
type OutsideError struct{ Paths []string }

func (e *OutsideError) Error() string {
	names := e.Paths
	more := ""
	if len(names) > 3 {
		names, more = names[:3], fmt.Sprintf(" and %d more", len(e.Paths)-3)
	}
	return fmt.Sprintf("the rewind would overwrite %s%s, changed outside pincer since that turn; confirm to overwrite them (--force on the command line)", strings.Join(names, ", "), more)
}

// Outcome is what a rewind did.
type Outcome struct {
	Plan
	// Prompt is the rewound prompt, to put back in the input box.
	Prompt string
	// Restored is what the files were restored from and to (zero for a
	// conversation-only rewind).
	Restored checkpoint.RestoreResult
}

// Apply rewinds to the turn with prompt seq. Files changed outside pincer
// are overwritten only when they are all in confirmed (the Outside list
// the person saw and agreed to), or with force.
func (rw *Rewinder) Apply(ctx context.Context, seq uint64, mode Mode, confirmed []string, force bool) (Outcome, error) {
	p, err := rw.Plan(ctx, seq, mode)
	if err != nil {
		return Outcome{}, err
	}
	if !force {
		var unconfirmed []string
		for _, o := range p.Outside {
			if !slices.Contains(confirmed, o) {
				unconfirmed = append(unconfirmed, o)
			}
		}
		if len(unconfirmed) > 0 {
			return Outcome{Plan: p}, &OutsideError{Paths: unconfirmed}
		}
	}
	out := Outcome{Plan: p, Prompt: p.Turn.Prompt}
	if mode != ConversationOnly {
		out.Restored, err = rw.snaps.Restore(ctx, p.Turn.Checkpoint.Before, checkpoint.RestoreOptions{Force: true})
		if err != nil {
			return out, fmt.Errorf("restore the files: %w", err)
		}
	}
	// Only a code-only rewind is remembered here; any other is the last
	// rewind in the store, which Redo then takes back.
	rw.remember(rw.session, "", "")
	if mode == CodeOnly {
		rw.remember(rw.session, out.Restored.Before.ID, p.Turn.Checkpoint.Before)
	}
	if mode != CodeOnly {
		r := session.Rewind{From: seq}
		if mode == Both {
			r.Code = out.Restored.Before.ID
		}
		if _, err := rw.st.Rewind(rw.session, r); err != nil {
			if mode == Both {
				return out, fmt.Errorf("the files were restored, but the conversation could not be rewound: %w", err)
			}
			return out, err
		}
	}
	return out, nil
}

// restoreIfUnchanged restores snapshot to when the files are still as a
// rewind left them (snapshot at), else refuses with ErrFilesChanged.
func (rw *Rewinder) restoreIfUnchanged(ctx context.Context, at, to string) error {
	if rw.wait != nil {
		rw.wait()
	}
	dry, err := rw.snaps.Restore(ctx, at, checkpoint.RestoreOptions{DryRun: true, Force: true})
	if err != nil {
		return err
	}
	if len(dry.Changes) > 0 {
		return ErrFilesChanged
	}
	if _, err := rw.snaps.Restore(ctx, to, checkpoint.RestoreOptions{Force: true}); err != nil {
		return fmt.Errorf("restore the files: %w", err)
	}
	return nil
}

// ErrFilesChanged refuses a redo after the files changed since the rewind.
var ErrFilesChanged = errors.New("files changed since the rewind, so it cannot be redone without losing those changes")

// Redo undoes the session's last rewind: the conversation comes back and,
// when the rewind restored files, so do the files as they were before it —
// only while nothing has changed since.
func (rw *Rewinder) Redo(ctx context.Context) (session.Rewind, error) {
	if before, target, ok := rw.takeMemo(); ok && before != "" {
		// The last rewind was of the files only.
		if err := rw.restoreIfUnchanged(ctx, target, before); err != nil {
			rw.remember(rw.session, before, target)
			return session.Rewind{}, err
		}
		return session.Rewind{Code: before}, nil
	}
	rewinds, err := rw.st.Rewinds(rw.session)
	if err != nil {
		return session.Rewind{}, err
	}
	if len(rewinds) == 0 {
		return session.Rewind{}, session.ErrNothingToRedo
	}
	last := rewinds[len(rewinds)-1]
	later, err := rw.st.Messages(rw.session, last.Through)
	if err != nil {
		return session.Rewind{}, err
	}
	if len(later) > 0 {
		return session.Rewind{}, session.ErrRedoStale
	}
	if last.Code != "" {
		if rw.snaps == nil {
			return session.Rewind{}, ErrNoCheckpoint
		}
		cps, err := rw.st.Checkpoints(rw.session)
		if err != nil {
			return session.Rewind{}, err
		}
		i := slices.IndexFunc(cps, func(c session.Checkpoint) bool { return c.Seq == last.From })
		if i < 0 {
			return session.Rewind{}, ErrNoCheckpoint
		}
		if err := rw.restoreIfUnchanged(ctx, cps[i].Before, last.Code); err != nil {
			return session.Rewind{}, err
		}
	}
	return rw.st.Redo(rw.session)
}

// Wrote records that pincer itself wrote the files at paths (slash
// separated, relative to the project) between turns — /plan save,
// /export — so a later rewind names them as pincer's writes, as it does
// a tool's, not as changes made outside pincer. It moves the end of the
// session's last recorded turn to a snapshot taken now; when files other
// than paths changed since that turn ended, it records nothing, so those
// are still shown as changed outside pincer. Without snapshots, or before
// any recorded turn, it does nothing.
func (rw *Rewinder) Wrote(ctx context.Context, paths []string) error {
	if rw.snaps == nil || len(paths) == 0 {
		return nil
	}
	if rw.wait != nil {
		rw.wait()
	}
	cps, err := rw.st.Checkpoints(rw.session)
	if err != nil {
		return err
	}
	if len(cps) == 0 || cps[len(cps)-1].After == "" {
		return nil
	}
	last := cps[len(cps)-1]
	snap, err := rw.snaps.Snapshot(ctx, "after a write by pincer")
	if err != nil {
		return err
	}
	changes, err := rw.snaps.Changes(ctx, last.After, snap.ID)
	if err != nil {
		return err
	}
	for _, c := range changes {
		if !slices.Contains(paths, c.Path) {
			return nil
		}
	}
	last.After = snap.ID
	return rw.st.PutCheckpoint(rw.session, last)
}
