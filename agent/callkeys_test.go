package agent

import (
	"reflect"
	"testing"
)

func TestCallKeys(t *testing.T) {
	cases := []struct {
		name     string
		streamed []ToolCallDelta // in the order they arrive
		calls    []ToolCall      // the finished reply
		want     []string
	}{
		{"ids match", []ToolCallDelta{{Index: 0, ID: "a"}, {Index: 1, ID: "b"}, {Index: 0, ArgsSoFar: "{}"}},
			[]ToolCall{{ID: "a"}, {ID: "b"}}, []string{"pincer-call-1", "pincer-call-2"}},
		{"reply in another order", []ToolCallDelta{{Index: 0, ID: "a"}, {Index: 1, ID: "b"}},
			[]ToolCall{{ID: "b"}, {ID: "a"}}, []string{"pincer-call-2", "pincer-call-1"}},
		{"no ids: by position", []ToolCallDelta{{Index: 0}, {Index: 1}},
			[]ToolCall{{ID: "call_0"}, {ID: "call_1"}}, []string{"pincer-call-1", "pincer-call-2"}},
		{"a dropped empty call is skipped", []ToolCallDelta{{Index: 0, ID: "a"}, {Index: 1}, {Index: 2, ID: "c"}},
			[]ToolCall{{ID: "a"}, {ID: "c"}}, []string{"pincer-call-1", "pincer-call-3"}},
		{"never streamed", nil, []ToolCall{{ID: "x"}}, []string{"pincer-call-1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := &Agent{}
			k := a.newCallKeys()
			var got []ToolCallDelta
			sink := k.watch(func(ev Event) { got = append(got, ev.(ToolCallDelta)) })
			for _, d := range c.streamed {
				sink(d)
			}
			for i, d := range got {
				if d.Call == "" || d.Call != k.byIndex[c.streamed[i].Index] {
					t.Errorf("delta %d carries key %q", i, d.Call)
				}
			}
			if keys := k.assign(c.calls); !reflect.DeepEqual(keys, c.want) {
				t.Errorf("keys = %q, want %q", keys, c.want)
			}
		})
	}
	// Keys stay unique across requests even when the server's ids repeat.
	a := &Agent{}
	first := a.newCallKeys()
	first.watch(func(Event) {})(ToolCallDelta{Index: 0, ID: "call_0"})
	second := a.newCallKeys()
	second.watch(func(Event) {})(ToolCallDelta{Index: 0, ID: "call_0"})
	if k1, k2 := first.assign([]ToolCall{{ID: "call_0"}}), second.assign([]ToolCall{{ID: "call_0"}}); k1[0] == k2[0] {
		t.Errorf("two requests gave the same key %q", k1[0])
	}
}
