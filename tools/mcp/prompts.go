package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/internal/human"
)

// Prompt is a prompt a server offers, which the person runs as the
// command /mcp__SERVER__PROMPT. Its texts are the server's: foreign.
type Prompt struct {
	Server, Name, Description string
	Args                      []PromptArg
}

// PromptArg is one argument of a prompt.
type PromptArg struct {
	Name, Description string
	Required          bool
}

// Command is the name the prompt is run by, without the slash.
func (p Prompt) Command() string { return ToolName(p.Server, p.Name) }

// Limits on a server's prompts and on what one prompt or resource gives.
const (
	maxPrompts       = 100
	maxPromptText    = 100 << 10
	maxResourceBytes = 100 << 10
)

// listPrompts reads the prompts of a server that offers any, up to
// maxPrompts; a server that fails to list them still gives its tools.
func listPrompts(ctx context.Context, server string, cs *sdk.ClientSession) []Prompt {
	if init := cs.InitializeResult(); init == nil || init.Capabilities == nil || init.Capabilities.Prompts == nil {
		return nil
	}
	var out []Prompt
	cursor := ""
	for page := 0; page < maxToolPages && len(out) < maxPrompts; page++ {
		res, err := cs.ListPrompts(ctx, &sdk.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return out
		}
		for _, p := range res.Prompts {
			if checkToolName(p.Name) != nil || len(out) == maxPrompts {
				continue
			}
			pr := Prompt{Server: server, Name: p.Name, Description: cut(p.Description, 300)}
			for _, a := range p.Arguments {
				if a != nil && checkToolName(a.Name) == nil {
					pr.Args = append(pr.Args, PromptArg{Name: a.Name, Description: cut(a.Description, 200), Required: a.Required})
				}
			}
			out = append(out, pr)
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	return out
}

// Prompts returns the prompts of the servers that are ready now.
func (m *Manager) Prompts() []Prompt {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Prompt
	for _, s := range m.servers {
		if s.status == StatusReady {
			out = append(out, s.prompts...)
		}
	}
	return out
}

// ParseArgs reads what the person typed after the command into the
// prompt's arguments: NAME=value pairs, or else the words in the order of
// the arguments, the last argument taking the rest of the line.
func (p Prompt) ParseArgs(line string) (map[string]string, error) {
	line = strings.TrimSpace(line)
	args := map[string]string{}
	fields := strings.Fields(line)
	named := len(fields) > 0
	for _, f := range fields {
		name, _, ok := strings.Cut(f, "=")
		named = named && ok && slices.ContainsFunc(p.Args, func(a PromptArg) bool { return a.Name == name })
	}
	switch {
	case named:
		for _, f := range fields {
			name, value, _ := strings.Cut(f, "=")
			args[name] = value
		}
	case line != "" && len(p.Args) == 0:
		return nil, fmt.Errorf("/%s takes no arguments", p.Command())
	default:
		rest := line
		for i, a := range p.Args {
			if rest == "" {
				break
			}
			if i == len(p.Args)-1 {
				args[a.Name] = rest
				break
			}
			word, more, _ := strings.Cut(rest, " ")
			args[a.Name], rest = word, strings.TrimSpace(more)
		}
	}
	var missing []string
	for _, a := range p.Args {
		if a.Required && args[a.Name] == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("/%s needs %s; give %s", p.Command(), strings.Join(missing, " and "), p.Usage())
	}
	return args, nil
}

// Usage is how the prompt's arguments are written after its command.
func (p Prompt) Usage() string {
	var parts []string
	for _, a := range p.Args {
		if a.Required {
			parts = append(parts, strings.ToUpper(a.Name))
		} else {
			parts = append(parts, "["+strings.ToUpper(a.Name)+"]")
		}
	}
	return strings.Join(parts, " ")
}

// GetPrompt asks the server for the prompt with args and returns it as
// the text of a prompt to the model: its messages' text, each labelled
// with its role when the prompt holds more than the person's words.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	cs, state, why := m.session(server)
	if cs == nil {
		return "", fmt.Errorf("the MCP server %s is not ready (%s)", server, why)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	res, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("the MCP server %s could not give the prompt %s: %w", server, name, state.explain(err))
	}
	allUser := !slices.ContainsFunc(res.Messages, func(msg *sdk.PromptMessage) bool { return msg != nil && msg.Role != "user" })
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		text := contentText(msg.Content)
		if !allUser {
			text = string(msg.Role) + ": " + text
		}
		parts = append(parts, text)
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("the prompt %s of the MCP server %s is empty", name, server)
	}
	out := strings.Join(parts, "\n\n")
	if len(out) > maxPromptText {
		return "", fmt.Errorf("the prompt %s of the MCP server %s is %s, more than the %s pincer sends as a prompt", name, server, human.Bytes(int64(len(out))), human.Bytes(maxPromptText))
	}
	return out, nil
}

// contentText is one piece of content as text for the model.
func contentText(c sdk.Content) string {
	return Text(&sdk.CallToolResult{Content: []sdk.Content{c}})
}

// ReadResource reads the resource uri of a ready server, as text for the
// model: a text resource up to maxResourceBytes (the cut said), a binary
// one as a note of its type and size.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) (text string, err error) {
	cs, state, why := m.session(server)
	if cs == nil {
		return "", fmt.Errorf("the MCP server %s is not ready (%s)", server, why)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return "", fmt.Errorf("the MCP server %s could not read %s: %w", server, uri, state.explain(err))
	}
	var parts []string
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		switch {
		case len(c.Blob) > 0 || (c.Text == "" && !strings.HasPrefix(c.MIMEType, "text/")):
			parts = append(parts, fmt.Sprintf("[resource %s: %s, %s of binary, not shown]", c.URI, orUnknown(c.MIMEType), human.Bytes(int64(len(c.Blob)))))
		case len(c.Text) > maxResourceBytes:
			cutAt := maxResourceBytes
			for cutAt > 0 && !utf8.RuneStart(c.Text[cutAt]) {
				cutAt--
			}
			parts = append(parts, c.Text[:cutAt]+fmt.Sprintf("\n[cut: the first %s of %s]", human.Bytes(int64(cutAt)), human.Bytes(int64(len(c.Text)))))
		default:
			parts = append(parts, c.Text)
		}
	}
	if len(parts) == 0 {
		return "", errors.New("it has no contents")
	}
	return strings.Join(parts, "\n"), nil
}

// HasServer reports whether a server of that name is configured.
func (m *Manager) HasServer(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.ContainsFunc(m.servers, func(s *server) bool { return s.cfg.Name == name })
}
