package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"pincer/agent"
	"pincer/checkpoint"
	"pincer/rewind"
	"pincer/session"
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
	// note says why turns are not recorded, for the front end to show;
	// "" when they are (or checkpoints are off by choice).
	note string
}

// startCheckpoints opens the project's snapshots for a session store and
// starts, in the background, a first snapshot (so the first turn's is
// quick) and the pruning of old ones. A store that cannot be opened, or a
// directory whose files are not recorded (home, /), gives a note to show:
// pincer works on, without checkpoints.
//
// background is false for a headless run: it records its one turn at
// once and ends, so a first snapshot and pruning would only race its end.
func (c *cli) startCheckpoints(p *project, st *session.Store, current func() string, background bool) turnCheckpoints {
	if why := unrecordable(p.root, agent.HomeDir()); why != "" && p.cfg.Checkpoints {
		return turnCheckpoints{note: "Turns are not recorded for /rewind here (" + why + "); run pincer in a project directory to be able to undo what a turn changes."}
	}
	snaps, err := c.checkpointStore(p, p.root)
	if err != nil {
		return turnCheckpoints{note: "Turns are not recorded for /rewind: " + err.Error()}
	}
	if snaps == nil {
		return turnCheckpoints{}
	}
	rec := rewind.NewRecorder(snaps, st, current)
	if !background {
		return turnCheckpoints{snaps: snaps, recorder: rec, memo: &rewind.Memo{}}
	}
	maxAge, keep := p.cfg.CheckpointMaxAge.Std(), p.cfg.CheckpointKeep
	// After the first frame: the first snapshot of a big project takes
	// the CPU for a while, and the screen comes first.
	time.AfterFunc(backgroundDelay, func() {
		rec.Warm()
		// The session in use keeps every snapshot it refers to; the
		// others go by age and count.
		if ids, err := st.CheckpointIDs(current()); err == nil {
			_, _ = snaps.Prune(ids, maxAge, keep)
		}
	})
	return turnCheckpoints{snaps: snaps, recorder: rec, memo: &rewind.Memo{}}
}

// unrecordable says why the files under root are not recorded for
// rewinds: the home directory or the file system's root would copy every
// file there (keys and all) into pincer's data directory. "" when they
// are recorded.
func unrecordable(root, home string) string {
	clean := filepath.Clean(root)
	switch {
	case clean == filepath.Dir(clean):
		return "it is the root of the file system"
	case home != "" && clean == filepath.Clean(home):
		return "it is your home directory"
	}
	return ""
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

// withNote appends note, when there is one, and more to notices.
func withNote(notices []string, note string, more ...string) []string {
	if note != "" {
		notices = append(notices, note)
	}
	return append(notices, more...)
}
