package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"pincer/agent/agenttest"
	"pincer/chat"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestOpenRefusesAStoreThatIsNotPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("permission bits and symbolic links are Unix matters")
	}
	tests := []struct {
		name string
		make func(t *testing.T, path string)
		want string // in the error: the fix
	}{
		{"world-writable", func(t *testing.T, path string) {
			filled(t, path)
			chmod(t, path, 0o666)
		}, "chmod 600 "},
		{"group-writable", func(t *testing.T, path string) {
			filled(t, path)
			chmod(t, path, 0o620)
		}, "chmod 600 "},
		{"symbolic link to a store", func(t *testing.T, path string) {
			real := filepath.Join(t.TempDir(), "real.db")
			filled(t, real)
			if err := os.Symlink(real, path); err != nil {
				t.Fatal(err)
			}
		}, "symbolic link"},
		{"dangling symbolic link", func(t *testing.T, path string) {
			if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere.db"), path); err != nil {
				t.Fatal(err)
			}
		}, "symbolic link"},
	}
	for _, tt := range tests {
		for _, readOnly := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), fileName)
				tt.make(t, path)
				before, _ := os.ReadFile(path)
				_, err := Open(path, Options{ReadOnly: readOnly})
				if !errors.Is(err, ErrNotPrivate) {
					t.Fatalf("Open(ReadOnly: %v) = %v, want ErrNotPrivate", readOnly, err)
				}
				if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error %q does not name the file and the fix (%q)", err, tt.want)
				}
				if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
					t.Error("the refused file was changed")
				}
				if tt.name == "dangling symbolic link" {
					if target, _ := os.Readlink(path); fileExists(target) {
						t.Errorf("Open created the link's target %s", target)
					}
				}
			})
		}
	}
}

func TestOpenIsPrivateWhateverTheUmask(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no umask")
	}
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "data", fileName)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "x", "/work")
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s has mode %o under umask 0, want %o", p, got, want)
		}
	}
}

func TestAStoreSwappedForALinkAfterOpenIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	path := filepath.Join(t.TempDir(), fileName)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "moved.db")
	if err := os.Rename(path, elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, path); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, elsewhere)
	if _, err := s.Create(Session{Dir: "/work"}); !errors.Is(err, ErrNotPrivate) {
		t.Fatalf("Create through a swapped-in link = %v, want ErrNotPrivate", err)
	}
	if !bytes.Equal(before, readFile(t, elsewhere)) {
		t.Error("the write went through the link")
	}
}

// damageRecord replaces the stored record of session id with raw.
func damageRecord(t *testing.T, path, id string, raw []byte) {
	t.Helper()
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketSessions)).Put([]byte(id), raw)
	})
}

func TestADamagedRecordHidesNothingElse(t *testing.T) {
	flipped := func(good []byte) []byte {
		b := bytes.Clone(good)
		b[0] ^= 0x01 // '{' becomes 'z'
		return b
	}
	tests := []struct {
		name   string
		damage func(good []byte) []byte
	}{
		{"a flipped bit breaks the JSON", flipped},
		{"a flipped bit changes the id", func(good []byte) []byte {
			return bytes.Replace(good, []byte(`"id":"0`), []byte(`"id":"1`), 1)
		}},
		{"garbage", func([]byte) []byte { return []byte{0xff, 0x00, 0x1b, '['} }},
		{"empty", func([]byte) []byte { return []byte{} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			keep := mustCreate(t, s, "keep", "/work")
			mustAppend(t, s, keep.ID, chat.Message{Role: chat.RoleUser, Content: "hello"})
			bad := mustCreate(t, s, "broken", "/work")
			mustAppend(t, s, bad.ID, chat.Message{Role: chat.RoleUser, Content: "bye"})
			other := mustCreate(t, s, "", "/elsewhere")

			var good []byte
			rawView(t, s.Path(), func(tx *bolt.Tx) error {
				good = bytes.Clone(tx.Bucket([]byte(bucketSessions)).Get([]byte(bad.ID)))
				return nil
			})
			damageRecord(t, s.Path(), bad.ID, tt.damage(good))

			list, unreadable, err := s.ListAll()
			if err != nil {
				t.Fatalf("ListAll: %v", err)
			}
			if len(list) != 2 || len(unreadable) != 1 || unreadable[0].ID != bad.ID {
				t.Fatalf("ListAll = %d sessions, unreadable %v; want the 2 others and %s", len(list), unreadable, bad.ID)
			}
			msg := unreadable[0].Err.Error()
			if !errors.Is(unreadable[0].Err, ErrDamagedRecord) || !strings.Contains(msg, bad.ID) || !strings.Contains(msg, "pincer sessions rm "+bad.ID) {
				t.Errorf("unreadable error %q does not name the session and the fix", msg)
			}
			if plain, err := s.List(); err != nil || len(plain) != 2 {
				t.Errorf("List = %d sessions, %v", len(plain), err)
			}
			// Continuing in the directory picks the readable session.
			if got, err := s.Latest("/work"); err != nil || got.ID != keep.ID {
				t.Errorf("Latest = %s, %v; want %s", got.ID, err, keep.ID)
			}
			if _, err := s.Get(bad.ID); !errors.Is(err, ErrDamagedRecord) {
				t.Errorf("Get of the damaged session = %v, want ErrDamagedRecord", err)
			}
			// The fix the error gives works, by id or by prefix, and frees the name.
			if err := s.Delete(bad.ID[:10]); err != nil {
				t.Fatalf("Delete of the damaged session: %v", err)
			}
			list, unreadable, err = s.ListAll()
			if err != nil || len(list) != 2 || len(unreadable) != 0 {
				t.Fatalf("after Delete: %d sessions, unreadable %v, %v", len(list), unreadable, err)
			}
			if _, err := s.Create(Session{Name: "broken", Dir: "/work"}); err != nil {
				t.Errorf("the damaged session's name is still taken: %v", err)
			}
			if msgs, err := s.Messages(other.ID, 0); err != nil || len(msgs) != 0 {
				t.Errorf("Messages of another session = %v, %v", msgs, err)
			}
		})
	}
}

func TestAReadOnlyStoreCanBeRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess := mustCreate(t, s, "kept", "/work")
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleUser, Content: "hello"})
	chmod(t, path, 0o444)
	before := readFile(t, path)
	stat := func() time.Time {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info.ModTime()
	}
	mtime := stat()

	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("Open read-only: %v", err)
	}
	list, err := ro.List()
	if err != nil || len(list) != 1 || list[0].Name != "kept" {
		t.Fatalf("List = %v, %v", list, err)
	}
	var out bytes.Buffer
	if err := ro.Export(&out, "kept", FormatMarkdown); err != nil || !strings.Contains(out.String(), "hello") {
		t.Fatalf("Export = %v; %q", err, out.String())
	}
	if _, err := ro.Create(Session{Dir: "/work"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Create on a read-only store = %v, want ErrReadOnly", err)
	}
	if !bytes.Equal(before, readFile(t, path)) || !stat().Equal(mtime) {
		t.Error("reading changed the file")
	}
}

// TestAStoreOnAReadOnlyMountCanBeRead is the case permission bits cannot
// show to root: the file system itself refuses writes.
func TestAStoreOnAReadOnlyMountCanBeRead(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux to mount a file system")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt).CombinedOutput(); err != nil {
		agenttest.Missing(t, fmt.Sprintf("cannot mount a tmpfs here: %v: %s", err, out))
	}
	defer exec.Command("umount", "-l", mnt).Run()
	path := filepath.Join(mnt, fileName)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "kept", "/work")
	if out, err := exec.Command("mount", "-o", "remount,ro", mnt).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v: %s", err, out)
	}
	if _, err := Open(path, Options{}); !errors.Is(err, ErrUnwritable) {
		t.Errorf("Open for writing on a read-only mount = %v, want ErrUnwritable", err)
	}
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("Open read-only on a read-only mount: %v", err)
	}
	if list, err := ro.List(); err != nil || len(list) != 1 {
		t.Fatalf("List = %v, %v", list, err)
	}
	if _, err := ro.Get("kept"); err != nil {
		t.Fatalf("Get: %v", err)
	}
}

func TestAFileFoundDamagedIsNeverWrittenAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	filled(t, path)
	s, err := Open(path, Options{LockWait: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil || len(list) == 0 {
		t.Fatalf("List = %v, %v", list, err)
	}
	damageMessagePages(t, path)
	before := readFile(t, path)

	// The first operation to meet the damage may be a read or a write; a
	// write transaction that panics inside bbolt must not hang the store.
	for i, sess := range list {
		var err error
		if i%2 == 0 {
			_, err = s.Append(sess.ID, chat.Message{Role: chat.RoleUser, Content: "more"})
		} else {
			_, err = s.Messages(sess.ID, 0)
		}
		if !errors.Is(err, ErrDamaged) {
			t.Errorf("operation %d on a damaged file = %v, want ErrDamaged", i, err)
		}
	}
	if _, err := s.Create(Session{Dir: "/work"}); !errors.Is(err, ErrDamaged) {
		t.Errorf("Create after damage was found = %v, want ErrDamaged", err)
	}
	if !bytes.Equal(before, readFile(t, path)) {
		t.Error("the file was written after it was found damaged")
	}
	// Reading what is still readable goes on, without waiting for a lock
	// the failed transaction held.
	if _, err := s.List(); err != nil {
		t.Errorf("List after the damage was found: %v", err)
	}
}

// damageMessagePages overwrites the pages that hold message text.
func damageMessagePages(t *testing.T, path string) {
	t.Helper()
	raw := readFile(t, path)
	page := os.Getpagesize()
	hit := 0
	for off := 2 * page; off+page <= int(usedBytes(t, path)); off += page {
		if bytes.Contains(raw[off:off+page], []byte("please look at the parser")) {
			copy(raw[off:off+page], randomBytes(page))
			hit++
		}
	}
	if hit == 0 {
		t.Fatal("found no message pages to damage")
	}
	writeFile(t, path, raw)
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// TestOpenRefusesAFreeListThatNamesAPageInUse: the one damage bbolt does
// not notice before it writes. Its next commit would put new pages over
// the named page; Open now refuses the file and leaves it as it is.
func TestOpenRefusesAFreeListThatNamesAPageInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	filled(t, path)
	raw := readFile(t, path)
	page := 0
	rawView(t, path, func(tx *bolt.Tx) error { page = tx.DB().Info().PageSize; return nil })
	meta, err := currentMeta(raw, page)
	if err != nil {
		t.Fatal(err)
	}
	fl := raw[meta.freelist*uint64(page):]
	count, start := uint64(endian.Uint16(fl[10:])), uint64(pageHeaderSize)
	if count == 0xFFFF {
		count, start = endian.Uint64(fl[pageHeaderSize:]), pageHeaderSize+8
	}
	if count == 0 {
		t.Fatal("the filled store has no free pages to damage")
	}
	endian.PutUint64(fl[start:], meta.root) // the root page, very much in use
	writeFile(t, path, raw)

	_, err = Open(path, Options{})
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "listed as free") {
		t.Fatalf("Open = %v, want ErrDamaged about a page in use listed as free", err)
	}
	if !bytes.Equal(raw, readFile(t, path)) {
		t.Error("Open changed the damaged file")
	}
	if ro, err := Open(path, Options{ReadOnly: true}); err != nil {
		t.Errorf("reading is still possible: Open read-only = %v", err)
	} else if _, err := ro.List(); err != nil {
		t.Errorf("List read-only = %v", err)
	}
}

func TestVerifyPagesNeverPanics(t *testing.T) {
	if testing.Short() {
		t.Skip("slow; go test without -short (or .ci/run) runs it")
	}
	path := filepath.Join(t.TempDir(), fileName)
	filled(t, path)
	raw := readFile(t, path)
	if err := verifyPages(raw, os.Getpagesize()); err != nil {
		t.Fatalf("a good file: %v", err)
	}
	for i := 0; i < 600; i++ {
		b := bytes.Clone(raw)
		at := (i * 7919) % len(b)
		b[at] ^= byte(1 << (i % 8))
		_ = verifyPages(b, os.Getpagesize()) // must return, not panic
		_ = verifyPages(b[:at], os.Getpagesize())
	}
}

func TestADamagedMessageHidesNothingElse(t *testing.T) {
	s := newTestStore(t)
	sess := mustCreate(t, s, "x", "/work")
	for _, c := range []string{"one", "two", "three"} {
		mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleUser, Content: c})
	}
	rawUpdate(t, s.Path(), func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketMessages)).Bucket([]byte(sess.ID))
		raw := bytes.Clone(b.Get(seqKey(2)))
		raw[0] ^= 0x01
		return b.Put(seqKey(2), raw)
	})
	msgs, err := s.Messages(sess.ID, 0)
	if err != nil || len(msgs) != 3 {
		t.Fatalf("Messages = %d, %v; want all three", len(msgs), err)
	}
	if msgs[0].Content != "one" || msgs[2].Content != "three" || msgs[1].Kind != chat.KindDamaged || msgs[1].Seq != 2 ||
		!strings.Contains(msgs[1].Content, "could not be read") {
		t.Errorf("messages = %+v", msgs)
	}
	var out bytes.Buffer
	if err := s.Export(&out, "x", FormatMarkdown); err != nil || !strings.Contains(out.String(), "three") {
		t.Errorf("Export = %v", err)
	}
}
