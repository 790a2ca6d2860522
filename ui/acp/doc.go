// Package acp is pincer's front end for editors: `pincer acp` speaks the
// Agent Client Protocol (ACP v1, JSON-RPC 2.0 over standard input and
// output) with an editor such as Zed, a JetBrains IDE, Neovim or Emacs.
//
// It is a front end like the screen and ui/headless: it drives the same
// agent.Agent and answers the same agent.Approval questions, mapped onto
// ACP — the model's answer and reasoning stream as session/update chunks,
// tool calls as tool_call updates with their kind, locations and diffs,
// todo_write's list as the plan, and every question the screen would ask
// as session/request_permission (a dangerous action as two separate
// requests, never with an "always" option). When the editor offers its
// file system, the file tools read and write its buffers. The classifier,
// path policy, sandbox, hooks and checkpoints are the agent's, unchanged.
// The model's words reach the editor with images and raw HTML made inert
// (inert.go), since an editor rendering them would fetch without a click.
//
// The JSON-RPC layer is pincer's own (jsonrpc.go): every line that is not
// a message gets a JSON-RPC error, and nothing but messages is written.
package acp
