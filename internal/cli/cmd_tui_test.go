package cli

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"pincer/session"
)

// failingStore answers Get and Delete as told.
type failingStore struct {
	sess      session.Session
	getErr    error
	deleteErr error
	deleted   []string
}

func (f *failingStore) Get(string) (session.Session, error) { return f.sess, f.getErr }
func (f *failingStore) Delete(ref string) error {
	f.deleted = append(f.deleted, ref)
	return f.deleteErr
}

func TestSayHowToResumeReportsStoreErrors(t *testing.T) {
	spoken := session.Session{ID: "01JX3Q8K2M4N5P6Q7R8S9T0V1W", Name: "work", MessageCount: 2}
	empty := session.Session{ID: "01JX3Q8K2M4N5P6Q7R8S9T0V1X"}
	cases := []struct {
		name       string
		store      *failingStore
		wantOut    string
		wantErr    string
		wantDelete bool
	}{
		{"a session with messages", &failingStore{sess: spoken}, " -s work", "", false},
		{"an empty session is removed", &failingStore{sess: empty}, "", "", true},
		{"Get fails", &failingStore{getErr: errors.New("disk on fire")}, "", "could not read the session", false},
		{"Delete fails", &failingStore{sess: empty, deleteErr: errors.New("read-only")}, "", "could not remove the empty session", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			c := &cli{stdout: &out, stderr: &errb}
			c.sayHowToResume(tc.store, "id")
			if tc.wantOut != "" && !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("stdout %q, want %q", out.String(), tc.wantOut)
			}
			if tc.wantErr == "" && errb.Len() > 0 || tc.wantErr != "" && !strings.Contains(errb.String(), tc.wantErr) {
				t.Errorf("stderr %q, want %q", errb.String(), tc.wantErr)
			}
			if got := len(tc.store.deleted) > 0; got != tc.wantDelete {
				t.Errorf("deleted = %v, want %v", got, tc.wantDelete)
			}
		})
	}
}

// TestScreenStreams: the screen starts on a terminal; text piped in, which
// the screen would never read, and no terminal at all are refused with
// the way on (pincer run), exit 2.
func TestScreenStreams(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		mode       os.FileMode
		size       int64
		inTerminal bool
		ttyOpens   bool
		want       string // "" for no error
	}{
		{"a terminal", os.ModeDevice | os.ModeCharDevice, 0, true, true, ""},
		{"a pipe", os.ModeNamedPipe, 0, false, true, "text piped into pincer would be lost"},
		{"a file with text", 0, 12, false, true, "text piped into pincer would be lost"},
		{"/dev/null with a terminal to open", os.ModeDevice | os.ModeCharDevice, 0, false, true, ""},
		{"an empty file with a terminal to open", 0, 0, false, true, ""},
		{"no terminal at all", os.ModeDevice | os.ModeCharDevice, 0, false, false, "needs a terminal and none is attached"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := screenStreamsError(tc.mode, tc.size, tc.inTerminal, func() bool { return tc.ttyOpens })
			if tc.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "pincer run") || exitCodeOf(err) != 2 {
				t.Errorf("error %v (exit %d), want one saying %q and the way on, exit 2", err, exitCodeOf(err), tc.want)
			}
		})
	}
}
