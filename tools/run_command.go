package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"pincer/safety"
)

// pipeGrace is how long a finished command's leftover background processes
// may keep its output open before the call returns without them.
const pipeGrace = 2 * time.Second

type runCommandArgs struct {
	Command string `json:"command" jsonschema_description:"The command line, run by the shell in the project root."`
	Timeout int    `json:"timeout,omitempty" jsonschema:"minimum=1,maximum=600" jsonschema_description:"Seconds before the command and every process it started are killed."`
}

func runCommandTool(o Options) (Tool, error) {
	defaultSecs := int((o.CommandTimeout + time.Second - 1) / time.Second)
	shell, _ := shellCommand(o.Shell, "")
	return New(Spec[runCommandArgs]{
		Name: "run_command",
		Description: fmt.Sprintf("Run a shell command with %s in the project root and return its output (stdout and stderr interleaved) and exit code. "+
			"Stdin is empty and there is no terminal, so interactive programs cannot prompt: pass flags that avoid prompts (e.g. --yes, -m for git commit). "+
			"Pagers are disabled (PAGER=cat, GIT_PAGER=cat) and TERM=dumb, NO_COLOR=1 are set. "+
			"After timeout seconds (at most %d) the command and all its child processes are killed and the output so far is returned. "+
			"Output longer than %d bytes keeps its beginning and end. "+
			"Each call starts a fresh shell: cd and variables do not carry over. "+
			"Background processes (cmd &) should redirect their output (> log 2>&1), or the call waits %d s for them.",
			shell, int(MaxCommandTimeout/time.Second), o.MaxOutput, int(pipeGrace/time.Second)),
		Mutates:  true,
		Defaults: runCommandArgs{Timeout: defaultSecs},
		Example:  runCommandArgs{Command: "go test ./...", Timeout: 120},
		Check: func(a *runCommandArgs) error {
			if strings.TrimSpace(a.Command) == "" {
				return errors.New(`argument "command" is empty; give the command line to run, e.g. "go test ./..."`)
			}
			return nil
		},
		Bind: func(a runCommandArgs) Call {
			return &runCommandCall{opts: o, args: a}
		},
	})
}

type runCommandCall struct {
	opts Options
	args runCommandArgs
}

// Summary shows the first line of the command, shortened.
func (c *runCommandCall) Summary() string {
	line, _, multi := strings.Cut(strings.TrimSpace(c.args.Command), "\n")
	if multi {
		line += " …"
	}
	return "run_command " + clipLine(line, 120)
}

func (c *runCommandCall) Access() Access {
	return Access{Command: c.args.Command, Dir: c.opts.Root}
}

func (c *runCommandCall) Run(ctx context.Context) (Result, error) {
	timeout := time.Duration(c.args.Timeout) * time.Second
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	name, args := shellCommand(c.opts.Shell, c.args.Command)
	cmd := exec.CommandContext(runCtx, name, args...)
	cmd.Dir = c.opts.Root
	cmd.Env = commandEnv(os.Environ())
	// A command that runs without asking runs with git's program-running
	// settings off (see safety.SafeEnv and docs/safety.md).
	cmd.Env = append(cmd.Env, safety.SafeEnv(c.args.Command, cmd.Env)...)
	out := newHeadTail(c.opts.MaxOutput)
	cmd.Stdout = out // the same writer for both: one pipe, output in order
	cmd.Stderr = out
	cmd.WaitDelay = pipeGrace
	startInOwnGroup(cmd)

	err := cmd.Run()
	var status, hint string
	isErr := true
	switch {
	case ctx.Err() != nil:
		status = "cancelled by the user; the command and its child processes were killed"
		return Result{Content: c.format(out, status, ""), IsError: true}, ctx.Err()
	case runCtx.Err() != nil:
		status = fmt.Sprintf("timed out after %d s; the command and its child processes were killed. Output so far is above. Pass a larger timeout (at most %d) if it needs longer.", c.args.Timeout, int(MaxCommandTimeout/time.Second))
	case err == nil, errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success():
		status, isErr = "exit code 0", false
	case cmd.ProcessState != nil:
		status = exitStatus(cmd.ProcessState)
		hint = SuggestFix(c.args.Command, out.Capped(c.opts.MaxOutput), c.opts.Root)
	default:
		return errorResult(fmt.Sprintf("could not start the shell %s: %v. Set \"shell\" in the configuration to a shell that exists.", name, err)), nil
	}
	return Result{Content: c.format(out, status, hint), IsError: isErr}, nil
}

// format puts the captured output, the status line and, for a failure
// SuggestFix recognised, a last line with the likely fix together.
func (c *runCommandCall) format(out *headTail, status, hint string) string {
	if hint != "" {
		hint = "\nSuggestion: " + hint
	}
	var b strings.Builder
	if out.Total() == 0 {
		b.WriteString("(no output)\n")
	} else {
		b.WriteString(out.Capped(c.opts.MaxOutput - len(status) - len(hint) - 8))
		if !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
	}
	b.WriteString("\n[" + status + "]" + hint)
	return b.String()
}

// commandEnv is the environment for commands: the user's, with pagers,
// colours and prompts turned off so nothing waits for a terminal that is
// not there.
func commandEnv(base []string) []string {
	set := map[string]string{
		"PAGER":               "cat",
		"GIT_PAGER":           "cat",
		"MANPAGER":            "cat",
		"SYSTEMD_PAGER":       "",
		"TERM":                "dumb",
		"NO_COLOR":            "1",
		"CLICOLOR":            "0",
		"GIT_TERMINAL_PROMPT": "0",
		"GIT_EDITOR":          "true",
	}
	env := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, override := set[k]; !override {
			env = append(env, kv)
		}
	}
	for _, k := range sortedKeys(set) {
		env = append(env, k+"="+set[k])
	}
	return env
}
