package tools_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"pincer/tools"
	"pincer/tools/todo"
)

// TestSchemasGolden pins every built-in tool as the model is sent it: the
// name, the description and the parameters as JSON, in the ordinary form
// and in the form strict providers demand (StrictParameters). A change of
// schema library or of a struct tag that changes a byte shows here; run
// with -update to accept a change that is meant.
func TestSchemasGolden(t *testing.T) {
	all := append(tools.Builtins(tools.Options{Root: "/project"}), todo.Tool())
	golden.RequireEqual(t, schemaText(t, all))
}

// schemaText writes each tool's name, description and both forms of its
// parameters, exactly as encoding/json puts them on the wire.
func schemaText(t *testing.T, all []tools.Tool) string {
	t.Helper()
	var b strings.Builder
	for _, tool := range all {
		params, err := json.Marshal(tool.Parameters())
		if err != nil {
			t.Fatal(err)
		}
		strict, err := json.Marshal(tools.StrictParameters(tool))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("== " + tool.Name() + "\n" + tool.Description() + "\n-- parameters\n" + string(params) + "\n-- strict\n" + string(strict) + "\n\n")
	}
	return b.String()
}
