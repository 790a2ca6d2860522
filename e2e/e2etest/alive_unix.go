//go:build !windows

package e2etest

import "pincer/agent/agenttest"

// alive reports whether the process pid is still running.
func alive(pid int) bool { return agenttest.Alive(pid) }
