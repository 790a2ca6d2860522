package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"pincer/internal/safetext"
	"pincer/safety"
)

func (c *cli) classifyCommand() *cobra.Command {
	var asJSON, explain bool
	cmd := &cobra.Command{
		Use:   "classify [command]",
		Short: "Show the risk tier pincer gives a shell command, and why",
		Long: `classify prints the tier pincer would give a shell command, with the reasons, using
the same rules and configuration (allow, deny, unknown_commands) as the agent:

  safe       runs at once (read-only inspection: ls, cat, grep, git status, …)
  confirm    needs one approval (ordinary changes: git commit, npm install, writes, unknown programs)
  dangerous  needs two separate approvals (rm -rf, sudo, curl | sh, writes to /etc or ~/.ssh, …)

With --json, commands are read from standard input, one JSON string per line (so
commands with newlines fit), and each gets one line of output:
  {"command": "...", "tier": "safe|confirm|dangerous", "reasons": [...]}
with "denied" and "rule" added when a deny rule matched. A line that is not a JSON
string gets {"line": N, "error": "..."}, and the exit status is then 2.

A command is safe only when every part of it is on pincer's closed list of commands
that only read. With --explain, a safe verdict also names the entry of the list that
proved each part (with --json, as "proven").`,
		Example: `pincer classify 'rm -rf build/'
pincer classify 'git status && go test ./...'
printf '%s\n' '"ls -la"' '"curl -fsSL x | sh"' | pincer classify --json
pincer classify --explain 'cd src && grep -rn TODO .'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := c.loadProject()
			if err != nil {
				return err
			}
			cls, err := c.classifier(p)
			if err != nil {
				return err
			}
			if asJSON {
				if len(args) > 0 {
					return usageError(errors.New("with --json, commands come from standard input, one JSON string per line; give no arguments"))
				}
				return classifyLines(cls, c.stdin, c.stdout, explain)
			}
			if len(args) == 0 {
				return usageError(errors.New("give the command to classify, quoted as one argument: pincer classify 'rm -rf build/'"))
			}
			printVerdict(c.stdout, cls.Classify(strings.Join(args, " ")), explain)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "read JSON-string commands from standard input and print one JSON verdict per line")
	cmd.Flags().BoolVar(&explain, "explain", false, "for a safe verdict, name the entry of the list that proved each part")
	// Everything after the command's first word is the command's own:
	// pincer classify git commit -m x.
	cmd.Flags().SetInterspersed(false)
	return cmd
}

// printVerdict writes the tier and one reason per line; with explain, a
// safe verdict also names what proved each part. The reasons quote the
// command, so they go through the sanitiser: a carriage return or an
// escape in it is drawn, never obeyed by the terminal.
func printVerdict(w io.Writer, v safety.Verdict, explain bool) {
	fmt.Fprintln(w, v.Tier)
	if v.Denied {
		fmt.Fprintf(w, "  denied by the rule %s\n", safetext.LineOf(strconv.Quote(v.Rule)))
	}
	for _, r := range v.Reasons {
		fmt.Fprintf(w, "  %s\n", safetext.LineOf(r))
	}
	if !explain || v.Tier != safety.Safe || v.Denied {
		return
	}
	if v.Rule != "" {
		fmt.Fprintf(w, "  allowed by your rule %s\n", safetext.LineOf(strconv.Quote(v.Rule)))
	}
	for _, p := range v.Proven {
		fmt.Fprintf(w, "  proven: %s\n", safetext.LineOf(p))
	}
}

// classifyLine is one line of `classify --json` output.
type classifyLine struct {
	Command string   `json:"command"`
	Tier    string   `json:"tier"`
	Reasons []string `json:"reasons"`
	Denied  bool     `json:"denied,omitempty"`
	Rule    string   `json:"rule,omitempty"`
	Proven  []string `json:"proven,omitempty"`
}

// classifyLines reads one JSON string per line and writes one verdict per
// line. Bad lines are reported in place and the rest still classified.
func classifyLines(cls *safety.Classifier, in io.Reader, out io.Writer, explain bool) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	bad := 0
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var command string
		if err := json.Unmarshal([]byte(line), &command); err != nil {
			bad++
			if encErr := enc.Encode(map[string]any{"line": n, "error": fmt.Sprintf("line %d is not a JSON string (write each command as \"...\"): %v", n, err)}); encErr != nil {
				return encErr
			}
			continue
		}
		v := cls.Classify(command)
		reasons := v.Reasons
		if reasons == nil {
			reasons = []string{}
		}
		out := classifyLine{Command: command, Tier: v.Tier.String(), Reasons: reasons, Denied: v.Denied, Rule: v.Rule}
		if explain && v.Tier == safety.Safe {
			out.Proven = v.Proven
		}
		if err := enc.Encode(out); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read commands from standard input: %w", err)
	}
	if bad > 0 {
		return &exitError{code: 2, err: fmt.Errorf("%d input line(s) were not JSON strings", bad)}
	}
	return nil
}
