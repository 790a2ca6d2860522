package acptest

import (
	"bytes"
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// SDKClient is a script that drives an agent with the client of the
// official ACP TypeScript SDK (see sdkclient.mjs for its arguments and
// output).
//
//go:embed sdkclient.mjs
var SDKClient []byte

// InstallSDK installs the npm package @agentclientprotocol/sdk, the
// version the vendored schema comes from, into a new directory with the
// SDKClient script beside it, and returns the script's path. It checks
// that the package's schema is the one vendored here. Without node or
// npm the test is skipped, except under CI (CI=true), where it fails:
// .ci/run installs them.
func InstallSDK(t testing.TB) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; CI must run the test with the ACP SDK's client (.ci/run installs Node)", tool)
			}
			t.Skipf("%s is not installed (.ci/run installs Node)", tool)
		}
	}
	dir := t.TempDir()
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, "@agentclientprotocol/sdk@"+SchemaVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install @agentclientprotocol/sdk@%s: %v\n%s", SchemaVersion, err, out)
	}
	shipped, err := os.ReadFile(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "schema", "v1", "schema.json"))
	if err != nil {
		t.Fatalf("the installed SDK has no v1 schema: %v", err)
	}
	if !bytes.Equal(shipped, Schema) {
		t.Fatalf("the vendored schema differs from the one @agentclientprotocol/sdk@%s ships; see ui/acp/acptest/schema/README.md", SchemaVersion)
	}
	script := filepath.Join(dir, "sdkclient.mjs")
	if err := os.WriteFile(script, SDKClient, 0o644); err != nil {
		t.Fatal(err)
	}
	return script
}
