package tools

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// stubTool is a Tool with only a name, for registry tests.
type stubTool struct{ name string }

func (s stubTool) Name() string                { return s.name }
func (s stubTool) Description() string         { return "stub" }
func (s stubTool) Parameters() map[string]any  { return map[string]any{"type": "object"} }
func (s stubTool) Mutates() bool               { return false }
func (s stubTool) Decode(string) (Call, error) { return nil, nil }

func TestNewRegistry(t *testing.T) {
	tests := []struct {
		name    string
		tools   []Tool
		wantErr string
		want    []string
	}{
		{"empty", nil, "", []string{}},
		{"order kept", []Tool{stubTool{"b"}, stubTool{"a"}, stubTool{"c-1"}}, "", []string{"b", "a", "c-1"}},
		{"duplicate", []Tool{stubTool{"a"}, stubTool{"a"}}, `tool name "a" is registered twice`, nil},
		{"space in name", []Tool{stubTool{"read file"}}, `tool name "read file" is invalid`, nil},
		{"empty name", []Tool{stubTool{""}}, `tool name "" is invalid`, nil},
		{"dot in name", []Tool{stubTool{"fs.read"}}, `tool name "fs.read" is invalid`, nil},
		{"64 characters", []Tool{stubTool{strings.Repeat("a", 63) + "Z"}}, "", []string{strings.Repeat("a", 63) + "Z"}},
		{"65 characters", []Tool{stubTool{strings.Repeat("a", 65)}}, `is invalid`, nil},
		{"letter outside ASCII", []Tool{stubTool{"naïve"}}, `tool name "naïve" is invalid`, nil},
		{"digits, dash and underscore", []Tool{stubTool{"Go_1-x"}}, "", []string{"Go_1-x"}},
		{"nil tool", []Tool{stubTool{"a"}, nil}, "tool 1 is nil", nil},
		{"all problems reported", []Tool{stubTool{"a"}, stubTool{"a"}, stubTool{"b c"}}, `"b c" is invalid`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRegistry(tt.tools...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Names(); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Names() = %v, want %v", got, tt.want)
			}
			for i, tool := range r.List() {
				if tool.Name() != tt.want[i] {
					t.Errorf("List()[%d] = %s, want %s", i, tool.Name(), tt.want[i])
				}
				if got, ok := r.Get(tool.Name()); !ok || got.Name() != tool.Name() {
					t.Errorf("Get(%q) = %v, %v", tool.Name(), got, ok)
				}
			}
			if _, ok := r.Get("missing"); ok {
				t.Error("Get of an unknown name succeeded")
			}
		})
	}
}

func TestRegistryListIsACopy(t *testing.T) {
	r, err := NewRegistry(stubTool{"a"}, stubTool{"b"})
	if err != nil {
		t.Fatal(err)
	}
	l := r.List()
	l[0] = stubTool{"z"}
	if r.List()[0].Name() != "a" {
		t.Fatal("changing the List() slice changed the registry")
	}
}

func TestBuiltinsRegisterInOrder(t *testing.T) {
	r, err := NewRegistry(Builtins(Options{Root: tempRoot(t)})...)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"tree_view", "read_file", "grep", "glob", "read_web", "write_file", "edit_file", "run_command"}
	if got := r.Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("built-in names = %v, want %v", got, want)
	}
}

// Tools and their calls are used from several goroutines by the agent.
func TestConcurrentUse(t *testing.T) {
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"a.txt": "one\ntwo\n", "b/c.txt": "two\n"})
	r, err := NewRegistry(Builtins(Options{Root: root})...)
	if err != nil {
		t.Fatal(err)
	}
	calls := [][2]string{
		{"read_file", `{"path": "a.txt"}`},
		{"grep", `{"pattern": "two"}`},
		{"glob", `{"pattern": "**/*.txt"}`},
		{"tree_view", `{}`},
		{"read_file", `{"path": 1}`},
	}
	errs := make(chan string, 40)
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(c [2]string) {
			defer wg.Done()
			tool, _ := r.Get(c[0])
			call, err := tool.Decode(c[1])
			if err != nil {
				return
			}
			if res, err := call.Run(context.Background()); err != nil || res.IsError {
				errs <- fmt.Sprintf("%s: %v %s", c[0], err, res.Content)
			}
		}(calls[i%len(calls)])
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
