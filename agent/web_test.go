package agent

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/safety"
	"pincer/tools"
)

// webResolver answers from a table; a name listed twice answers its second
// address from the second lookup on (a name that rebinds).
type webResolver struct {
	addrs map[string][]string
	calls atomic.Int32
}

func (r *webResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	n := int(r.calls.Add(1))
	ss, ok := r.addrs[host]
	if !ok {
		return nil, fmt.Errorf("no such host %s", host)
	}
	s := ss[min(n, len(ss))-1]
	return []netip.Addr{netip.MustParseAddr(s)}, nil
}

// newWebHarness is a harness whose tools resolve names with r, under the
// given rules.
func newWebHarness(t *testing.T, r tools.Resolver, rules safety.Rules, url string) *harness {
	t.Helper()
	h := newHarness(t, 30,
		agenttest.Tools("", agenttest.Call{ID: "c1", Name: "read_web", Arguments: args(map[string]any{"url": url})}),
		agenttest.Text("ok", 10))
	reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: h.root, WebResolver: r, WebTimeout: 5 * time.Second})...)
	if err != nil {
		t.Fatal(err)
	}
	cls, err := safety.NewClassifier(rules)
	if err != nil {
		t.Fatal(err)
	}
	h.agent.opts.Tools, h.agent.classifier = reg, cls
	return h
}

func TestReadWebIsAskedAndRefusalReachesTheModel(t *testing.T) {
	r := &webResolver{addrs: map[string][]string{"docs.example.test": {"93.184.215.14"}}}
	const url = "https://docs.example.test/guide?page=2"
	h := newWebHarness(t, r, safety.Rules{}, url)
	h.answer = func(Approval) Decision { return Decision{Allow: false} }
	if _, err := h.run("read the guide"); err != nil {
		t.Fatal(err)
	}
	if got := h.toolMessages(1)[0]["content"]; got != Cancelled {
		t.Errorf("tool result %q, want %q", got, Cancelled)
	}
	if len(h.asked) != 1 {
		t.Fatalf("asked %d times, want once", len(h.asked))
	}
	a := h.asked[0]
	if a.Kind != ApproveWeb || a.Tier != safety.Confirm || a.URL != url || a.SuggestedRule != "read_web docs.example.test" || a.Tool != "read_web" {
		t.Errorf("asked %+v", a)
	}
}

func TestReadWebApprovals(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "local page body")
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	cases := []struct {
		name     string
		url      string
		addrs    map[string][]string
		rules    safety.Rules
		answers  []bool
		wantAsks int
		wantTier safety.Tier
		wantHit  bool
		want     string
	}{
		{name: "loopback asks twice, then fetches", url: srv.URL + "/", answers: []bool{true, true},
			wantAsks: 2, wantTier: safety.Dangerous, wantHit: true, want: "local page body"},
		{name: "loopback refused at the second step", url: srv.URL + "/", answers: []bool{true, false},
			wantAsks: 2, wantTier: safety.Dangerous, want: Cancelled},
		{name: "a name for a private address asks twice", url: "http://intranet.test:" + port + "/",
			addrs: map[string][]string{"intranet.test": {"127.0.0.1"}}, answers: []bool{true, true},
			wantAsks: 2, wantTier: safety.Dangerous, wantHit: true, want: "local page body"},
		{name: "an allow rule does not lower loopback", url: srv.URL + "/", rules: safety.Rules{Allow: []string{"read_web 127.0.0.1"}},
			answers: []bool{false}, wantAsks: 1, wantTier: safety.Dangerous, want: Cancelled},
		{name: "public name approved once, rebound to loopback: refused at connect", url: "http://rebind.test:" + port + "/",
			addrs: map[string][]string{"rebind.test": {"93.184.215.14", "127.0.0.1"}}, answers: []bool{true},
			wantAsks: 1, wantTier: safety.Confirm, want: "not a public address"},
		{name: "allow rule: not asked", url: "http://rebind.test:" + port + "/", rules: safety.Rules{Allow: []string{"read_web rebind.test"}},
			addrs: map[string][]string{"rebind.test": {"93.184.215.14", "127.0.0.1"}}, want: "not a public address"},
		{name: "deny rule: blocked unasked", url: "http://blocked.test/", rules: safety.Rules{Deny: []string{"read_web *.test"}},
			addrs: map[string][]string{"blocked.test": {"93.184.215.14"}}, want: `deny rule "read_web *.test"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			h := newWebHarness(t, &webResolver{addrs: tc.addrs}, tc.rules, tc.url)
			h.answer = func(a Approval) Decision { return Decision{Allow: tc.answers[a.Step-1]} }
			if _, err := h.run("fetch"); err != nil {
				t.Fatal(err)
			}
			if len(h.asked) != tc.wantAsks {
				t.Fatalf("asked %d times, want %d: %+v", len(h.asked), tc.wantAsks, h.asked)
			}
			for i, a := range h.asked {
				if a.Step != i+1 || a.Tier != tc.wantTier || a.Kind != ApproveWeb || a.URL != tc.url || len(a.Reasons) == 0 {
					t.Errorf("question %d: %+v", i, a)
				}
			}
			if got := hits.Load() > 0; got != tc.wantHit {
				t.Errorf("server reached = %v, want %v", got, tc.wantHit)
			}
			msg := h.toolMessages(1)[0]["content"].(string)
			if !strings.Contains(msg, tc.want) {
				t.Errorf("tool result %q, want it to hold %q", msg, tc.want)
			}
			if tc.wantHit && !strings.HasPrefix(msg, "[untrusted content from ") {
				t.Errorf("a fetched page is not marked untrusted: %q", msg)
			}
		})
	}
}
