package sessions

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/e2e/e2etest"
	"runtime"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pincer/agent/agenttest"
)

// TestSessionsListsAroundADamagedRecord damages one session's record on
// disk: `pincer sessions` still lists the others and names the damaged one
// with the command that removes it, which works.
func TestSessionsListsAroundADamagedRecord(t *testing.T) {
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("answer", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	for _, name := range []string{"alpha", "beta"} {
		if r := s.Run("", "run", "-s", name, "prompt of "+name); r.Code != 0 {
			t.Fatal(r.Stderr)
		}
	}
	dbPath := filepath.Join(s.Home, "data", "pincer.db")
	db, err := bolt.Open(dbPath, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	var victim string
	err = db.Update(func(tx *bolt.Tx) error {
		victim = string(tx.Bucket([]byte("names")).Get([]byte("beta")))
		b := tx.Bucket([]byte("sessions"))
		raw := append([]byte(nil), b.Get([]byte(victim))...)
		raw[0] ^= 0x01 // one flipped bit
		return b.Put([]byte(victim), raw)
	})
	db.Close()
	if err != nil || victim == "" {
		t.Fatalf("damage the record: %v", err)
	}

	r := s.Run("", "sessions")
	if r.Code != 0 || !strings.Contains(r.Stdout, "alpha") {
		t.Fatalf("sessions with one damaged record: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, victim) || !strings.Contains(r.Stderr, "pincer sessions rm "+victim) {
		t.Errorf("stderr %q does not name the damaged session %s and the fix", r.Stderr, victim)
	}
	if r := s.Run("", "run", "-c", "go on"); r.Code != 0 {
		t.Errorf("run -c beside a damaged record: exit %d, %s", r.Code, r.Stderr)
	}
	if r := s.Run("", "sessions", "rm", victim, "--yes"); r.Code != 0 {
		t.Fatalf("rm of the damaged session: exit %d, %s", r.Code, r.Stderr)
	}
	if r := s.Run("", "sessions"); r.Code != 0 || r.Stderr != "" {
		t.Errorf("after rm: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// TestSessionsReadAReadOnlyStore lists and shows sessions from a store on a
// file system mounted read-only, where nothing can be written.
func TestSessionsReadAReadOnlyStore(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux to mount a file system")
	}
	srv := agenttest.New()
	defer srv.Close()
	srv.SetFallback(agenttest.Text("the answer", 5))
	s := e2etest.NewSandbox(t, srv.BaseURL())
	data := filepath.Join(s.Home, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", data).CombinedOutput(); err != nil {
		agenttest.Missing(t, fmt.Sprintf("cannot mount a tmpfs here: %v: %s", err, out))
	}
	defer exec.Command("umount", "-l", data).Run()
	if r := s.Run("", "run", "-s", "kept", "remember this"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", data).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v: %s", err, out)
	}
	if r := s.Run("", "sessions"); r.Code != 0 || !strings.Contains(r.Stdout, "kept") {
		t.Errorf("sessions on a read-only store: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "sessions", "show", "kept"); r.Code != 0 || !strings.Contains(r.Stdout, "the answer") {
		t.Errorf("sessions show on a read-only store: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := s.Run("", "sessions", "export", "kept", "--format", "json"); r.Code != 0 || !strings.Contains(r.Stdout, "remember this") {
		t.Errorf("sessions export on a read-only store: exit %d, stderr %q", r.Code, r.Stderr)
	}
	if r := s.Run("", "sessions", "rename", "kept", "other"); r.Code == 0 || !strings.Contains(r.Stderr, "pincer.db") {
		t.Errorf("rename on a read-only store: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// TestASessionWithADamagedMessageGoesOn: one unreadable message record
// does not stop showing or continuing the session; it is left out of
// what the model is sent, and pincer says so.
func TestASessionWithADamagedMessageGoesOn(t *testing.T) {
	srv := strictServer(t)
	s := e2etest.NewSandbox(t, srv.BaseURL())
	for _, p := range []string{"first prompt", "second prompt"} {
		if r := s.Run("", "run", "-s", "dm", p); r.Code != 0 {
			t.Fatal(r.Stderr)
		}
	}
	db, err := bolt.Open(filepath.Join(s.Home, "data", "pincer.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		id := tx.Bucket([]byte("names")).Get([]byte("dm"))
		b := tx.Bucket([]byte("messages")).Bucket(id)
		k, v := b.Cursor().First()
		raw := append([]byte(nil), v...)
		raw[0] ^= 0x01
		return b.Put(append([]byte(nil), k...), raw)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Run("", "sessions", "show", "dm"); r.Code != 0 || !strings.Contains(r.Stdout, "second prompt") || !strings.Contains(r.Stdout, "could not be read") {
		t.Errorf("show: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	r := s.Run("", "run", "-s", "dm", "third prompt")
	if r.Code != 0 || !strings.Contains(r.Stderr, "could not be read") {
		t.Errorf("run: exit %d, stderr %q", r.Code, r.Stderr)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if strings.Contains(string(last.Raw), "could not be read") || strings.Contains(string(last.Raw), "first prompt") {
		t.Errorf("the damaged message's stand-in was sent: %s", last.Raw)
	}
}
