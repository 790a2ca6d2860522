//go:build windows

package mcp

import "os/exec"

// ownGroup does nothing here: the server's own process is stopped.
func ownGroup(*exec.Cmd) {}

// killGroup does nothing here.
func killGroup(*exec.Cmd) {}
