package agent

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pincer/agent/agenttest"
	"pincer/safety"
	"pincer/tools"
)

// webResolver answers from a table: each lookup of a host takes its next
// answer, the last one repeating; "" answers that there is no such host.
// A host listed with two answers rebinds: judged by the first, dialled by
// the second. No test reaches the network.
type webResolver struct {
	addrs map[string][]string
	mu    sync.Mutex
	seen  map[string]int
}

func (r *webResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string]int{}
	}
	ss := r.addrs[host]
	if len(ss) == 0 {
		return nil, fmt.Errorf("no such host %s", host)
	}
	n := r.seen[host]
	r.seen[host]++
	s := ss[min(n, len(ss)-1)]
	if s == "" {
		return nil, fmt.Errorf("no such host %s", host)
	}
	return []netip.Addr{netip.MustParseAddr(s)}, nil
}

// webCall is a read_web call of url.
func webCall(id, url string) agenttest.Call {
	return agenttest.Call{ID: id, Name: "read_web", Arguments: args(map[string]any{"url": url})}
}

// newWebHarness is a harness whose tools resolve names with r, under the
// given rules, and whose model fetches url once, or makes the replies given.
func newWebHarness(t *testing.T, r tools.Resolver, rules safety.Rules, url string, replies ...agenttest.Reply) *harness {
	t.Helper()
	if len(replies) == 0 {
		replies = []agenttest.Reply{agenttest.Tools("", webCall("c1", url)), agenttest.Text("ok", 10)}
	}
	h := newHarness(t, 30, replies...)
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

// TestReadWebAlwaysAllowTheDomain: the domain rule chosen in the dialog
// lets the next fetch from that domain run unasked, and no other.
func TestReadWebAlwaysAllowTheDomain(t *testing.T) {
	// Judged public, then not found when dialled: nothing leaves the machine.
	r := &webResolver{addrs: map[string][]string{"docs.example.test": {"93.184.215.14", "", "93.184.215.14", ""}, "other.example.test": {"93.184.215.15", ""}}}
	h := newWebHarness(t, r, safety.Rules{}, "",
		agenttest.Tools("", webCall("c1", "https://docs.example.test/a")),
		agenttest.Tools("", webCall("c2", "https://docs.example.test/b")),
		agenttest.Tools("", webCall("c3", "https://other.example.test/c")),
		agenttest.Text("ok", 10))
	h.answer = func(a Approval) Decision {
		if a.URL == "https://docs.example.test/a" {
			return Decision{Allow: true, AllowRule: a.SuggestedRule}
		}
		return Decision{Allow: false}
	}
	if _, err := h.run("read"); err != nil {
		t.Fatal(err)
	}
	var asked []string
	for _, a := range h.asked {
		asked = append(asked, a.URL)
	}
	if want := []string{"https://docs.example.test/a", "https://other.example.test/c"}; strings.Join(asked, " ") != strings.Join(want, " ") {
		t.Errorf("asked about %v, want %v", asked, want)
	}
}
