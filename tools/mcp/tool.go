package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/internal/human"
	"pincer/tools"
)

// maxDescription caps a server's tool description sent to the model.
const maxDescription = 4000

// ToolName is the name the model calls a server's tool by:
// mcp__SERVER__TOOL with every character OpenAI-compatible APIs refuse
// replaced by '_', and shortened with a hash when it would pass 64
// characters.
func ToolName(server, tool string) string {
	name := "mcp__" + sanitize(server) + "__" + sanitize(tool)
	if len(name) <= 64 {
		return name
	}
	return hashedName(name, server+"\x00"+tool)
}

// hashedName shortens name to 64 characters, ending in a hash of key so
// that two long names stay apart.
func hashedName(name, key string) string {
	sum := sha256.Sum256([]byte(key))
	suffix := "_" + hex.EncodeToString(sum[:])[:8]
	return name[:min(len(name), 64-len(suffix))] + suffix
}

// sanitize keeps letters, digits, '_' and '-', and replaces the rest.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// Tool is one tool of an MCP server, offered to the model.
type Tool struct {
	m        *Manager
	server   Server
	tool     string // the name on the server
	name     string // the name the model calls
	desc     string
	params   map[string]any
	readOnly bool
}

func newTool(m *Manager, s Server, t *sdk.Tool, name string) *Tool {
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = fmt.Sprintf("The tool %s of the MCP server %s.", t.Name, s.Name)
	}
	if len(desc) > maxDescription {
		desc = strings.ToValidUTF8(desc[:maxDescription], "") + "…"
	}
	readOnly := t.Annotations != nil && t.Annotations.ReadOnlyHint
	return &Tool{m: m, server: s, tool: t.Name, name: name, desc: desc, params: schema(t.InputSchema), readOnly: readOnly}
}

// schema is the server's input schema as an object a strict provider
// accepts: type object with properties, without the $schema keyword.
func schema(in any) map[string]any {
	var out map[string]any
	switch v := in.(type) {
	case map[string]any:
		out = maps.Clone(v)
	default:
		if raw, err := json.Marshal(in); err == nil {
			_ = json.Unmarshal(raw, &out)
		}
	}
	if out == nil {
		out = map[string]any{}
	}
	delete(out, "$schema")
	out["type"] = "object"
	if _, ok := out["properties"].(map[string]any); !ok {
		out["properties"] = map[string]any{}
	}
	return out
}

// size is about how many bytes the tool costs in every request: its
// name, description and schema as sent.
func (t *Tool) size() int {
	raw, _ := json.Marshal(t.params)
	return len(t.name) + len(t.desc) + len(raw)
}

// Name implements tools.Tool.
func (t *Tool) Name() string { return t.name }

// Description implements tools.Tool: the server's own description.
func (t *Tool) Description() string { return t.desc }

// Parameters implements tools.Tool: the server's own JSON Schema.
func (t *Tool) Parameters() map[string]any { return t.params }

// Mutates implements tools.Tool: everything but a tool that declares
// readOnlyHint may change something.
func (t *Tool) Mutates() bool { return !t.readOnly }

// Server is the name of the tool's server.
func (t *Tool) Server() string { return t.server.Name }

// Decode implements tools.Tool: the arguments must be a JSON object; the
// server checks them against its schema.
func (t *Tool) Decode(arguments string) (tools.Call, error) {
	raw := strings.TrimSpace(arguments)
	if raw == "" {
		raw = "{}"
	}
	var args map[string]any
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber() // numbers go to the server, and to the dialog, as written
	if err := dec.Decode(&args); err != nil || args == nil || dec.More() {
		return nil, fmt.Errorf("the arguments of %s must be a JSON object that follows its schema, such as {}", t.name)
	}
	return &call{t: t, args: args}, nil
}

// call is one decoded call of an MCP tool.
type call struct {
	t    *Tool
	args map[string]any
}

// Summary implements tools.Call: the server, the tool and the arguments
// on one line.
func (c *call) Summary() string {
	compact, _ := json.Marshal(c.args)
	s := string(compact)
	if len(s) > 120 {
		s = strings.ToValidUTF8(s[:120], "") + "…"
	}
	return fmt.Sprintf("%s %s %s", c.t.server.Name, c.t.tool, s)
}

// Access implements tools.Call.
func (c *call) Access() tools.Access {
	pretty, _ := json.MarshalIndent(c.args, "", "  ")
	return tools.Access{MCP: &tools.MCPUse{
		Server: c.t.server.Name, Tool: c.t.tool, Name: c.t.name,
		ReadOnly: c.t.readOnly, Trusted: c.t.server.Trusted, Arguments: string(pretty),
	}}
}

// Run implements tools.Call: it calls the tool on its server, within the
// call timeout, and turns the result into text for the model.
func (c *call) Run(ctx context.Context) (tools.Result, error) {
	m := c.t.m
	cs, state, why := m.session(c.t.server.Name)
	if cs == nil {
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %s is not ready (%s), so %s was not called. Try again later or do without it.", c.t.server.Name, why, c.t.tool)}, nil
	}
	cctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	res, err := cs.CallTool(cctx, &sdk.CallToolParams{Name: c.t.tool, Arguments: c.args})
	switch {
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case err != nil && errors.Is(cctx.Err(), context.DeadlineExceeded):
		return tools.Result{IsError: true, Content: fmt.Sprintf("%s on the MCP server %s did not answer within %s, so pincer stopped waiting (mcp_timeout).", c.t.tool, c.t.server.Name, m.opts.Timeout)}, nil
	case err != nil:
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %s could not run %s: %v", c.t.server.Name, c.t.tool, state.explain(err))}, nil
	}
	return tools.Result{Content: tools.CapText(Text(res), m.opts.MaxOutput), IsError: res.IsError}, nil
}

// Text is a tool result as the model reads it: the text parts joined,
// and a short note (type and size) for each image, audio clip or
// resource, whose bytes a text model cannot use.
func Text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch v := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, v.Text)
		case *sdk.ImageContent:
			parts = append(parts, fmt.Sprintf("[image: %s, %s, not shown]", orUnknown(v.MIMEType), human.Bytes(int64(len(v.Data)))))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %s, not shown]", orUnknown(v.MIMEType), human.Bytes(int64(len(v.Data)))))
		case *sdk.ResourceLink:
			note := "[resource link: " + v.URI
			if v.MIMEType != "" {
				note += ", " + v.MIMEType
			}
			if v.Size != nil {
				note += ", " + human.Bytes(*v.Size)
			}
			parts = append(parts, note+"]")
		case *sdk.EmbeddedResource:
			if v.Resource == nil {
				parts = append(parts, "[resource: empty]")
				continue
			}
			n, kind := int64(len(v.Resource.Text)), "text"
			if len(v.Resource.Blob) > 0 {
				n, kind = int64(len(v.Resource.Blob)), "binary"
			}
			parts = append(parts, fmt.Sprintf("[resource: %s, %s, %s of %s, not shown]", v.Resource.URI, orUnknown(v.Resource.MIMEType), human.Bytes(n), kind))
		default:
			parts = append(parts, fmt.Sprintf("[%T content, not shown]", c))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.MarshalIndent(res.StructuredContent, "", "  "); err == nil {
			parts = append(parts, string(b))
		}
	}
	if len(parts) == 0 {
		return "(the tool returned nothing)"
	}
	return strings.Join(parts, "\n")
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}
