//go:build !linux

package cli

import "context"

// selfTest is one check of `pincer sandbox`, in one profile.
type selfTest struct {
	Profile string `json:"profile"`
	Name    string `json:"name"`
	Want    string `json:"want"`
	Result  string `json:"result"`
	Detail  string `json:"detail,omitempty"`
	OK      bool   `json:"ok"`
}

// sandboxSelfTest has nothing to test where there is no jail.
func (c *cli) sandboxSelfTest(context.Context, *project, *sandboxState) []selfTest { return nil }
