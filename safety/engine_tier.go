package safety

import (
	"errors"
	"fmt"
	"strings"
)

// Tier is how much approval an action needs before pincer carries it out.
// The order matters: a whole command takes the highest tier of its parts.
type Tier int

const (
	// Safe actions run at once: read-only inspection such as ls, cat or git status.
	Safe Tier = iota
	// Confirm actions need one approval: ordinary changes in development,
	// and anything the classifier cannot see through.
	Confirm
	// Dangerous actions need two separate approvals: destructive, privileged
	// or remote-code actions such as rm -rf, sudo or curl | sh.
	Dangerous
)

// ErrInvalidTier is wrapped by the errors ParseTier and the text decoders
// return, so a config loader can tell a bad tier from other problems.
var ErrInvalidTier = errors.New("invalid tier")

// String returns the name used in config files, JSON and dialogs:
// "safe", "confirm" or "dangerous".
func (t Tier) String() string {
	switch t {
	case Safe:
		return "safe"
	case Confirm:
		return "confirm"
	case Dangerous:
		return "dangerous"
	}
	return fmt.Sprintf("Tier(%d)", int(t))
}

// ParseTier reads a tier name as written in config or JSON. Case and
// surrounding spaces are ignored. On error it returns Confirm, the strict
// default, together with an error that names the accepted values.
func ParseTier(s string) (Tier, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "safe":
		return Safe, nil
	case "confirm":
		return Confirm, nil
	case "dangerous":
		return Dangerous, nil
	}
	return Confirm, fmt.Errorf("%w %q: use \"safe\", \"confirm\" or \"dangerous\"", ErrInvalidTier, s)
}

// MarshalText writes the tier's name, so a Tier marshals to JSON as a string.
func (t Tier) MarshalText() ([]byte, error) {
	if t < Safe || t > Dangerous {
		return nil, fmt.Errorf("%w %d: only safe, confirm and dangerous exist", ErrInvalidTier, int(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads a tier name. On error the tier is left unchanged.
func (t *Tier) UnmarshalText(b []byte) error {
	v, err := ParseTier(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// UnknownPolicy says how to treat programs the classifier does not know.
// Its zero value is the strict UnknownConfirm, so a zero Rules value never
// lets an unknown program run without asking.
type UnknownPolicy int

const (
	// UnknownConfirm asks once before running a program the classifier does not know.
	UnknownConfirm UnknownPolicy = iota
	// UnknownSafe runs programs the classifier does not know at once; what the
	// classifier does know (rm -rf, redirections, sudo, …) is still enforced.
	UnknownSafe
)

// Tier returns the tier an unknown program gets under this policy.
func (u UnknownPolicy) Tier() Tier {
	if u == UnknownSafe {
		return Safe
	}
	return Confirm
}

// String returns the config spelling: "confirm" or "safe".
func (u UnknownPolicy) String() string {
	if u == UnknownSafe {
		return "safe"
	}
	return "confirm"
}

// ParseUnknownPolicy reads "confirm" or "safe" (an empty string means
// confirm). On error it returns UnknownConfirm and an error naming the values.
func ParseUnknownPolicy(s string) (UnknownPolicy, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "confirm":
		return UnknownConfirm, nil
	case "safe":
		return UnknownSafe, nil
	}
	return UnknownConfirm, fmt.Errorf("%w for unknown commands %q: use \"confirm\" or \"safe\"", ErrInvalidTier, s)
}

// MarshalText writes "confirm" or "safe".
func (u UnknownPolicy) MarshalText() ([]byte, error) {
	if u != UnknownConfirm && u != UnknownSafe {
		return nil, fmt.Errorf("%w for unknown commands %d: only confirm and safe exist", ErrInvalidTier, int(u))
	}
	return []byte(u.String()), nil
}

// UnmarshalText reads "confirm" or "safe". On error the value is left unchanged.
func (u *UnknownPolicy) UnmarshalText(b []byte) error {
	v, err := ParseUnknownPolicy(string(b))
	if err != nil {
		return err
	}
	*u = v
	return nil
}
