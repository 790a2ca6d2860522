package safety

import (
	"slices"
	"strings"
	"testing"
)

func TestRunsUnasked(t *testing.T) {
	tests := []struct {
		v         Verdict
		approvals ApprovalMode
		contained bool
		want      bool
	}{
		{Verdict{Tier: Safe}, ApprovalsAsk, false, true},
		{Verdict{Tier: Confirm}, ApprovalsAsk, true, false},
		{Verdict{Tier: Confirm}, ApprovalsAuto, true, true},
		{Verdict{Tier: Confirm}, ApprovalsAuto, false, false}, // no sandbox: auto asks
		{Verdict{Tier: Dangerous}, ApprovalsAuto, true, false},
		{Verdict{Tier: Confirm, Denied: true}, ApprovalsAuto, true, false},
		{Verdict{Tier: Safe, Denied: true}, ApprovalsAuto, true, false},
	}
	for _, tt := range tests {
		if got := RunsUnasked(tt.v, tt.approvals, tt.contained); got != tt.want {
			t.Errorf("RunsUnasked(%v, %s, contained=%v) = %v, want %v", tt.v, tt.approvals, tt.contained, got, tt.want)
		}
	}
}

func TestSandboxPolicy(t *testing.T) {
	p := SandboxPolicy{Mode: SandboxWorkspace, Root: "/p", Home: "/h", TempDir: "/tmp", Extra: []string{"/h/.cache/go-build", "rel", "/p"},
		ConfigDir: "/h/.config/pincer", DataDir: "/h/.local/share/pincer"}
	if got := strings.Join(p.Writable(), " "); got != "/p /tmp /h/.cache/go-build" {
		t.Errorf("workspace Writable = %q", got)
	}
	for _, m := range []SandboxMode{SandboxReadOnly, SandboxOff} {
		p.Mode = m
		if w := p.Writable(); w != nil {
			t.Errorf("%s Writable = %v, want none", m, w)
		}
	}
	h := p.Hidden()
	for _, want := range []string{"/h/.ssh", "/h/.aws", "/h/.gnupg", "/h/.config/gcloud", "/h/.config/pincer", "/h/.local/share/pincer"} {
		if !slices.Contains(h, want) {
			t.Errorf("Hidden lacks %s: %v", want, h)
		}
	}
	if !SandboxOff.Looser(SandboxWorkspace) || !SandboxWorkspace.Looser(SandboxReadOnly) || SandboxReadOnly.Looser(SandboxOff) {
		t.Error("Looser orders the modes wrongly")
	}
}

func TestToolchainCaches(t *testing.T) {
	env := map[string]string{"GOMODCACHE": "/m", "CARGO_HOME": "/c"}
	got := ToolchainCaches("/h", func(k string) string { return env[k] })
	for _, want := range []string{"/h/.cache/go-build", "/h/go/pkg/mod", "/m", "/h/.npm", "/h/.cache/pip", "/c/registry", "/h/.rustup"} {
		if !slices.Contains(got, want) {
			t.Errorf("ToolchainCaches lacks %s: %v", want, got)
		}
	}
}
