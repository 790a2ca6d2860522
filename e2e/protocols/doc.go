// Package protocols holds the end-to-end tests of pincer's other front
// ends and servers: ACP for editors, MCP servers (an SDK server and the
// reference servers from npm) and the Telegram bot, through the built binary.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package protocols
