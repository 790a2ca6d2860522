package tools

import "fmt"

// Builtins returns the built-in tools configured for one project, read-only
// tools first: tree_view, read_file, grep, glob, read_web, write_file,
// edit_file, run_command.
func Builtins(o Options) []Tool {
	o = o.withDefaults()
	return []Tool{
		mustTool(treeViewTool(o)),
		mustTool(readFileTool(o)),
		mustTool(grepTool(o)),
		mustTool(globTool(o)),
		mustTool(readWebTool(o)),
		mustTool(writeFileTool(o)),
		mustTool(editFileTool(o)),
		mustTool(runCommandTool(o)),
	}
}

// mustTool unwraps New for the built-ins, whose argument structs are fixed
// at compile time and covered by tests; a failure is a bug in this package.
func mustTool(t Tool, err error) Tool {
	if err != nil {
		panic(fmt.Sprintf("tools: built-in tool is malformed: %v", err))
	}
	return t
}
