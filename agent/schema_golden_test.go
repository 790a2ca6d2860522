package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"pincer/session"
	"pincer/tools"
	"pincer/tools/sessiontools"
)

// TestToolSchemasGolden pins the agent's own tools as the model is sent
// them, in the ordinary and the strict form, as tools' TestSchemasGolden
// pins the built-ins; run with -update to accept a change that is meant.
func TestToolSchemasGolden(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "pincer.db"), session.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	current := func() string { return "" }
	var all []tools.Tool
	for _, build := range []func() (tools.Tool, error){
		func() (tools.Tool, error) { return sessiontools.RememberTool(st, "/project") },
		func() (tools.Tool, error) {
			return sessiontools.RecallTool(st, sessiontools.RecallScope{Dir: "/project"}, current)
		},
		func() (tools.Tool, error) {
			return sessiontools.ScheduleTool(st, sessiontools.TaskPlace{Dir: "/project"}, current, func() time.Time { return time.Unix(0, 0) })
		},
		func() (tools.Tool, error) {
			return taskTool([]AgentDef{{Name: "scout", Description: "Reads the code."}})
		},
	} {
		tool, err := build()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, tool)
	}
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
	golden.RequireEqual(t, b.String())
}
