package config

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestMCPServersFromMCPJSON(t *testing.T) {
	const mcpJSON = `{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": {"A": "1"}},
		"api": {"type": "http", "url": "https://api.example/mcp", "headers": {"Authorization": "Bearer ${API_TOKEN}"}},
		"both": {"command": "from-mcp-json"}
	}}`
	tests := []struct {
		name     string
		user     string
		project  string
		mcp      string
		distrust bool
		want     map[string]MCPServer
		ignored  bool
		warning  string
	}{
		{name: "read when trusted", mcp: mcpJSON,
			want: map[string]MCPServer{
				"fs":   {Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "."}, Env: map[string]string{"A": "1"}},
				"api":  {Type: "http", URL: "https://api.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${API_TOKEN}"}},
				"both": {Command: "from-mcp-json"},
			}},
		{name: ".pincer.json wins over .mcp.json, the user's servers stay", mcp: mcpJSON,
			user:    `{"mcp_servers": {"mine": {"command": "my-server"}}}`,
			project: `{"mcp_servers": {"both": {"command": "from-pincer-json", "hide_tools": ["x"]}}}`,
			want: map[string]MCPServer{
				"mine": {Command: "my-server"},
				"fs":   {Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "."}, Env: map[string]string{"A": "1"}},
				"api":  {Type: "http", URL: "https://api.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${API_TOKEN}"}},
				"both": {Command: "from-pincer-json", HideTools: []string{"x"}},
			}},
		{name: "ignored until trusted", mcp: mcpJSON, distrust: true,
			user: `{"mcp_servers": {"mine": {"command": "my-server"}}}`,
			want: map[string]MCPServer{"mine": {Command: "my-server"}}, ignored: true,
			warning: ".mcp.json starts the MCP servers api, both, fs"},
		{name: "a project's mcp_servers are ignored until trusted", distrust: true,
			project: `{"mcp_servers": {"evil": {"command": "curl"}}, "max_iterations": 5}`,
			want:    nil, ignored: true, warning: "mcp_servers"},
		{name: "a broken .mcp.json is a warning, not an error", mcp: `{"mcpServers": [1]}`,
			want: nil, warning: ".mcp.json is not valid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			if tt.user != "" {
				w.writeUser(t, tt.user)
			}
			if tt.project != "" {
				w.writeProject(t, tt.project)
			}
			if tt.mcp != "" {
				writeFile(t, filepath.Join(w.root, MCPFileName), tt.mcp)
			}
			c, s, err := Load(LoadOptions{ProjectRoot: w.root, Getenv: w.env.get, DistrustProject: tt.distrust})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.MCPServers, tt.want) {
				t.Errorf("mcp_servers = %#v\nwant %#v", c.MCPServers, tt.want)
			}
			if got := slices.Contains(s.Ignored, "mcp_servers"); got != tt.ignored {
				t.Errorf("ignored = %v (%v), want %v", got, s.Ignored, tt.ignored)
			}
			if tt.warning != "" && !strings.Contains(strings.Join(s.Warnings, "\n"), tt.warning) {
				t.Errorf("warnings %q lack %q", s.Warnings, tt.warning)
			}
			if !tt.distrust && tt.mcp != "" && tt.want != nil {
				if src := s.Of("mcp_servers"); src.Kind != FromProjectFile {
					t.Errorf("source %v", src)
				}
				if !slices.Contains(s.ProjectSensitive(), "mcp_servers") {
					t.Errorf("ProjectSensitive %v lacks mcp_servers", s.ProjectSensitive())
				}
			}
		})
	}
}

// TestRedactedHidesWrittenOutTokens: pincer config shows where a token
// comes from, never a token written in a file.
func TestRedactedHidesWrittenOutTokens(t *testing.T) {
	c := Config{MCPServers: map[string]MCPServer{"gh": {
		URL:     "https://user:pw@example.com/mcp",
		Headers: map[string]string{"Authorization": "Bearer ghp_secret", "X-Token": "${GH_TOKEN}"},
		Env:     map[string]string{"TOKEN": "abc123", "HOME_DIR": "${HOME}/x"},
	}}}
	r := c.Redacted().MCPServers["gh"]
	if r.Headers["Authorization"] != redactedKey || r.Headers["X-Token"] != "${GH_TOKEN}" || r.Env["TOKEN"] != redactedKey || r.Env["HOME_DIR"] != "${HOME}/x" || strings.Contains(r.URL, "pw") {
		t.Fatalf("redacted: %+v", r)
	}
	if c.MCPServers["gh"].Headers["Authorization"] != "Bearer ghp_secret" {
		t.Fatal("Redacted changed the original")
	}
}

// TestServersSayWhichFileDescribesThem: servers are merged by name from
// the user file, .mcp.json and .pincer.json; Sources.Servers names the
// file each one came from, the highest for a name given twice.
func TestServersSayWhichFileDescribesThem(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"mcp_servers": {"mine": {"command": "a"}}}`)
	writeFile(t, filepath.Join(w.root, MCPFileName), `{"mcpServers": {"fs": {"command": "b"}, "both": {"command": "c"}}}`)
	w.writeProject(t, `{"mcp_servers": {"both": {"command": "d"}, "own": {"command": "e"}}}`)
	_, s := w.mustLoad(t, Overrides{})
	want := map[string]string{"mine": w.userPath(), "fs": filepath.Join(w.root, MCPFileName), "both": w.projectPath(), "own": w.projectPath()}
	got := map[string]string{}
	for name, src := range s.Servers {
		got[name] = src.Name
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Servers = %v\nwant %v", got, want)
	}
}
