package session

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

func TestOpenCreatesPrivateDirectoryAndFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", fileName)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if s.Path() != path {
		t.Errorf("Path() = %q, want %q", s.Path(), path)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the store file was not created: %v", err)
	}
	if runtime.GOOS != "windows" {
		if got := info.Mode().Perm(); got != 0o600 {
			t.Errorf("file mode = %o, want 600", got)
		}
		dirInfo, err := os.Stat(filepath.Dir(path))
		if err != nil {
			t.Fatal(err)
		}
		if got := dirInfo.Mode().Perm(); got != 0o700 {
			t.Errorf("directory mode = %o, want 700", got)
		}
	}
	if got := schemaOf(t, path); got != uint64(len(migrations)) {
		t.Errorf("schema version = %d, want %d", got, len(migrations))
	}
}

func TestPersistsAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	first, err := Open(path, Options{Now: newStepClock().Now})
	if err != nil {
		t.Fatal(err)
	}
	a := mustCreate(t, first, "alpha", "/work/a")
	b := mustCreate(t, first, "", "/work/b")
	for i := range 6 {
		mustAppend(t, first, a.ID, sampleMessage(i))
	}
	mustAppend(t, first, b.ID, chat.Message{Role: chat.RoleUser, Content: "hello b"})
	if err := first.SetSummary(a.ID, "they fixed the parser", 3); err != nil {
		t.Fatal(err)
	}
	if err := first.Rename(b.ID, "beta"); err != nil {
		t.Fatal(err)
	}
	wantList, err := first.List()
	if err != nil {
		t.Fatal(err)
	}
	wantMsgs, err := first.Messages(a.ID, 0)
	if err != nil {
		t.Fatal(err)
	}

	second, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	gotList, err := second.List()
	if err != nil {
		t.Fatal(err)
	}
	if !sameSessions(gotList, wantList) {
		t.Errorf("after reopen List = %+v, want %+v", gotList, wantList)
	}
	gotMsgs, err := second.Messages(a.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMessages(gotMsgs, wantMsgs) || len(gotMsgs) != 6 {
		t.Errorf("after reopen Messages = %+v, want %+v", gotMsgs, wantMsgs)
	}
	got, err := second.Get("alpha")
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary != "they fixed the parser" || got.SummaryThrough != 3 {
		t.Errorf("after reopen summary = %q through %d", got.Summary, got.SummaryThrough)
	}
	if got, err := second.Get("beta"); err != nil || got.ID != b.ID {
		t.Errorf("after reopen Get(beta) = %v, %v; want session %s", got.ID, err, b.ID)
	}
}

func TestOpenDoesNotWriteAnUpToDateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	filled(t, path)
	before := readFile(t, path)
	if _, err := Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, readFile(t, path)) {
		t.Error("opening an up-to-date store wrote to it")
	}
}

func TestOpenRefusesDamagedFiles(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T, path string)
	}{
		{"random bytes", func(t *testing.T, path string) {
			writeFile(t, path, randomBytes(64<<10))
		}},
		{"a few random bytes", func(t *testing.T, path string) {
			writeFile(t, path, randomBytes(100))
		}},
		{"text file", func(t *testing.T, path string) {
			writeFile(t, path, []byte("these are my notes, not a database\n"))
		}},
		{"truncated below its pages", func(t *testing.T, path string) {
			filled(t, path)
			truncate(t, path, usedBytes(t, path)/2)
		}},
		{"truncated to the meta pages", func(t *testing.T, path string) {
			filled(t, path)
			truncate(t, path, 2*int64(os.Getpagesize())+10)
		}},
		{"truncated inside the first page", func(t *testing.T, path string) {
			filled(t, path)
			truncate(t, path, 100)
		}},
		{"both meta pages wiped", func(t *testing.T, path string) {
			filled(t, path)
			raw := readFile(t, path)
			clear(raw[:2*os.Getpagesize()])
			writeFile(t, path, raw)
		}},
		{"pages overwritten with garbage", func(t *testing.T, path string) {
			filled(t, path)
			raw := readFile(t, path)
			junk := randomBytes(len(raw))
			copy(raw[2*os.Getpagesize():usedBytes(t, path)], junk)
			writeFile(t, path, raw)
		}},
		{"another program's bbolt file", func(t *testing.T, path string) {
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Update(func(tx *bolt.Tx) error {
				b, err := tx.CreateBucket([]byte("settings"))
				if err != nil {
					return err
				}
				return b.Put([]byte("theme"), []byte("dark"))
			}); err != nil {
				t.Fatal(err)
			}
		}},
		{"schema version malformed", func(t *testing.T, path string) {
			filled(t, path)
			rawUpdate(t, path, func(tx *bolt.Tx) error {
				return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchema), []byte("one"))
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), fileName)
			tt.make(t, path)
			before := readFile(t, path)

			_, err := Open(path, Options{})
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("Open = %v, want ErrDamaged", err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
			if after := readFile(t, path); !bytes.Equal(before, after) {
				t.Errorf("Open changed the damaged file (%d bytes before, %d after)", len(before), len(after))
			}
		})
	}
}

func TestOpenRefusesADirectoryInPlaceOfTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, Options{})
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open = %v, want ErrDamaged naming %s", err, path)
	}
}

func TestOpenInitialisesAnEmptyFile(t *testing.T) {
	// A zero-length file holds nothing to lose: it is what a crash during the
	// very first Open leaves behind.
	path := filepath.Join(t.TempDir(), fileName)
	writeFile(t, path, nil)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	mustCreate(t, s, "first", "/work")
}

func TestOpenReportsUnwritablePlaces(t *testing.T) {
	type place struct {
		name string
		path func(t *testing.T) string
	}
	places := []place{
		{"data directory is a file", func(t *testing.T) string {
			blocker := filepath.Join(t.TempDir(), "data")
			writeFile(t, blocker, []byte("x"))
			return filepath.Join(blocker, fileName)
		}},
		{"no path at all", func(t *testing.T) string { return "" }},
	}
	if runtime.GOOS == "linux" {
		// /proc refuses new files even to root.
		places = append(places, place{"directory refuses new files", func(t *testing.T) string {
			return "/proc/self/" + fileName
		}})
	}
	if runtime.GOOS != "windows" && os.Geteuid() != 0 {
		// Permission bits do not stop root, so this case needs a normal user.
		places = append(places, place{"read-only directory", func(t *testing.T) string {
			dir := filepath.Join(t.TempDir(), "ro")
			if err := os.Mkdir(dir, 0o500); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, fileName)
		}}, place{"read-only file", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), fileName)
			filled(t, path)
			if err := os.Chmod(path, 0o400); err != nil {
				t.Fatal(err)
			}
			return path
		}})
	}
	for _, tt := range places {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path(t)
			_, err := Open(path, Options{})
			if !errors.Is(err, ErrUnwritable) {
				t.Fatalf("Open(%q) = %v, want ErrUnwritable", path, err)
			}
			if !strings.Contains(err.Error(), "PINCER_DATA_DIR") {
				t.Errorf("error %q does not say how to fix it", err)
			}
			if path != "" && !strings.Contains(err.Error(), filepath.Dir(path)) {
				t.Errorf("error %q does not name the place", err)
			}
		})
	}
}

func TestOpenMigratesAVersionZeroFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	db, err := bolt.Open(path, 0o600, nil) // a bbolt file with no buckets: schema 0
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open of a version 0 file: %v", err)
	}
	if got := schemaOf(t, path); got != uint64(len(migrations)) {
		t.Errorf("schema after migration = %d, want %d", got, len(migrations))
	}
	sess := mustCreate(t, s, "after-migration", "/work")
	mustAppend(t, s, sess.ID, chat.Message{Role: chat.RoleUser, Content: "works"})
}

func TestOpenRefusesANewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	filled(t, path)
	newer := uint64(len(migrations) + 1)
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchema), binary.BigEndian.AppendUint64(nil, newer))
	})
	before := readFile(t, path)

	_, err := Open(path, Options{})
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open = %v, want ErrSchemaTooNew", err)
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "upgrade pincer") {
		t.Errorf("error %q should name the file and the fix", err)
	}
	if !bytes.Equal(before, readFile(t, path)) {
		t.Error("Open changed a file with a newer schema")
	}
}

func TestMigrationsRunInOrderInOneTransaction(t *testing.T) {
	var ran []string
	step := func(name string) migration {
		return func(tx *bolt.Tx) error {
			ran = append(ran, name)
			return tx.Bucket([]byte(bucketMeta)).Put([]byte("step-"+name), []byte("done"))
		}
	}
	failing := func(tx *bolt.Tx) error {
		ran = append(ran, "failing")
		return errors.New("disk says no")
	}

	tests := []struct {
		name       string
		from       int // schema version the file starts at
		steps      []migration
		wantRan    []string
		wantErr    bool
		wantSchema uint64
		wantKeys   []string // meta keys "step-*" present afterwards
	}{
		{"version 0 through three steps", 0, []migration{createLayout, step("b"), step("c")}, []string{"b", "c"}, false, 3, []string{"step-b", "step-c"}},
		{"version 1 runs only the newer steps", 1, []migration{createLayout, step("b"), step("c")}, []string{"b", "c"}, false, 3, []string{"step-b", "step-c"}},
		{"up to date runs nothing", 1, []migration{createLayout}, nil, false, 1, nil},
		{"a failing step rolls back the earlier ones", 1, []migration{createLayout, step("b"), failing}, []string{"b", "failing"}, true, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran = nil
			path := filepath.Join(t.TempDir(), fileName)
			if tt.from == 0 {
				db, err := bolt.Open(path, 0o600, nil)
				if err != nil {
					t.Fatal(err)
				}
				db.Close()
			} else if _, err := open(path, Options{}, migrations[:tt.from]); err != nil {
				t.Fatal(err)
			}
			ran = nil

			_, err := open(path, Options{}, tt.steps)
			if (err != nil) != tt.wantErr {
				t.Fatalf("open = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr && (!strings.Contains(err.Error(), "from schema 2 to 3") || !strings.Contains(err.Error(), path)) {
				t.Errorf("error %q should say which step failed and where", err)
			}
			if !slices.Equal(ran, tt.wantRan) {
				t.Errorf("steps run = %v, want %v", ran, tt.wantRan)
			}
			if got := schemaOf(t, path); got != tt.wantSchema {
				t.Errorf("schema = %d, want %d", got, tt.wantSchema)
			}
			var keys []string
			rawView(t, path, func(tx *bolt.Tx) error {
				return tx.Bucket([]byte(bucketMeta)).ForEach(func(k, _ []byte) error {
					if strings.HasPrefix(string(k), "step-") {
						keys = append(keys, string(k))
					}
					return nil
				})
			})
			if !slices.Equal(keys, tt.wantKeys) {
				t.Errorf("keys written by steps = %v, want %v", keys, tt.wantKeys)
			}
		})
	}
}

// filled makes a valid store at path with enough messages to span many
// pages.
func filled(t *testing.T, path string) {
	t.Helper()
	if _, err := Open(path, Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	seed(t, path, 3, 200)
}

// usedBytes is how far the store's pages reach, which can be less than the
// file's size because bbolt grows files ahead of use.
func usedBytes(t *testing.T, path string) int64 {
	t.Helper()
	var n int64
	rawView(t, path, func(tx *bolt.Tx) error { n = tx.Size(); return nil })
	return n
}

func schemaOf(t *testing.T, path string) uint64 {
	t.Helper()
	var v uint64
	rawView(t, path, func(tx *bolt.Tx) error {
		raw := tx.Bucket([]byte(bucketMeta)).Get([]byte(keySchema))
		if len(raw) != 8 {
			t.Fatalf("schema value %q", raw)
		}
		v = binary.BigEndian.Uint64(raw)
		return nil
	})
	return v
}

func rawView(t *testing.T, path string, fn func(*bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(fn); err != nil {
		t.Fatal(err)
	}
}

func rawUpdate(t testing.TB, path string, fn func(*bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

// randomBytes returns n bytes of noise, the same on every run so that a
// failure can be reproduced.
func randomBytes(n int) []byte {
	r := rand.New(rand.NewPCG(4, uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func truncate(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

func sameSessions(a, b []Session) bool {
	return slices.EqualFunc(a, b, func(x, y Session) bool {
		return x.ID == y.ID && x.Name == y.Name && x.Dir == y.Dir && x.Model == y.Model &&
			x.Created.Equal(y.Created) && x.Updated.Equal(y.Updated) && x.Usage == y.Usage &&
			x.Summary == y.Summary && x.SummaryThrough == y.SummaryThrough && x.Title == y.Title &&
			x.MessageCount == y.MessageCount && x.ForkOf == y.ForkOf
	})
}

func sameMessages(a, b []chat.Message) bool {
	return slices.EqualFunc(a, b, sameMessage)
}

func sameMessage(x, y chat.Message) bool {
	usageEqual := (x.Usage == nil) == (y.Usage == nil) && (x.Usage == nil || *x.Usage == *y.Usage)
	return x.Seq == y.Seq && x.Role == y.Role && x.Kind == y.Kind && x.Content == y.Content &&
		x.Reasoning == y.Reasoning && slices.Equal(x.ToolCalls, y.ToolCalls) && x.ToolCallID == y.ToolCallID &&
		x.ToolName == y.ToolName && x.IsError == y.IsError && x.Time.Equal(y.Time) && usageEqual
}

func TestDamageFoundAfterOpenIsAnErrorNotACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	filled(t, path)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil || len(list) == 0 {
		t.Fatalf("List = %v, %v", list, err)
	}
	// Overwrite only the pages that hold message text: the session records
	// stay readable, reading the messages does not.
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

	for _, sess := range list {
		if _, err := s.Messages(sess.ID, 0); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) {
			t.Errorf("Messages of %s from a damaged file = %v, want ErrDamaged naming the file", sess.ID, err)
		}
	}
	if _, err := s.List(); err != nil {
		t.Errorf("the store is unusable after a recovered fault: %v", err)
	}
}
