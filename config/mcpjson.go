package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"pincer/internal/safefile"
)

// MCPFileName is the project file in which other coding tools keep their
// MCP servers ({"mcpServers": {...}}); pincer reads it too, so an existing
// setup works unchanged.
const MCPFileName = ".mcp.json"

// MCPConfigPath returns a project's .mcp.json.
func MCPConfigPath(root string) string {
	return filepath.Join(root, MCPFileName)
}

// mcpLayer reads a project's .mcp.json into a layer that sets only
// mcp_servers. The file belongs to other tools as much as to pincer, so
// one that cannot be read or parsed is left out with a warning.
func (ld *loader) mcpLayer(root string) (layer, bool) {
	path := MCPConfigPath(root)
	data, err := safefile.Read(path, safefile.Options{Within: root, Name: MCPFileName})
	var refused *safefile.Error
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return layer{}, false
	case errors.As(err, &refused):
		ld.warnings = append(ld.warnings, refused.Sentence("pincer ignored it"))
		return layer{}, false
	case err != nil:
		ld.warnings = append(ld.warnings, fmt.Sprintf("cannot read %s (%v), so pincer ignored it", ld.tilde(path), err))
		return layer{}, false
	}
	var file struct {
		MCPServers map[string]MCPServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		ld.warnings = append(ld.warnings, fmt.Sprintf("%s is not valid (%v), so pincer ignored it; fix it so it holds {\"mcpServers\": {\"name\": {\"command\": ...}}}", ld.tilde(path), err))
		return layer{}, false
	}
	if len(file.MCPServers) == 0 {
		return layer{}, false
	}
	l := layer{sources: map[string]Source{"mcp_servers": {Kind: FromProjectFile, Name: path}}}
	l.values.MCPServers = file.MCPServers
	return l, true
}

// serverNames lists the servers of a layer, sorted, for messages.
func serverNames(servers map[string]MCPServer) string {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
