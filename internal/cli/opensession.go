package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"pincer/agent"
	"pincer/session"
)

// openStore opens the session store: PINCER_DATA_DIR / data_dir, else the
// platform's data directory. A wait for another pincer process is reported
// on standard error.
func (c *cli) openStore(p *project) (*session.Store, error) {
	return c.openStoreFor(p, false)
}

// openStoreFor is openStore; readOnly opens an existing store only for
// reading, for commands that list or show, so they work on a file they may
// not write.
func (c *cli) openStoreFor(p *project, readOnly bool) (*session.Store, error) {
	path := c.storePath(p)
	st, err := session.Open(path, session.Options{ReadOnly: readOnly, OnWait: func(msg string) {
		fmt.Fprintf(c.stderr, "pincer: %s\n", msg)
	}})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// storePath is the session store file openStore opens.
func (c *cli) storePath(p *project) string {
	if p != nil && p.cfg.DataDir != "" {
		return filepath.Join(p.cfg.DataDir, "pincer.db")
	}
	return session.DefaultPath(c.getenv)
}

// openedSession is the session a command works in, with its history.
type openedSession struct {
	sess    session.Session
	resumed bool
	history []agent.Message
	summary string
	through uint64
	// notes are what the person should know about the choice ("no earlier
	// session here"): printed by pincer run, shown on the first screen by
	// the full-screen program (where stderr is hidden until it quits).
	notes []string
}

// sessionChoice is which session a command that holds a conversation
// opens (the screen, pincer run): a flag group of its own (see flags.go).
type sessionChoice struct {
	name    string // --session: resume the session with this name, or start it
	latest  bool   // --continue: resume the most recent session of the directory
	private bool   // --private: never indexed, searched or recalled elsewhere
}

func (s *sessionChoice) register(f *pflag.FlagSet) {
	registerSessionName(f, &s.name)
	f.BoolVarP(&s.latest, "continue", "c", false, "resume the most recent session of this directory")
	f.BoolVar(&s.private, "private", false, "keep this session private: never indexed, searched or recalled in other sessions")
}

// registerSessionName adds --session alone, for a command that names a
// session without opening it (pincer tasks add).
func registerSessionName(f *pflag.FlagSet, name *string) {
	f.StringVarP(name, "session", "s", "", "resume the session with this name, or start it")
}

// chosen reports whether the flags name a session to open (--session or
// --continue), which a run must then be able to save to.
func (s sessionChoice) chosen() bool { return s.name != "" || s.latest }

// validate refuses a choice that chooses twice.
func (s sessionChoice) validate() error {
	if s.name != "" && s.latest {
		return usageError(errors.New("--session and --continue both choose a session; give one of them"))
	}
	return nil
}

// openSession resolves the choice: resume the named session (or create
// it), resume the latest session of the directory, or start a new one.
// The session's model is used unless modelGiven (--model was given).
func openSession(choice sessionChoice, modelGiven bool, st *session.Store, p *project) (*openedSession, error) {
	var sess session.Session
	var err error
	var notes []string
	resumed := false
	if err := choice.validate(); err != nil {
		return nil, err
	}
	switch {
	case choice.name != "":
		sess, err = st.Get(choice.name)
		switch {
		case err == nil:
			resumed = true
		case errors.Is(err, session.ErrNotFound):
			missing := err
			sess, err = st.Create(session.Session{Name: choice.name, Dir: p.root, Model: p.cfg.Model, Private: choice.private})
			switch {
			case errors.Is(err, session.ErrNameTaken): // another pincer created it meanwhile
				sess, err = st.Get(choice.name)
				resumed = err == nil
			case errors.Is(err, session.ErrInvalidName):
				// Perhaps a mistyped id: say that first.
				err = fmt.Errorf("%v, and it cannot name a new one: %w", missing, err)
			}
		}
		if errors.Is(err, session.ErrInvalidName) {
			return nil, usageError(err)
		}
	case choice.latest:
		sess, err = st.Latest(p.root)
		if errors.Is(err, session.ErrNotFound) {
			notes = append(notes, fmt.Sprintf("There is no earlier session in %s to continue; this is a new one.", p.root))
			sess, err = st.Create(session.Session{Dir: p.root, Model: p.cfg.Model, Private: choice.private})
		} else {
			resumed = err == nil
		}
	default:
		sess, err = st.Create(session.Session{Dir: p.root, Model: p.cfg.Model, Private: choice.private})
	}
	if err != nil {
		return nil, err
	}
	if choice.private && !sess.Private {
		if sess, err = st.SetPrivate(sess.ID, true); err != nil {
			return nil, err
		}
	}
	o := &openedSession{sess: sess, resumed: resumed, notes: notes}
	if !resumed {
		return o, nil
	}
	if sess.Dir != p.root {
		o.notes = append(o.notes, fmt.Sprintf("Session %s was started in %s; working in %s.", sess.Label(), sess.Dir, p.root))
	}
	switch {
	case modelGiven && sess.Model != p.cfg.Model:
		if err := st.SetModel(sess.ID, p.cfg.Model); err != nil {
			return nil, err
		}
	case sess.Model != "":
		p.cfg.Model = sess.Model
	}
	o.history, o.summary, o.through, err = agent.LoadSession(st, sess.ID)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// resumeHint is the command that resumes a session, spelled the way pincer
// was started.
func resumeHint(s session.Session) string {
	exe, _ := os.Executable()
	return invocation(exe) + " -s " + shellQuote(s.Label())
}

// invocation is how to start this pincer again: "go run ." for a binary
// that go run built in its temporary go-build directory (no pincer may be
// installed at all), else "pincer".
func invocation(exe string) string {
	for dir := filepath.Dir(exe); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if n, ok := strings.CutPrefix(filepath.Base(dir), "go-build"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return "go run ."
		}
	}
	return "pincer"
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == '/') {
			safe = false
		}
	}
	if safe {
		return s
	}
	out := "'"
	for _, r := range s {
		if r == '\'' {
			out += `'\''`
		} else {
			out += string(r)
		}
	}
	return out + "'"
}
