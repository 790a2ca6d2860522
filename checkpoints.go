package main

import (
	"fmt"
	"path/filepath"
	"time"

	"pincer/checkpoint"
	"pincer/rewind"
	"pincer/session"
	"pincer/ui/safetext"
)

// checkpointStore opens the snapshot store of the project at root (under
// the data directory, never in the project), or returns nil when
// checkpoints are off.
func (c *cli) checkpointStore(p *project, root string) (*checkpoint.Store, error) {
	if !p.cfg.Checkpoints {
		return nil, nil
	}
	dir := filepath.Join(c.dataDir(p), "checkpoints", checkpoint.Key(root))
	snaps, err := checkpoint.Open(dir, root, checkpoint.Options{MaxFileSize: int64(p.cfg.CheckpointMaxFileMB) << 20})
	if err != nil {
		return nil, fmt.Errorf("open the checkpoints of %s: %w", root, err)
	}
	return snaps, nil
}

// backgroundDelay is how long work that can wait (the first snapshot,
// pruning, starting the sandbox's helper) waits after start-up, so the
// first frame does not share the CPU with it.
const backgroundDelay = 500 * time.Millisecond

// turnCheckpoints is what a front end needs to record and rewind turns:
// the recorder the agent calls around each turn, and rewinders for the
// sessions. It is the zero value when checkpoints are off or cannot be
// kept; the conversation can still be rewound then.
type turnCheckpoints struct {
	snaps    *checkpoint.Store
	recorder *rewind.Recorder
	// memo remembers a code-only rewind, so /redo can take it back.
	memo *rewind.Memo
}

// startCheckpoints opens the project's snapshots for a session store and
// starts, in the background, a first snapshot (so the first turn's is
// quick) and the pruning of old ones. A store that cannot be opened is a
// warning: pincer works on, without checkpoints.
func (c *cli) startCheckpoints(p *project, st *session.Store, current func() string) turnCheckpoints {
	snaps, err := c.checkpointStore(p, p.root)
	if err != nil {
		fmt.Fprintf(c.stderr, "pincer: warning: turns will not be recorded for /rewind: %s\n", safetext.LineOf(err.Error()))
		return turnCheckpoints{}
	}
	if snaps == nil {
		return turnCheckpoints{}
	}
	tc := turnCheckpoints{snaps: snaps, recorder: rewind.NewRecorder(snaps, st, current), memo: &rewind.Memo{}}
	maxAge, keep := p.cfg.CheckpointMaxAge.Std(), p.cfg.CheckpointKeep
	// After the first frame: the first snapshot of a big project takes
	// the CPU for a while, and the screen comes first.
	time.AfterFunc(backgroundDelay, func() {
		tc.recorder.Warm()
		// The session in use keeps every snapshot it refers to; the
		// others go by age and count.
		if ids, err := st.CheckpointIDs(current()); err == nil {
			_, _ = snaps.Prune(ids, maxAge, keep)
		}
	})
	return tc
}

// rewinder returns the rewinder of a session (conversation only without
// snapshots).
func (tc turnCheckpoints) rewinder(st *session.Store, id string) *rewind.Rewinder {
	if tc.snaps == nil {
		return rewind.New(nil, st, id, nil)
	}
	return rewind.New(tc.snaps, st, id, tc.recorder.Wait).WithMemo(tc.memo)
}

// wait waits for the snapshots still being taken (before the process ends).
func (tc turnCheckpoints) wait() {
	if tc.recorder != nil {
		tc.recorder.Wait()
	}
}
