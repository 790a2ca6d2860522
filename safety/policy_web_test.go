package safety

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func addrs(ss ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

// TestWebTiers judges URLs, with the addresses their hosts resolved to,
// under no rules: public hosts ask once; anything on this machine or
// network, or another scheme, asks twice.
func TestWebTiers(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url   string
		addrs []netip.Addr
		want  Tier
	}{
		{"https://example.com/page", addrs("93.184.215.14"), Confirm},
		{"https://example.com/page", nil, Confirm}, // not resolved: the dialler still refuses private addresses
		{"http://docs.python.org/3/", addrs("151.101.0.223", "2a04:4e42::223"), Confirm},
		{"https://93.184.215.14/", nil, Confirm},
		{"http://127.0.0.1:8080/", nil, Dangerous},
		{"http://[::1]/", nil, Dangerous},
		{"http://10.0.0.5/admin", nil, Dangerous},
		{"http://192.168.1.1/", nil, Dangerous},
		{"http://172.16.3.4/", nil, Dangerous},
		{"http://169.254.169.254/latest/meta-data/", nil, Dangerous},
		{"http://[::ffff:127.0.0.1]/", nil, Dangerous},
		{"http://[::ffff:7f00:1]/", nil, Dangerous},
		{"http://[64:ff9b::a00:1]/", nil, Dangerous},
		{"http://[2002:7f00:1::]/", nil, Dangerous},
		{"http://[fe80::1%25eth0]/", nil, Dangerous},
		{"http://[fd00::1]/", nil, Dangerous},
		{"http://0.0.0.0:3000/", nil, Dangerous},
		{"http://[::]/", nil, Dangerous},
		{"http://224.0.0.1/", nil, Dangerous},
		{"http://100.64.1.1/", nil, Dangerous},
		{"http://2130706433/", nil, Dangerous},
		{"http://0x7f.1/", nil, Dangerous},
		{"http://0x7f000001/", nil, Dangerous},
		{"http://0177.0.0.1/", nil, Dangerous},
		{"http://127.1/", nil, Dangerous},
		{"http://10.1/", nil, Dangerous},
		{"http://localhost:5173/", nil, Dangerous},
		{"http://LOCALHOST./", nil, Dangerous},
		{"http://app.localhost/", nil, Dangerous},
		{"http://internal.corp/", addrs("10.1.2.3"), Dangerous},
		{"http://rebind.example/", addrs("93.184.215.14", "127.0.0.1"), Dangerous}, // every address counts
		{"http://v6.example/", addrs("2606:4700::1", "::1"), Dangerous},
		{"http://mapped.example/", addrs("::ffff:192.168.0.1"), Dangerous},
		{"file:///etc/passwd", nil, Dangerous},
		{"ftp://example.com/file", nil, Dangerous},
		{"gopher://example.com:70/", nil, Dangerous},
		{"javascript:alert(1)", nil, Dangerous},
		{"http:///nohost", nil, Dangerous},
		{"http://exa mple.com/", nil, Dangerous},
	}
	for _, tc := range cases {
		v := c.Web(WebAccess{URL: tc.url, Addrs: tc.addrs})
		if v.Tier != tc.want || v.Denied {
			t.Errorf("%s %v: got %v (denied %v), want %v; reasons %q", tc.url, tc.addrs, v.Tier, v.Denied, tc.want, v.Reasons)
			continue
		}
		if len(v.Reasons) == 0 || !strings.Contains(v.Reasons[0], ": ") {
			t.Errorf("%s: reasons %q are not of the form '<part>: <why>'", tc.url, v.Reasons)
		}
	}
}

// TestWebRules applies allow and deny rules: deny always wins, allow
// lowers a public host to Safe and never lowers Dangerous.
func TestWebRules(t *testing.T) {
	c, err := NewClassifier(Rules{
		Allow: []string{"read_web example.com", "read_web *.golang.org", "read_web localhost", "read_web 10.0.0.5"},
		Deny:  []string{"read_web evil.example", "read_web *.tracker.test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url    string
		addrs  []netip.Addr
		want   Tier
		denied bool
	}{
		{"https://example.com/a", nil, Safe, false},
		{"https://EXAMPLE.com./a", nil, Safe, false},
		{"https://www.example.com/a", nil, Confirm, false}, // a rule names one host; *.example.com names the others
		{"https://pkg.golang.org/x", nil, Safe, false},
		{"https://golang.org/x", nil, Confirm, false},
		{"https://evil.example/x", nil, 0, true},
		{"file://evil.example/x", nil, 0, true},
		{"https://a.b.tracker.test/x", nil, 0, true},
		{"http://localhost/", nil, Dangerous, false},
		{"http://10.0.0.5/", nil, Dangerous, false},
		{"https://example.com/", addrs("127.0.0.1"), Dangerous, false},
	}
	for _, tc := range cases {
		v := c.Web(WebAccess{URL: tc.url, Addrs: tc.addrs})
		if v.Denied != tc.denied || !tc.denied && v.Tier != tc.want {
			t.Errorf("%s: got %v denied=%v, want %v denied=%v; reasons %q", tc.url, v.Tier, v.Denied, tc.want, tc.denied, v.Reasons)
		}
	}
	if v := c.Web(WebAccess{URL: "https://example.com/"}); v.Rule != "read_web example.com" {
		t.Errorf("the allow rule that decided is %q, want read_web example.com", v.Rule)
	}
	all, err := NewClassifier(Rules{Allow: []string{"read_web *"}, Deny: []string{"read_web *"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := all.Web(WebAccess{URL: "https://example.com/"}); !v.Denied {
		t.Errorf("deny read_web * did not refuse: %+v", v)
	}
}

// TestWebRulesAreNotCommandRules: a rule about fetching never lets a shell
// command of that name run, and a command rule never decides a fetch.
func TestWebRulesAreNotCommandRules(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"read_web example.com", "curl *"}, Deny: []string{"read_web *"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := c.Classify("read_web example.com"); v.Tier == Safe || v.Denied {
		t.Errorf("a program named read_web was decided by a web rule: %+v", v)
	}
	if v := c.Classify("curl https://example.com"); v.Tier != Safe || v.Denied {
		t.Errorf("curl was decided by a web rule: %+v", v)
	}
}

func TestWebRuleErrors(t *testing.T) {
	for _, rule := range []string{"read_web", "read_web a.com b.com", "read_web a.com *"} {
		_, err := NewClassifier(Rules{Allow: []string{rule}})
		if !errors.Is(err, ErrInvalidRule) || !strings.Contains(err.Error(), "one domain") {
			t.Errorf("%q: got %v, want an invalid-rule error asking for one domain", rule, err)
		}
	}
}

func TestSuggestWebRule(t *testing.T) {
	cases := map[string]string{
		"https://example.com/page?q=1":   "read_web example.com",
		"http://Docs.Python.org:8080/3/": "read_web docs.python.org",
		"https://93.184.215.14/":         "read_web 93.184.215.14",
		"http://127.0.0.1/":              "",
		"http://localhost:3000/":         "",
		"http://2130706433/":             "",
		"file:///etc/passwd":             "",
		"https:///x":                     "",
	}
	for in, want := range cases {
		if got := SuggestWebRule(in); got != want {
			t.Errorf("SuggestWebRule(%q) = %q, want %q", in, got, want)
		}
	}
	// The suggested rule makes the fetch safe.
	rule := SuggestWebRule("https://example.com/page")
	c, _ := NewClassifier(Rules{Allow: []string{rule}})
	if v := c.Web(WebAccess{URL: "https://example.com/other"}); v.Tier != Safe {
		t.Errorf("with %q the fetch is %v", rule, v.Tier)
	}
}

func TestHostAddr(t *testing.T) {
	cases := map[string]string{
		"2130706433":      "127.0.0.1",
		"0x7f.1":          "127.0.0.1",
		"0x7f000001":      "127.0.0.1",
		"0177.0.0.1":      "127.0.0.1",
		"127.1":           "127.0.0.1",
		"10.0.258":        "10.0.1.2",
		"192.168.1.1":     "192.168.1.1",
		"::ffff:10.0.0.1": "::ffff:10.0.0.1",
		"example.com":     "",
		"1.2.3.4.5":       "",
		"256.1.1.1":       "",
		"4294967296":      "",
		"08.1.1.1":        "", // 8 is not an octal digit
		"1e3":             "",
	}
	for in, want := range cases {
		ip, ok := HostAddr(in)
		got := ""
		if ok {
			got = ip.String()
		}
		if got != want {
			t.Errorf("HostAddr(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPublicAddr(t *testing.T) {
	for s, want := range map[string]bool{
		"93.184.215.14": true, "8.8.8.8": true, "2606:4700::1111": true,
		"127.0.0.1": false, "::1": false, "10.2.3.4": false, "169.254.169.254": false, "fe80::1": false,
		"::ffff:127.0.0.1": false, "::": false, "0.0.0.0": false, "ff02::1": false, "255.255.255.255": false,
		"100.100.100.100": false, "fc00::1": false, "::ffff:8.8.8.8": true,
	} {
		if got := PublicAddr(netip.MustParseAddr(s)); got != want {
			t.Errorf("PublicAddr(%s) = %v, want %v", s, got, want)
		}
	}
}

// TestWebNamesLookalikeHostsInASCII checks that a fetch from a host with
// letters outside ASCII names it in ASCII too: exаmple.com with a Cyrillic
// а reads as example.com, and its ASCII form shows it is not.
func TestWebNamesLookalikeHostsInASCII(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url, want, not string
	}{
		{"https://ex\u0430mple.com/", "xn--exmple-4nf.com in ASCII", ""},
		{"https://bücher.example/", "xn--bcher-kva.example in ASCII", ""},
		{"https://example.com/ä", "", "in ASCII"},
		{"https://xn--exmple-4nf.com/", "", "in ASCII"},
	}
	for _, tc := range cases {
		v := c.Web(WebAccess{URL: tc.url, Addrs: addrs("93.184.215.14")})
		got := strings.Join(v.Reasons, "\n")
		if v.Tier != Confirm || tc.want != "" && !strings.Contains(got, tc.want) || tc.not != "" && strings.Contains(got, tc.not) {
			t.Errorf("%s: %v %q; want %q, not %q", tc.url, v.Tier, got, tc.want, tc.not)
		}
	}
}
