package tools

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// probeArgs has an argument of every kind a tool's schema can state:
// required and optional, each JSON type, bounds, a set of values and lists.
type probeArgs struct {
	Name  string   `json:"name" jsonschema_description:"A name."`
	Count int      `json:"count,omitempty" jsonschema:"minimum=1,maximum=20"`
	Ratio float64  `json:"ratio,omitempty" jsonschema:"minimum=0,maximum=1"`
	Mode  string   `json:"mode,omitempty" jsonschema:"enum=fast,enum=slow"`
	Level int      `json:"level,omitempty" jsonschema:"enum=1,enum=2"`
	Tags  []string `json:"tags,omitempty"`
	Sizes []int    `json:"sizes,omitempty"`
	Flag  bool     `json:"flag,omitempty"`
}

// TestDecodeMessagesGolden pins, word for word, what the model reads when
// its arguments break the schema: for a probe tool with every kind of
// argument and for the built-ins. Whatever checks the schema, the model
// must be told the same.
func TestDecodeMessagesGolden(t *testing.T) {
	probe, err := New(Spec[probeArgs]{Name: "probe", Example: probeArgs{Name: "a"}, Bind: func(probeArgs) Call { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool Tool
		args string
	}{
		{probe, `{}`},
		{probe, `{"name": "a"}`},
		{probe, `{"name": 1}`},
		{probe, `{"name": true}`},
		{probe, `{"name": {"a": 1}}`},
		{probe, `{"name": "a", "count": 0}`},
		{probe, `{"name": "a", "count": 21}`},
		{probe, `{"name": "a", "count": 2.5}`},
		{probe, `{"name": "a", "count": 3.0}`},
		{probe, `{"name": "a", "count": 1e1}`},
		{probe, `{"name": "a", "count": -1e400}`},
		{probe, `{"name": "a", "ratio": 1.5}`},
		{probe, `{"name": "a", "ratio": -0.25}`},
		{probe, `{"name": "a", "ratio": "half"}`},
		{probe, `{"name": "a", "mode": "medium"}`},
		{probe, `{"name": "a", "mode": 3}`},
		{probe, `{"name": "a", "mode": "fast"}`},
		{probe, `{"name": "a", "level": 3}`},
		{probe, `{"name": "a", "level": 2.0}`},
		{probe, `{"name": "a", "tags": "x"}`},
		{probe, `{"name": "a", "tags": ["x", 2, null, ["y"]]}`},
		{probe, `{"name": "a", "sizes": [1, 2.5, "3"]}`},
		{probe, `{"name": "a", "flag": "yes"}`},
		{probe, `{"name": "a", "flag": 1}`},
		{probe, `{"name": "a", "other": 1, "more": 2}`},
		{probe, `{"count": 0, "mode": "x", "extra": true}`},
		{probe, `{"name": null}`},
		{probe, `{"name": "a", "count": null, "tags": null}`},
		{probe, `{"name": "a", "name": 2}`},
	}
	for _, tool := range Builtins(Options{Root: "/project"}) {
		cases = append(cases,
			struct {
				tool Tool
				args string
			}{tool, `{"zzz": 1}`},
			struct {
				tool Tool
				args string
			}{tool, `{"path": 1, "pattern": 2, "command": 3, "url": 4, "limit": -1, "offset": "x", "timeout": 0, "max_depth": 99}`})
	}
	var b strings.Builder
	for _, c := range cases {
		b.WriteString(c.tool.Name() + " " + c.args + "\n")
		if _, err := c.tool.Decode(c.args); err != nil {
			var ae *ArgumentError
			if !errors.As(err, &ae) {
				t.Fatalf("%s: error %T is not an *ArgumentError", c.args, err)
			}
			b.WriteString("  " + ae.Problem + "\n")
		} else {
			b.WriteString("  ok\n")
		}
	}
	golden.RequireEqual(t, b.String())
}
