// Package protocols holds the end-to-end tests of pincer speaking to other
// programs: editors over ACP, MCP servers (an SDK server and the reference
// servers from npm), language servers (gopls) and the Telegram bot, through
// the built binary.
//
// The tests build pincer once (e2etest.Main) and are skipped by go test -short.
package protocols
