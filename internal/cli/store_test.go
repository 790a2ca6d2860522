package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	s := newSandbox(t, srv.BaseURL())
	for _, name := range []string{"alpha", "beta"} {
		if r := s.run("", "run", "-s", name, "prompt of "+name); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	dbPath := filepath.Join(s.home, "data", "pincer.db")
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

	r := s.run("", "sessions")
	if r.code != 0 || !strings.Contains(r.stdout, "alpha") {
		t.Fatalf("sessions with one damaged record: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, victim) || !strings.Contains(r.stderr, "pincer sessions rm "+victim) {
		t.Errorf("stderr %q does not name the damaged session %s and the fix", r.stderr, victim)
	}
	if r := s.run("", "run", "-c", "go on"); r.code != 0 {
		t.Errorf("run -c beside a damaged record: exit %d, %s", r.code, r.stderr)
	}
	if r := s.run("", "sessions", "rm", victim, "--yes"); r.code != 0 {
		t.Fatalf("rm of the damaged session: exit %d, %s", r.code, r.stderr)
	}
	if r := s.run("", "sessions"); r.code != 0 || r.stderr != "" {
		t.Errorf("after rm: exit %d, stderr %q", r.code, r.stderr)
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
	s := newSandbox(t, srv.BaseURL())
	data := filepath.Join(s.home, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", data).CombinedOutput(); err != nil {
		agenttest.Missing(t, fmt.Sprintf("cannot mount a tmpfs here: %v: %s", err, out))
	}
	defer exec.Command("umount", "-l", data).Run()
	if r := s.run("", "run", "-s", "kept", "remember this"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", data).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v: %s", err, out)
	}
	if r := s.run("", "sessions"); r.code != 0 || !strings.Contains(r.stdout, "kept") {
		t.Errorf("sessions on a read-only store: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := s.run("", "sessions", "show", "kept"); r.code != 0 || !strings.Contains(r.stdout, "the answer") {
		t.Errorf("sessions show on a read-only store: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := s.run("", "sessions", "export", "kept", "--format", "json"); r.code != 0 || !strings.Contains(r.stdout, "remember this") {
		t.Errorf("sessions export on a read-only store: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := s.run("", "sessions", "rename", "kept", "other"); r.code == 0 || !strings.Contains(r.stderr, "pincer.db") {
		t.Errorf("rename on a read-only store: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestASessionWithADamagedMessageGoesOn: one unreadable message record
// does not stop showing or continuing the session; it is left out of
// what the model is sent, and pincer says so.
func TestASessionWithADamagedMessageGoesOn(t *testing.T) {
	srv := strictServer(t)
	s := newSandbox(t, srv.BaseURL())
	for _, p := range []string{"first prompt", "second prompt"} {
		if r := s.run("", "run", "-s", "dm", p); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	db, err := bolt.Open(filepath.Join(s.home, "data", "pincer.db"), 0o600, nil)
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
	if r := s.run("", "sessions", "show", "dm"); r.code != 0 || !strings.Contains(r.stdout, "second prompt") || !strings.Contains(r.stdout, "could not be read") {
		t.Errorf("show: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r := s.run("", "run", "-s", "dm", "third prompt")
	if r.code != 0 || !strings.Contains(r.stderr, "could not be read") {
		t.Errorf("run: exit %d, stderr %q", r.code, r.stderr)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if strings.Contains(string(last.Raw), "could not be read") || strings.Contains(string(last.Raw), "first prompt") {
		t.Errorf("the damaged message's stand-in was sent: %s", last.Raw)
	}
}
