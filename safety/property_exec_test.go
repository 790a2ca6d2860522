package safety

import (
	"flag"
	"strings"
	"testing"
	"time"
)

// tableCommands are the commands of every table, as seeds and corpora.
func tableCommands() []string {
	var out []string
	for _, tc := range commandCases {
		out = append(out, tc.cmd)
	}
	for _, tc := range execCases {
		out = append(out, tc.cmd)
	}
	for _, tc := range harmCases {
		out = append(out, tc.cmd)
	}
	return out
}

// TestJoinNeverLowers checks that running another command before or after
// a command never makes the whole less dangerous than the command alone:
// A; B, A && B, A || B and A | B are at least as high as A and as B.
// The commands are the tables' one-line commands, paired with a fixed
// stride so every command is both A and B. A piped to B compares with B
// alone except where A feeds B a script: literal text piped to a shell is
// classified as that script, which may be lower than a shell reading from
// nowhere (sh alone starts an interactive shell).
func TestJoinNeverLowers(t *testing.T) {
	c := tableClassifier()
	var cmds []string
	for _, cmd := range tableCommands() {
		if !strings.Contains(cmd, "\n") && !strings.HasSuffix(strings.TrimSpace(cmd), "&") && !strings.HasSuffix(strings.TrimSpace(cmd), "\\") {
			cmds = append(cmds, cmd)
		}
	}
	alone := make([]Tier, len(cmds))
	parses := make([]bool, len(cmds))
	interactive := make([]bool, len(cmds)) // B alone is a shell waiting for input
	for i, cmd := range cmds {
		alone[i] = c.Classify(cmd).Tier
		_, err := parseScript(cmd)
		parses[i] = err == nil
		interactive[i] = strings.Contains(strings.Join(c.Classify(cmd).Reasons, "\n"), "starts an interactive")
	}
	strides := []int{1, 7, 31, 101}
	if testing.Short() {
		strides = strides[:2]
	}
	for _, stride := range strides {
		for i := range cmds {
			j := (i + stride) % len(cmds)
			a, b := cmds[i], cmds[j]
			if !parses[i] || !parses[j] {
				continue // text that does not parse runs nothing
			}
			want := max(alone[i], alone[j])
			for _, op := range []string{";", " &&", " ||"} {
				// The newline ends a comment at the end of A.
				joined := a + op + "\n" + b
				if got := c.Classify(joined).Tier; got < want {
					t.Errorf("%q is %v, lower than its parts alone (%v, %v)", joined, got, alone[i], alone[j])
				}
			}
			// B is grouped so that a list in it stays one stage.
			joined := a + " | {\n" + b + "\n}"
			got := c.Classify(joined).Tier
			if got < alone[i] {
				t.Errorf("%q is %v, lower than %q alone (%v)", joined, got, a, alone[i])
			}
			if got < alone[j] && !interactive[j] {
				t.Errorf("%q is %v, lower than %q alone (%v)", joined, got, b, alone[j])
			}
		}
	}
}

// FuzzClassifyTime checks that classifying text up to the size limit, made
// by repeating the fuzzer's input, ends in bounded time. The clock is
// generous (the limit is for a machine under load) and is only checked
// while fuzzing, never in an ordinary test run.
func FuzzClassifyTime(f *testing.F) {
	for i, cmd := range tableCommands() {
		if i%20 == 0 {
			f.Add(cmd)
		}
	}
	for _, s := range []string{"{", "(", "$(", "`", "{a,b}", "x=$x$x;", "eval ", " $x", "a[", "$((1+"} {
		f.Add(s)
	}
	c, err := NewClassifier(Rules{})
	if err != nil {
		f.Fatal(err)
	}
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	f.Fuzz(func(t *testing.T, unit string) {
		if unit == "" {
			return
		}
		size := maxSource
		if !fuzzing {
			size /= 8 // the seeds, in an ordinary test run: correctness only
		}
		cmd := strings.Repeat(unit, size/len(unit))
		start := time.Now()
		v := c.classify(cmd)
		if took := time.Since(start); fuzzing && took > 3*time.Second {
			t.Fatalf("classifying %d bytes of %q repeated took %v", len(cmd), unit, took)
		}
		if v.Tier > Safe && len(v.Reasons) == 0 {
			t.Fatalf("%q repeated: %v without a reason", unit, v.Tier)
		}
	})
}
