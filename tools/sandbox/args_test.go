package sandbox

import (
	"reflect"
	"testing"
)

// TestHelperArgsRoundTrip checks that every spec reaches the helper
// unchanged, whatever the paths look like.
func TestHelperArgsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec Spec
	}{
		{"empty spec", Spec{}},
		{"network", Spec{Network: true}},
		{"paths", Spec{Writable: []string{"/p", "/tmp"}, Hidden: []string{"/home/u/.ssh", "/home/u/.config/pincer"}}},
		{"paths that look like flags", Spec{Writable: []string{"--serve", "-h"}, Hidden: []string{"-w", "-n"}}},
		{"odd characters", Spec{Writable: []string{"/a b/\nc", `/"q"`}, Hidden: []string{""}, Network: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"/helper"}, helperArgs(tc.spec)...)
			spec, err := decodeHelperArgs(args)
			if err != nil {
				t.Fatalf("decode %q: %v", args, err)
			}
			if !reflect.DeepEqual(spec, tc.spec) {
				t.Errorf("spec = %#v, want %#v", spec, tc.spec)
			}
		})
	}
}

// TestHelperArgsRejects checks that malformed helper arguments are an
// error, never a helper serving with a partial spec.
func TestHelperArgsRejects(t *testing.T) {
	for _, args := range [][]string{
		{"helper"},
		{"helper", "other"},
		{"helper", HelperArg},
		{"helper", HelperArg, "-w"},
		{"helper", HelperArg, "-w", "/p"},
		{"helper", HelperArg, "-x", "--serve"},
		{"helper", HelperArg, "--serve", "true"},
		{"helper", HelperArg, "-w", "/p", "--", "true"},
	} {
		if spec, err := decodeHelperArgs(args); err == nil {
			t.Errorf("decodeHelperArgs(%q) = %#v; want an error", args, spec)
		}
	}
}
