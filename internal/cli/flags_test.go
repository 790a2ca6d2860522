package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"pincer/config"
)

// parseGroups registers the groups on a fresh flag set and parses args.
func parseGroups(t *testing.T, args []string, register ...func(*pflag.FlagSet)) {
	t.Helper()
	f := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.SetOutput(io.Discard)
	for _, r := range register {
		r(f)
	}
	if err := f.Parse(args); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
}

// TestFlagGroupsOverrideOnlyWhatWasGiven: a group turns the flags the
// person gave, and only those, into configuration overrides; a flag left
// out leaves the configuration's value alone.
func TestFlagGroupsOverrideOnlyWhatWasGiven(t *testing.T) {
	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		name string
		args []string
		want config.Overrides
	}{
		{name: "nothing given", args: nil, want: config.Overrides{}},
		{name: "model", args: []string{"-m", "qwen3"}, want: config.Overrides{Model: s("qwen3")}},
		{name: "provider and url", args: []string{"--provider", "groq", "--base-url", "http://h/v1"}, want: config.Overrides{Provider: s("groq"), BaseURL: s("http://h/v1")}},
		{name: "limits, zero given", args: []string{"--max-iterations", "0", "--context-window", "8000"}, want: config.Overrides{MaxIterations: n(0), ContextWindow: n(8000)}},
		{name: "theme", args: []string{"--theme", "light"}, want: config.Overrides{Theme: s("light")}},
		{name: "sandbox", args: []string{"--sandbox", "off"}, want: config.Overrides{Sandbox: s("off")}},
		{name: "auto", args: []string{"--auto"}, want: config.Overrides{Approvals: s("auto")}},
		{name: "auto=false", args: []string{"--auto=false"}, want: config.Overrides{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var (
				m    modelFlags
				th   themeFlag
				sb   sandboxFlag
				auto autoFlag
			)
			parseGroups(t, tc.args, m.register, th.register, sb.register, func(f *pflag.FlagSet) {
				f.BoolVar((*bool)(&auto), "auto", false, "")
			})
			if got := overridesOf(&m, &th, &sb, &auto); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("overrides %s, want %s", describeOverrides(got), describeOverrides(tc.want))
			}
		})
	}
}

// TestUnregisteredGroupOverridesNothing: a group a command does not
// register gives no override, whatever its fields hold.
func TestUnregisteredGroupOverridesNothing(t *testing.T) {
	m := modelFlags{model: "stray", maxIterations: 5}
	if got := overridesOf(&m, &themeFlag{theme: "x"}, &sandboxFlag{mode: "off"}); !reflect.DeepEqual(got, config.Overrides{}) {
		t.Errorf("overrides %s from groups never registered, want none", describeOverrides(got))
	}
	if m.modelGiven() {
		t.Error("modelGiven on a group never registered")
	}
}

// describeOverrides spells the set overrides out for a failure message.
func describeOverrides(o config.Overrides) string {
	var parts []string
	v := reflect.ValueOf(o)
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsNil() {
			parts = append(parts, fmt.Sprintf("%s=%v", v.Type().Field(i).Name, f.Elem().Interface()))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// TestFlagGroupsRefuseBadValues: a bad value given to a group's flag is a
// usage error of one sentence that names the flag and says what to give.
func TestFlagGroupsRefuseBadValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the error
	}{
		{name: "unknown provider", args: []string{"--provider", "nosuch"}, want: []string{"--provider", "openai"}},
		{name: "no iterations", args: []string{"--max-iterations", "0"}, want: []string{"--max-iterations", "1 to 1000"}},
		{name: "tiny window", args: []string{"--context-window", "10"}, want: []string{"--context-window", "at least 1000"}},
		{name: "unknown sandbox", args: []string{"--sandbox", "sideways"}, want: []string{"--sandbox", "workspace"}},
		{name: "unknown theme", args: []string{"--theme", "nosuch"}, want: []string{"--theme", "built-in theme"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			env := map[string]string{
				"HOME":            home,
				"XDG_CONFIG_HOME": filepath.Join(home, "config"),
				"PINCER_DATA_DIR": filepath.Join(home, "data"),
				"PINCER_MODEL":    "m",
			}
			c := &cli{stdout: io.Discard, stderr: io.Discard, getenv: func(k string) string { return env[k] }}
			var o tuiOptions
			parseGroups(t, tc.args, o.model.register, o.theme.register, o.sandbox.register)
			_, err := c.loadProjectAt(t.TempDir(), o.overrides())
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != 2 {
				t.Fatalf("error %v, want a usage error", err)
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is more than one line", msg)
			}
		})
	}
}

// TestSessionChoiceFlags: --session, --continue and --private make the
// choice; choosing twice is refused with the fix.
func TestSessionChoiceFlags(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		want   sessionChoice
		chosen bool
		bad    bool
	}{
		{args: nil},
		{args: []string{"-s", "work"}, want: sessionChoice{name: "work"}, chosen: true},
		{args: []string{"-c", "--private"}, want: sessionChoice{latest: true, private: true}, chosen: true},
		{args: []string{"--private"}, want: sessionChoice{private: true}},
		{args: []string{"-s", "work", "-c"}, want: sessionChoice{name: "work", latest: true}, chosen: true, bad: true},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var s sessionChoice
			parseGroups(t, tc.args, s.register)
			if s != tc.want || s.chosen() != tc.chosen {
				t.Errorf("choice %+v chosen=%v, want %+v chosen=%v", s, s.chosen(), tc.want, tc.chosen)
			}
			err := s.validate()
			if tc.bad != (err != nil) {
				t.Fatalf("validate: %v, want an error: %v", err, tc.bad)
			}
			if tc.bad && !strings.Contains(err.Error(), "give one of them") {
				t.Errorf("error %q does not say how to fix it", err)
			}
		})
	}
}

// TestApprovalFlagsPolicy: the approval flags become the headless policy.
func TestApprovalFlagsPolicy(t *testing.T) {
	for _, tc := range []struct {
		args                           []string
		yes, approveAll, allowSchedule bool
	}{
		{args: nil},
		{args: []string{"-y"}, yes: true},
		{args: []string{"--dangerously-approve-all", "--allow-schedule"}, approveAll: true, allowSchedule: true},
	} {
		var a approvalFlags
		parseGroups(t, tc.args, func(f *pflag.FlagSet) { a.register(f, "", "") })
		p := a.policy()
		if p.Yes != tc.yes || p.ApproveAll != tc.approveAll || p.AllowSchedule != tc.allowSchedule {
			t.Errorf("%q: policy %+v", tc.args, p)
		}
	}
}

// TestCommandsTakeTheirFlags: each command takes exactly the flag groups
// its options hold, so its help lists its own flags and no other.
func TestCommandsTakeTheirFlags(t *testing.T) {
	groups := map[string][]string{
		"model":    {"provider", "base-url", "model", "max-iterations", "context-window"},
		"theme":    {"theme"},
		"sandbox":  {"sandbox"},
		"session":  {"session", "continue", "private"},
		"name":     {"session"},
		"approval": {"yes", "dangerously-approve-all", "allow-schedule"},
	}
	all := map[string]bool{}
	for _, names := range groups {
		for _, n := range names {
			all[n] = true
		}
	}
	root := (&cli{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}).rootCommand()
	for _, tc := range []struct {
		path   string
		groups []string
	}{
		{"", []string{"model", "theme", "sandbox", "session"}},
		{"run", []string{"model", "sandbox", "session", "approval"}},
		{"config", []string{"model", "theme", "sandbox"}},
		{"sandbox", []string{"sandbox"}},
		{"sandbox exec", []string{"sandbox"}},
		{"sessions compact", []string{"model"}},
		{"tasks run", []string{"model", "sandbox", "approval"}},
		{"tasks add", []string{"name"}},
		{"telegram", []string{"model", "sandbox"}},
		{"acp", []string{"model", "sandbox"}},
		{"sessions", nil},
		{"tasks list", nil},
		{"prompt", nil},
		{"mcp", nil},
	} {
		t.Run(tc.path, func(t *testing.T) {
			cmd, _, err := root.Find(strings.Fields(tc.path))
			if err != nil || (tc.path != "" && cmd == root) {
				t.Fatalf("no command %q", tc.path)
			}
			want := map[string]bool{}
			for _, g := range tc.groups {
				for _, n := range groups[g] {
					want[n] = true
				}
			}
			for n := range all {
				if got := cmd.LocalFlags().Lookup(n) != nil; got != want[n] {
					t.Errorf("pincer %s: has --%s %v, want %v", tc.path, n, got, want[n])
				}
			}
		})
	}
}
