package safety

import (
	"slices"
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

func TestSandboxModesOrder(t *testing.T) {
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
