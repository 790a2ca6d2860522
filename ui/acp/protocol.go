package acp

import "encoding/json"

// The types below are the part of ACP v1 pincer speaks, named and shaped
// as in the official schema (schema/v1/schema.json of the npm package
// @agentclientprotocol/sdk); the tests validate every message pincer sends
// against that schema.

// protocolVersion is the ACP version pincer speaks.
const protocolVersion = 1

type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// initializeRequest is read leniently, as the schema asks: a version
// pincer does not speak is answered with the one it does, and
// capabilities that do not parse count as none.
type initializeRequest struct {
	ProtocolVersion    json.RawMessage `json:"protocolVersion"`
	ClientCapabilities json.RawMessage `json:"clientCapabilities"`
}

type clientCapabilities struct {
	FS struct {
		ReadTextFile  bool `json:"readTextFile"`
		WriteTextFile bool `json:"writeTextFile"`
	} `json:"fs"`
	Terminal bool `json:"terminal"`
	Session  *struct {
		Notices *json.RawMessage `json:"notices,omitempty"`
	} `json:"session,omitempty"`
}

// notices reports whether the editor shows `notice` updates.
func (c clientCapabilities) notices() bool {
	return c.Session != nil && c.Session.Notices != nil && string(*c.Session.Notices) != "null"
}

type initializeResponse struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities agentCapabilities `json:"agentCapabilities"`
	AuthMethods       []struct{}        `json:"authMethods"`
	AgentInfo         implementation    `json:"agentInfo"`
}

type agentCapabilities struct {
	LoadSession        bool `json:"loadSession"`
	PromptCapabilities struct {
		Image           bool `json:"image"`
		Audio           bool `json:"audio"`
		EmbeddedContext bool `json:"embeddedContext"`
	} `json:"promptCapabilities"`
	MCPCapabilities struct {
		HTTP bool `json:"http"`
		SSE  bool `json:"sse"`
	} `json:"mcpCapabilities"`
	SessionCapabilities struct {
		List *struct{} `json:"list,omitempty"`
	} `json:"sessionCapabilities"`
}

type newSessionRequest struct {
	Cwd        string            `json:"cwd"`
	MCPServers []json.RawMessage `json:"mcpServers"`
}

type loadSessionRequest struct {
	SessionID  string            `json:"sessionId"`
	Cwd        string            `json:"cwd"`
	MCPServers []json.RawMessage `json:"mcpServers"`
}

type sessionModeState struct {
	CurrentModeID  string        `json:"currentModeId"`
	AvailableModes []sessionMode `json:"availableModes"`
}

type sessionMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type newSessionResponse struct {
	SessionID string            `json:"sessionId"`
	Modes     *sessionModeState `json:"modes,omitempty"`
}

type loadSessionResponse struct {
	Modes *sessionModeState `json:"modes,omitempty"`
}

type listSessionsRequest struct {
	Cwd    *string `json:"cwd"`
	Cursor *string `json:"cursor"`
}

type sessionInfo struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
}

type listSessionsResponse struct {
	Sessions []sessionInfo `json:"sessions"`
}

type promptRequest struct {
	SessionID string         `json:"sessionId"`
	Prompt    []contentBlock `json:"prompt"`
}

type promptResponse struct {
	StopReason string `json:"stopReason"`
}

// The stop reasons of a prompt turn.
const (
	stopEndTurn   = "end_turn"
	stopMaxTurns  = "max_turn_requests"
	stopCancelled = "cancelled"
)

type sessionIDParams struct {
	SessionID string `json:"sessionId"`
}

type setModeRequest struct {
	SessionID string `json:"sessionId"`
	ModeID    string `json:"modeId"`
}

// contentBlock is one piece of a prompt or a message: text, a link to a
// resource, or a resource embedded with its content (images and audio are
// not offered).
type contentBlock struct {
	Type     string            `json:"type"`
	Text     string            `json:"text,omitempty"`
	URI      string            `json:"uri,omitempty"`
	Name     string            `json:"name,omitempty"`
	MimeType string            `json:"mimeType,omitempty"`
	Resource *embeddedResource `json:"resource,omitempty"`
}

// textBlock is a text content block; its text is always written, empty
// or not.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func text(s string) textBlock { return textBlock{Type: "text", Text: s} }

type embeddedResource struct {
	URI      string  `json:"uri"`
	Text     *string `json:"text,omitempty"`
	Blob     *string `json:"blob,omitempty"`
	MimeType string  `json:"mimeType,omitempty"`
}

type sessionNotification struct {
	SessionID string `json:"sessionId"`
	Update    any    `json:"update"`
}

// contentChunk is a user_message_chunk, agent_message_chunk or
// agent_thought_chunk.
type contentChunk struct {
	SessionUpdate string    `json:"sessionUpdate"`
	Content       textBlock `json:"content"`
}

// toolCall is a tool_call update (SessionUpdate set) or, in a permission
// request, the call asked about (SessionUpdate empty).
type toolCall struct {
	SessionUpdate string             `json:"sessionUpdate,omitempty"`
	ToolCallID    string             `json:"toolCallId"`
	Title         string             `json:"title,omitempty"`
	Kind          string             `json:"kind,omitempty"`
	Status        string             `json:"status,omitempty"`
	Content       []toolCallContent  `json:"content,omitempty"`
	Locations     []toolCallLocation `json:"locations,omitempty"`
	RawInput      json.RawMessage    `json:"rawInput,omitempty"`
}

// The statuses of a tool call.
const (
	statusPending    = "pending"
	statusInProgress = "in_progress"
	statusCompleted  = "completed"
	statusFailed     = "failed"
)

// toolCallContent is text ("content") or a diff ("diff") shown with a
// tool call.
type toolCallContent struct {
	Type    string     `json:"type"`
	Content *textBlock `json:"content,omitempty"`
	Path    string     `json:"path,omitempty"`
	OldText *string    `json:"oldText,omitempty"`
	NewText *string    `json:"newText,omitempty"`
}

func textContent(s string) toolCallContent {
	b := text(s)
	return toolCallContent{Type: "content", Content: &b}
}

func diffContent(path string, oldText *string, newText string) toolCallContent {
	return toolCallContent{Type: "diff", Path: path, OldText: oldText, NewText: &newText}
}

type toolCallLocation struct {
	Path string `json:"path"`
	Line *int   `json:"line,omitempty"`
}

type planUpdate struct {
	SessionUpdate string      `json:"sessionUpdate"`
	Entries       []planEntry `json:"entries"`
}

type planEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

type commandsUpdate struct {
	SessionUpdate     string             `json:"sessionUpdate"`
	AvailableCommands []availableCommand `json:"availableCommands"`
}

type availableCommand struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Input       *commandInput `json:"input,omitempty"`
}

type commandInput struct {
	Hint string `json:"hint"`
}

type modeUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	CurrentModeID string `json:"currentModeId"`
}

type noticeUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	Severity      string `json:"severity"`
	Title         string `json:"title"`
}

type permissionRequest struct {
	SessionID string             `json:"sessionId"`
	ToolCall  toolCall           `json:"toolCall"`
	Options   []permissionOption `json:"options"`
}

type permissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

// The kinds of permission options.
const (
	allowOnce   = "allow_once"
	allowAlways = "allow_always"
	rejectOnce  = "reject_once"
)

type permissionResponse struct {
	Outcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId"`
	} `json:"outcome"`
}

type readTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
}

type readTextFileResponse struct {
	Content *string `json:"content"`
}

type writeTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Content   string `json:"content"`
}
