package safety

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// WebRuleProgram is the first word of the allow and deny rules about
// fetching web pages: "read_web example.com", "read_web *.example.com".
// Such rules match the host of a URL read_web fetches, never a shell
// command.
const WebRuleProgram = "read_web"

// WebAccess is one fetch read_web is about to make. The caller has looked
// up the host's addresses (the policy does no I/O).
type WebAccess struct {
	URL string // the URL as the model gave it
	// Addrs are the addresses the host resolved to; empty when it is an
	// address itself or could not be looked up.
	Addrs []netip.Addr
}

// Web decides a fetch. Reaching a public host over http or https needs one
// approval (Confirm) unless an allow rule names the host; a deny rule
// naming it refuses. A URL with another scheme, or whose host is or
// resolves to an address that is not public (loopback, private, link-local,
// unspecified, multicast, reserved) is Dangerous: it reaches the person's
// own machine or network, and no allow rule lowers it. A host spelled as a
// number (http://2130706433/, http://0x7f.1/) is read as the address the
// system resolver would make of it.
func (c *Classifier) Web(a WebAccess) Verdict {
	acc := newAcc()
	shown := display(a.URL)
	u, err := url.Parse(a.URL)
	if err != nil {
		acc.add(Dangerous, shown+": not a URL pincer can read, so it cannot tell where it leads")
		return acc.verdict()
	}
	scheme := strings.ToLower(u.Scheme)
	host := WebHost(u)
	if rule, ok := c.webRule(c.deny, host); ok {
		acc.deny(rule, a.URL)
		return acc.verdict()
	}
	if scheme != "http" && scheme != "https" {
		acc.add(Dangerous, shown+": uses the "+strconv.Quote(scheme+":")+" scheme; only http and https reach the web, others reach this machine's files or services")
		return acc.verdict()
	}
	if host == "" {
		acc.add(Dangerous, shown+": has no host")
		return acc.verdict()
	}
	if why := privateName(host); why != "" {
		acc.add(Dangerous, shown+": "+why)
		return acc.verdict()
	}
	addrs := a.Addrs
	if ip, ok := HostAddr(host); ok {
		addrs = []netip.Addr{ip}
	}
	for _, ip := range addrs {
		if why := addrKind(ip); why != "" {
			acc.add(Dangerous, shown+": reaches "+ip.String()+", "+why+"; a page there can be one of your own services")
			return acc.verdict()
		}
	}
	if rule, ok := c.webRule(c.allow, host); ok {
		acc.allowed, acc.allowRule = true, rule
		return acc.verdict()
	}
	acc.add(Confirm, shown+": fetches a page from "+display(host)+asciiHost(host))
	return acc.verdict()
}

// asciiHost names a host that holds letters outside ASCII by its ASCII
// form, the name DNS looks up: a letter of another script can look like a
// Latin one (exаmple.com with a Cyrillic а), and the ASCII form shows it
// is another site. "" for an ASCII host.
func asciiHost(host string) string {
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			a, err := idna.Lookup.ToASCII(host)
			if err != nil {
				return " (a name with letters outside ASCII, which pincer cannot spell in ASCII; check it is the site you mean)"
			}
			return " (" + a + " in ASCII: its name holds letters outside ASCII, which can look like others; check it is the site you mean)"
		}
	}
	return ""
}

// webRule finds the first rule of ps about fetching that matches host.
func (c *Classifier) webRule(ps []pattern, host string) (string, bool) {
	for _, p := range ps {
		if p.prog == WebRuleProgram && len(p.args) == 1 && globMatch(strings.ToLower(p.args[0]), host) {
			return p.text, true
		}
		if p.prog == WebRuleProgram && p.rest && len(p.args) == 0 {
			return p.text, true // "read_web *": every host
		}
	}
	return "", false
}

// WebHost is the host a rule about u is matched against: lower case,
// without port, brackets or a final dot.
func WebHost(u *url.URL) string {
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// SuggestWebRule is the allow rule "always allow" would add for fetching
// rawURL: read_web and the URL's host, e.g. "read_web example.com". It is
// "" when no rule can make the fetch safe (another scheme, a host that is
// an address on this machine or network, a host a rule cannot spell).
func SuggestWebRule(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	host := WebHost(u)
	if host == "" || privateName(host) != "" || strings.ContainsAny(host, ruleMeta+" *?") {
		return ""
	}
	if ip, ok := HostAddr(host); ok && addrKind(ip) != "" {
		return ""
	}
	return checkedRule(WebRuleProgram + " " + host)
}

// privateName says why a host name, whatever it resolves to, names this
// machine: localhost and names under it (RFC 6761).
func privateName(host string) string {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return "names this machine (localhost)"
	}
	return ""
}

// PublicAddr reports whether ip is an address on the public internet, the
// only kind read_web reaches without the person's second approval. An
// IPv4 address inside IPv6 (::ffff:127.0.0.1, 64:ff9b::7f00:1) is judged
// as the IPv4 address it carries.
func PublicAddr(ip netip.Addr) bool { return addrKind(ip) == "" }

// addrKind names the kind of a non-public address, or "" for a public one.
func addrKind(ip netip.Addr) string {
	if !ip.IsValid() {
		return "not a valid address"
	}
	ip = ip.WithZone("")
	if ip.Is6() && !ip.IsLoopback() && !ip.IsUnspecified() {
		if v4, ok := embeddedV4(ip); ok {
			ip = v4
		}
	}
	switch {
	case ip.IsLoopback():
		return "a loopback address on this machine"
	case ip.IsUnspecified():
		return "the unspecified address, which means this machine"
	case ip.IsPrivate():
		return "a private network address"
	case ip.IsLinkLocalUnicast():
		return "a link-local address (cloud metadata services live there)"
	case ip.IsMulticast():
		return "a multicast address"
	}
	for _, r := range reservedRanges {
		if r.Contains(ip) {
			return "a reserved or shared address (" + r.String() + ")"
		}
	}
	return ""
}

// embeddedV4 is the IPv4 address inside an IPv4-mapped, IPv4-compatible,
// NAT64 or 6to4 IPv6 address.
func embeddedV4(ip netip.Addr) (netip.Addr, bool) {
	if ip.Is4In6() {
		return ip.Unmap(), true
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip) || compatV4.Contains(ip):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	compatV4  = netip.MustParsePrefix("::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// reservedRanges are the ranges, besides the ones netip names, that are
// not the public internet.
var reservedRanges = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),          // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),      // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),       // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),      // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),        // reserved, and broadcast
	netip.MustParsePrefix("64:ff9b:1::/48"),     // local-use NAT64
	netip.MustParsePrefix("100::/64"),           // discard
	netip.MustParsePrefix("fec0::/10"),          // site-local (deprecated)
	netip.MustParsePrefix("2001:db8::/32"),      // documentation
	netip.MustParsePrefix("2001::/32"),          // Teredo, which tunnels to an address it hides
	netip.MustParsePrefix("::ffff:0:0:0/96"),    // IPv4-translated
	netip.MustParsePrefix("192.0.2.0/24"),       // documentation
	netip.MustParsePrefix("198.51.100.0/24"),    // documentation
	netip.MustParsePrefix("203.0.113.0/24"),     // documentation
	netip.MustParsePrefix("255.255.255.255/32"), // broadcast
}

// HostAddr reads a URL host that is an address: IPv6 (brackets and zone
// already removed by url.Hostname), dotted IPv4, and the numeric forms the
// C resolver also accepts (2130706433, 0x7f.1, 0177.0.0.1, 127.1), so a
// host is judged as the address it will be dialled as.
func HostAddr(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(host, ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, true
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := inetNumber(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	// a, a.b (b 24 bits), a.b.c (c 16 bits), a.b.c.d, as inet_aton reads them.
	var v uint64
	last := nums[len(nums)-1]
	for i, n := range nums[:len(nums)-1] {
		if n > 0xff {
			return netip.Addr{}, false
		}
		v |= n << (24 - 8*uint(i))
	}
	if room := uint(32 - 8*(len(nums)-1)); last >= 1<<room {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// inetNumber reads one part of a numeric IPv4 host: decimal, 0x hex or
// 0 octal.
func inetNumber(s string) (uint64, bool) {
	base := 10
	switch {
	case s == "":
		return 0, false
	case len(s) > 1 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
		if s == "" {
			return 0, true // "0x" is 0 to inet_aton
		}
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	n, err := strconv.ParseUint(s, base, 32)
	return n, err == nil
}
