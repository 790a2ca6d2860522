// Package tools holds what the model can do in a project: the Tool and Call
// interfaces, a Registry, JSON Schemas generated from each tool's Go argument
// struct, and the built-in tools (tree_view, read_file, write_file, edit_file,
// run_command, grep, glob).
//
// The package never decides whether a call may run. Each decoded Call reports
// in Access what it would read, write or execute, so the agent can ask the
// safety policy first; edits implement Planner so a person can review the
// diff before Apply writes it.
package tools
