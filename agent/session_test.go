package agent

import (
	"path/filepath"
	"reflect"
	"testing"

	"pincer/chat"
	"pincer/session"
)

// TestTouchedFilesSurviveTheStore: the files a tool result read or changed
// are stored with it, so a resumed session can mark them in the tree.
func TestTouchedFilesSurviveTheStore(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.Create(session.Session{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	touched := []chat.Touch{
		{Path: "main.go", Kind: chat.TouchRead},
		{Path: "pkg/a.go", Kind: chat.TouchChanged},
		{Path: "new.go", Kind: chat.TouchCreated},
	}
	log := SessionLog{Store: st, ID: sess.ID}
	if _, err := log.Record(Message{Role: RoleTool, ToolCallID: "c1", ToolName: "write_file", Content: "ok", Touched: touched}); err != nil {
		t.Fatal(err)
	}
	history, _, _, err := LoadSession(st, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(history) != 1 || !reflect.DeepEqual(history[0].Touched, touched) {
		t.Fatalf("touched after a round trip = %+v, want %+v", history, touched)
	}
}
