package cli

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"pincer/session"
)

// TestOpenSessionFollowsTheChoice: each way of choosing a session, from
// the flags alone, opens what it says; the two that choose at once are a
// usage error.
func TestOpenSessionFollowsTheChoice(t *testing.T) {
	for _, tc := range []struct {
		name       string
		choice     sessionChoice
		modelGiven bool
		resumed    bool
		wantName   string
		private    bool
		model      string // the model the project ends with
		note       string
		usage      bool
	}{
		{name: "new", choice: sessionChoice{}, model: "flag-model"},
		{name: "named, existing", choice: sessionChoice{name: "old"}, resumed: true, wantName: "old", model: "old-model"},
		{name: "named, existing, --model wins", choice: sessionChoice{name: "old"}, modelGiven: true, resumed: true, wantName: "old", model: "flag-model"},
		{name: "named, new", choice: sessionChoice{name: "fresh"}, wantName: "fresh", model: "flag-model"},
		{name: "latest", choice: sessionChoice{latest: true}, resumed: true, wantName: "old", model: "old-model"},
		{name: "private", choice: sessionChoice{name: "old", private: true}, resumed: true, wantName: "old", private: true, model: "old-model"},
		{name: "both", choice: sessionChoice{name: "old", latest: true}, usage: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			if _, err := st.Create(session.Session{Name: "old", Dir: root, Model: "old-model"}); err != nil {
				t.Fatal(err)
			}
			p := &project{root: root}
			p.cfg.Model = "flag-model"
			o, err := openSession(tc.choice, tc.modelGiven, st, p)
			if tc.usage {
				var ee *exitError
				if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "give one of them") {
					t.Fatalf("error %v, want a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.resumed != tc.resumed || o.sess.Name != tc.wantName || o.sess.Private != tc.private || p.cfg.Model != tc.model {
				t.Errorf("opened %q resumed=%v private=%v model %q; want %q resumed=%v private=%v model %q",
					o.sess.Name, o.resumed, o.sess.Private, p.cfg.Model, tc.wantName, tc.resumed, tc.private, tc.model)
			}
		})
	}
}
