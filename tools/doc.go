// Package tools holds what the model can do in a project: the Tool and Call
// interfaces, a Registry, JSON Schemas generated from each tool's Go argument
// struct, and the built-in tools (tree_view, read_file, write_file, edit_file,
// run_command, grep, glob, read_web).
//
// The package never decides whether a call may run. Each decoded Call reports
// in Access what it would read, write, execute or fetch, so the agent can ask
// the safety policy first; a fetch (Fetcher) connects only to public
// addresses and the ones the person approved (WebGrant); edits implement Planner so a person can review the
// diff before Apply writes it.
package tools
