// Package procgroup starts the programs pincer runs (commands, hooks,
// MCP and language servers) so that what they start in turn can be ended
// with them, and ends them. One home for it, so every caller kills the
// same way: a shell that backgrounds a job, or npx that starts node, must
// not leave that job running after pincer stopped the program.
//
// On Unix a group is a process group, killed as a whole with SIGKILL.
// Windows has no such groups: a running program's tree is ended with
// taskkill (Stop), otherwise only the program itself is killed.
package procgroup
