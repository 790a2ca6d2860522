package tools

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestEditOfAFileChangedSinceItWasRead(t *testing.T) {
	cases := []struct {
		name      string
		read      bool   // the model read the file first
		meanwhile string // what someone else writes after the read; "" for nothing
		wantStale bool
	}{
		{"read and unchanged", true, "", false},
		{"read then changed by someone else", true, "alpha\nbeta changed\n", true},
		{"never read", false, "alpha\nbeta changed\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "f.txt")
			os.WriteFile(path, []byte("alpha\nbeta\n"), 0o644)
			log := NewReadLog()
			reg, _ := NewRegistry(Builtins(Options{Root: root, ReadLog: log})...)
			run := func(name, args string) Call {
				tool, _ := reg.Get(name)
				call, err := tool.Decode(args)
				if err != nil {
					t.Fatal(err)
				}
				return call
			}
			if tc.read {
				if _, err := run("read_file", `{"path":"f.txt"}`).Run(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if tc.meanwhile != "" {
				os.WriteFile(path, []byte(tc.meanwhile), 0o644)
			}
			ch, err := run("edit_file", `{"path":"f.txt","old_text":"alpha","new_text":"gamma"}`).(Planner).Plan(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if ch.Stale != tc.wantStale {
				t.Errorf("Stale = %v, want %v", ch.Stale, tc.wantStale)
			}
			// After the edit lands, the model knows the new content: a
			// second edit is not stale.
			if err := Apply(ch, ch.After); err != nil {
				t.Fatal(err)
			}
			ch2, err := run("write_file", `{"path":"f.txt","content":"new\n"}`).(Planner).Plan(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if ch2.Stale {
				t.Error("an edit after the model's own edit is marked stale")
			}
		})
	}
}
