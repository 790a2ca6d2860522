package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPromptTokens: pincer prompt --tokens weighs the profile in effect
// part by part: the full one for the default window, the compact one for
// a small window or when asked, and the total is the sum of the parts and
// within the profile's target.
func TestPromptTokens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		config  string
		args    []string
		profile string
		target  int
	}{
		{"default window", `{}`, nil, "full", 3500},
		{"small window", `{"context_window": 8192}`, nil, "compact", 1500},
		{"configured", `{"prompt_profile": "compact"}`, nil, "compact", 1500},
		{"flag", `{"context_window": 8192}`, []string{"--profile", "full"}, "full", 3500},
		{"window flag", `{}`, []string{"--window", "4096"}, "compact", 1500},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t, "http://127.0.0.1:9/v1")
			s.write(".config/pincer/config.json", tt.config)
			s.env = append(s.env, "PINCER_CONFIG="+s.dir+"/.config/pincer/config.json")
			r := s.run("", append([]string{"prompt", "--tokens"}, tt.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
			}
			if !strings.HasPrefix(r.stdout, "profile "+tt.profile+" ") {
				t.Fatalf("stdout begins %q, want profile %s", strings.SplitN(r.stdout, "\n", 2)[0], tt.profile)
			}
			sum, total := 0, -1
			for _, m := range regexp.MustCompile(`(?m)^(\S+)\s+(\d+)`).FindAllStringSubmatch(r.stdout, -1) {
				n, _ := strconv.Atoi(m[2])
				if m[1] == "total" {
					total = n
				} else {
					sum += n
				}
			}
			if total != sum || total > tt.target || !strings.Contains(r.stdout, "instructions") || !strings.Contains(r.stdout, "load_tools") {
				t.Errorf("total %d, parts %d, target %d:\n%s", total, sum, tt.target, r.stdout)
			}
			if !strings.Contains(r.stdout, "loaded when asked for: read_web, todo_write, recall, schedule_task, remember, task") {
				t.Errorf("the deferred tools are not listed:\n%s", r.stdout)
			}
		})
	}
	s := newSandbox(t, "")
	if r := s.run("", "prompt", "--tokens", "--profile", "tiny"); r.code == 0 || !strings.Contains(r.stderr, "give full, compact or auto") {
		t.Errorf("a bad --profile: exit %d, stderr %q", r.code, r.stderr)
	}
}
