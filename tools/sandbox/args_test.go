package sandbox

import (
	"reflect"
	"testing"
)

// TestHelperArgsRoundTrip checks that every spec and command reach the
// helper unchanged, whatever the paths and arguments look like.
func TestHelperArgsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec Spec
		argv []string
	}{
		{"empty spec", Spec{}, []string{"/bin/sh", "-c", "true"}},
		{"network", Spec{Network: true}, []string{"true"}},
		{"paths", Spec{Writable: []string{"/p", "/tmp"}, Hidden: []string{"/home/u/.ssh", "/home/u/.config/pincer"}}, []string{"/bin/sh", "-c", "ls"}},
		{"paths that look like flags", Spec{Writable: []string{"--", "-h"}, Hidden: []string{"-w", "-n"}}, []string{"--", "-n"}},
		{"odd characters", Spec{Writable: []string{"/a b/\nc", `/"q"`}, Hidden: []string{""}, Network: true}, []string{"prog", "", "a\nb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, err := Command("/helper", tc.spec, tc.argv[0], tc.argv[1:]...)
			if err != nil {
				t.Fatal(err)
			}
			spec, argv, err := decodeHelperArgs(cmd.Args)
			if err != nil {
				t.Fatalf("decode %q: %v", cmd.Args, err)
			}
			if !reflect.DeepEqual(spec, tc.spec) {
				t.Errorf("spec = %#v, want %#v", spec, tc.spec)
			}
			if !reflect.DeepEqual(argv, tc.argv) {
				t.Errorf("argv = %q, want %q", argv, tc.argv)
			}
		})
	}
}

// TestHelperArgsRejects checks that malformed helper arguments are an
// error, never a command run with a partial spec.
func TestHelperArgsRejects(t *testing.T) {
	for _, args := range [][]string{
		{"helper"},
		{"helper", "other"},
		{"helper", HelperArg},
		{"helper", HelperArg, "--"},
		{"helper", HelperArg, "-w"},
		{"helper", HelperArg, "-w", "/p"},
		{"helper", HelperArg, "-x", "--", "true"},
		{"helper", HelperArg, "true"},
	} {
		if spec, argv, err := decodeHelperArgs(args); err == nil {
			t.Errorf("decodeHelperArgs(%q) = %#v, %q; want an error", args, spec, argv)
		}
	}
}
