package safety

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestTierText(t *testing.T) {
	for _, tc := range []struct {
		tier Tier
		text string
	}{{Safe, "safe"}, {Confirm, "confirm"}, {Dangerous, "dangerous"}} {
		if got := tc.tier.String(); got != tc.text {
			t.Errorf("%d.String() = %q, want %q", int(tc.tier), got, tc.text)
		}
		b, err := tc.tier.MarshalText()
		if err != nil || string(b) != tc.text {
			t.Errorf("MarshalText(%v) = %q, %v", tc.tier, b, err)
		}
		var back Tier
		if err := back.UnmarshalText(b); err != nil || back != tc.tier {
			t.Errorf("UnmarshalText(%q) = %v, %v", b, back, err)
		}
		js, err := json.Marshal(Verdict{Tier: tc.tier})
		if err != nil || !strings.Contains(string(js), `"tier":"`+tc.text+`"`) {
			t.Errorf("json of a %v verdict = %s, %v", tc.tier, js, err)
		}
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(c.Classify("ls"))
	if err != nil || string(js) != `{"tier":"safe","reasons":[],"proven":["ls: ls (lists directories)"]}` {
		t.Errorf("json of a safe verdict = %s, %v", js, err)
	}
}

func TestParseTier(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Tier
		ok   bool
	}{
		{"safe", Safe, true}, {"Confirm", Confirm, true}, {" DANGEROUS ", Dangerous, true},
		{"", Confirm, false}, {"unsafe", Confirm, false}, {"2", Confirm, false},
	} {
		got, err := ParseTier(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseTier(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidTier) {
				t.Errorf("ParseTier(%q) error %v does not wrap ErrInvalidTier", tc.in, err)
			}
			if !strings.Contains(err.Error(), `"safe", "confirm" or "dangerous"`) {
				t.Errorf("ParseTier(%q) error %q does not name the accepted values", tc.in, err)
			}
		}
	}
}

func TestTierUnmarshalKeepsValueOnError(t *testing.T) {
	tier := Dangerous
	if err := tier.UnmarshalText([]byte("loud")); err == nil {
		t.Fatal("UnmarshalText accepted an unknown tier")
	}
	if tier != Dangerous {
		t.Fatalf("a failed UnmarshalText changed the tier to %v", tier)
	}
	var v struct{ Tier Tier }
	if err := json.Unmarshal([]byte(`{"Tier":"sure"}`), &v); !errors.Is(err, ErrInvalidTier) {
		t.Fatalf("json.Unmarshal of a bad tier: %v", err)
	}
	if _, err := Tier(7).MarshalText(); !errors.Is(err, ErrInvalidTier) {
		t.Fatalf("MarshalText of Tier(7): %v", err)
	}
	if got := Tier(7).String(); got != "Tier(7)" {
		t.Fatalf("Tier(7).String() = %q", got)
	}
}

func TestUnknownPolicyText(t *testing.T) {
	var zero UnknownPolicy
	if zero.Tier() != Confirm || zero.String() != "confirm" {
		t.Fatalf("the zero UnknownPolicy is %v/%q; it must be strict", zero.Tier(), zero.String())
	}
	for _, in := range []string{"safe", "Safe"} {
		var u UnknownPolicy
		if err := u.UnmarshalText([]byte(in)); err != nil || u != UnknownSafe || u.Tier() != Safe {
			t.Errorf("UnmarshalText(%q) = %v, %v", in, u, err)
		}
	}
	for _, in := range []string{"", "confirm"} {
		u := UnknownSafe
		if err := u.UnmarshalText([]byte(in)); err != nil || u != UnknownConfirm {
			t.Errorf("UnmarshalText(%q) = %v, %v", in, u, err)
		}
	}
	u := UnknownSafe
	if err := u.UnmarshalText([]byte("dangerous")); !errors.Is(err, ErrInvalidTier) || u != UnknownSafe {
		t.Errorf("UnmarshalText(dangerous) = %v, %v; want an error and no change", u, err)
	}
	for _, p := range []UnknownPolicy{UnknownConfirm, UnknownSafe} {
		b, err := p.MarshalText()
		var back UnknownPolicy
		if err != nil || back.UnmarshalText(b) != nil || back != p {
			t.Errorf("round trip of %v: %q, %v, %v", p, b, err, back)
		}
	}
	if _, err := UnknownPolicy(5).MarshalText(); !errors.Is(err, ErrInvalidTier) {
		t.Errorf("MarshalText of UnknownPolicy(5): %v", err)
	}
}
