// Package cli is pincer's command line: the cobra command tree, one file
// per subcommand, and the composition root that puts the packages
// together from the configuration — the model client and the agent loop
// (agent), the tools (tools), the safety policy (safety), the session
// store (session) and a front end (ui, or ui/headless for `pincer run`).
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"

	"pincer/internal/safetext"
	"pincer/session"
	"pincer/tools"
	sbx "pincer/tools/sandbox"
	"pincer/ui/headless"
)

// version is the release this source belongs to.
const version = "0.1.0"

// Main runs pincer with the process's arguments, streams and environment,
// and returns the exit code for os.Exit.
func Main() int {
	if sbx.IsHelper(os.Args) { // a sandboxed command's helper: nothing else runs
		return sbx.HelperMain(os.Args)
	}
	sbx.ProtectSelf()
	if exe, err := os.Executable(); err == nil {
		if err := sbx.CheckExecutable(exe); err != nil {
			fmt.Fprintf(os.Stderr, "pincer: %s\n", safetext.LineOf(err.Error()))
			return 2
		}
	}
	return run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
}

// run executes the command line and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	// SIGHUP too: a terminal closed under a headless run ends it as
	// Ctrl+C would, so its sandbox helpers and their directories go.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	root := c.rootCommand()
	addUsageHints(root)
	reflowHelp(root, helpWidth)
	c.root, c.args = root, args
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	if f, ok := stdout.(*os.File); !ok || !headless.IsTerminal(f) {
		// Help piped or written to a file loses the padding drawn for a
		// terminal; pincer's commands write to c.stdout, not through here.
		out := &trimLineEnds{w: stdout, width: helpWidth + 2}
		root.SetOut(out)
		defer out.Flush()
	}
	root.SetErr(stderr)
	err := fang.Execute(ctx, root,
		fang.WithVersion(versionString()),
		fang.WithErrorHandler(c.printError),
	)
	c.closeSandboxes()
	return exitCodeOf(err)
}

// closeSandboxes stops the helpers of the command sandboxes and of the
// language servers' jails, and removes their directories, which would
// otherwise stay in the temp dir once pincer exits.
func (c *cli) closeSandboxes() {
	var wg sync.WaitGroup
	for _, cs := range c.sandboxes {
		wg.Go(cs.Close)
	}
	c.mu.Lock()
	for _, l := range c.launchers {
		wg.Go(l.Shutdown)
	}
	c.mu.Unlock()
	wg.Wait()
}

// cli is the state shared by the commands: the streams, the environment
// and --cwd, the one flag every command takes. The other flags belong to
// the commands that take them, each in its own options type (tuiOptions,
// runOptions, …) made of the flag groups in flags.go.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	cwd            string // --cwd: the project directory ("" for the current one)
	// sandboxes are the command sandboxes made so far, by what they
	// allow; their helpers live until the command ends (closeSandboxes).
	sandboxes map[string]*tools.CommandSandbox
	// launchers are the language servers' jails, closed with the
	// sandboxes.
	mu        sync.Mutex
	launchers []*sbx.Launcher
	// root and args are the command tree and the command line, for
	// naming the command whose help answers a usage error.
	root *cobra.Command
	args []string
}

func (c *cli) rootCommand() *cobra.Command {
	var o tuiOptions
	root := &cobra.Command{
		Use:   "pincer",
		Short: "A terminal coding assistant for any OpenAI-compatible model",
		Long: `pincer pairs with you in your project: the model reads the tree, reads and edits
files and runs commands through tools; you watch the answer stream in, review
every edit as a diff before it lands, and approve risky commands (twice for
dangerous ones). Sessions are named and kept, so you can come back tomorrow.

Run it in your project directory. With no provider configured, pincer talks to a
local Ollama at http://localhost:11434/v1; see 'pincer config --help' to use
another provider.`,
		Example: `# open the full-screen assistant in this directory
pincer

# resume (or start) the session named "refactor"
pincer -s refactor

# answer without the screen, for scripts and CI
pincer run "why does go test fail?"
git diff | pincer run --json "review this change"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return c.runTUI(cmd, &o) },
	}
	// Only --cwd concerns every command; the others are given to the
	// commands that use them, so that each command's help lists its own.
	root.PersistentFlags().StringVarP(&c.cwd, "cwd", "C", "", "project directory to work in (default: the current directory)")
	o.register(root.Flags())
	root.AddCommand(c.sandboxCommand(), c.runCommand(), c.sessionsCommand(), c.configCommand(), c.classifyCommand(), c.promptCommand(), c.tasksCommand(), c.trustCommand())
	root.AddCommand(c.mcpCommand())
	root.AddCommand(c.telegramCommand())
	root.AddCommand(c.acpCommand())
	root.AddCommand(c.memoryCommand())
	root.AddCommand(c.lspCommand())
	return root
}

// exitError carries an exit code with an error. A silent one has already
// been reported by the command itself.
type exitError struct {
	code   int
	err    error
	silent bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError marks bad flags or configuration: exit code 2.
func usageError(err error) error { return &exitError{code: 2, err: err} }

func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// Errors from cobra itself (unknown flag, bad arguments) are usage errors.
	return 2
}

// printError shows an error as one readable sentence on standard error.
func (c *cli) printError(w io.Writer, _ fang.Styles, err error) {
	var ee *exitError
	if errors.As(err, &ee) && ee.silent {
		return
	}
	msg := err.Error()
	if name, ok := unknownCommand(msg); ok && c.root != nil {
		// cobra's own error: say what was meant, and where the commands are listed.
		cmd, _, _ := c.root.Find(c.args)
		if cmd == nil {
			cmd = c.root
		}
		msg = unknownCommandError(cmd, name).Error()
	}
	// Errors carry foreign text (a server's message, a file name).
	fmt.Fprintf(w, "pincer: %s\n", safetext.LineOf(msg))
}

// helpWidth is the width commands' descriptions are wrapped to: 80
// columns less the help's indent.
const helpWidth = 78

// unknownCommand is the name in cobra's "unknown command" error.
func unknownCommand(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "unknown command ")
	if !ok {
		return "", false
	}
	name, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return "", false
	}
	name, err = strconv.Unquote(name)
	return name, err == nil
}

// unknownCommandError says that cmd has no subcommand name, what was
// perhaps meant, and where the commands are listed.
func unknownCommandError(cmd *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q for %q", name, cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's own default, set only where it suggests
	}
	if s := cmd.SuggestionsFor(name); len(s) > 0 && len(name) > 2 {
		msg += fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return usageError(fmt.Errorf("%s; see '%s --help'", msg, cmd.CommandPath()))
}

// addUsageHints makes every error of the command line itself — a flag
// that does not exist or does not parse, missing or extra arguments — end
// with the help that shows how to write it: cobra's own messages name no
// fix. Errors of the commands' work are left as they are.
func addUsageHints(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageHint(c, err) })
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return usageHint(c, err)
			}
			return nil
		}
	}
	if !cmd.Runnable() && cmd.HasSubCommands() {
		// A group of commands: cobra would show its help and exit 0 for a
		// misspelt subcommand, which a script takes for success.
		cmd.RunE = func(c *cobra.Command, a []string) error {
			if len(a) > 0 {
				return unknownCommandError(c, a[0])
			}
			return c.Help()
		}
	}
	for _, sub := range cmd.Commands() {
		addUsageHints(sub)
	}
}

// usageHint is err as a usage error (exit 2) that names cmd's help; a
// number that does not parse says what was wanted instead of strconv's
// words.
func usageHint(cmd *cobra.Command, err error) error {
	msg := err.Error()
	for _, p := range []struct{ from, want string }{
		{"strconv.ParseInt: ", "a whole number"}, {"strconv.ParseUint: ", "a whole number of 0 or more"},
		{"strconv.ParseFloat: ", "a number"}, {"strconv.ParseBool: ", "true or false"},
	} {
		if before, _, ok := strings.Cut(msg, p.from); ok {
			msg = before + "want " + p.want
		}
	}
	return usageError(fmt.Errorf("%s; see '%s --help'", msg, cmd.CommandPath()))
}

// writeJSON prints v as indented JSON, for the --json forms of commands.
// On a terminal the strings' control and bidi characters are escaped as
// JSON allows (exportTo), so the value is the same and nothing is obeyed.
func (c *cli) writeJSON(v any) error {
	return exportTo(c.stdout, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}, session.FormatJSON)
}

// orEmpty turns a nil list into an empty one, so JSON output is [] rather
// than null.
func orEmpty[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

func versionString() string {
	v := version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 7 {
				v += " (" + s.Value[:7] + ")"
			}
		}
	}
	return v
}
