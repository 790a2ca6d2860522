package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"pincer/safety"
	"pincer/tools/sandbox"
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
			"When the command ends, every process it started is killed, background ones (cmd &, nohup) included: "+
			"a server or watcher lives only as long as the command, so start it, use it and stop it in one command."+
			sandboxNote(o),
			shell, int(MaxCommandTimeout/time.Second), o.MaxOutput),
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
	opts    Options
	args    runCommandArgs
	outside bool // the person let this call run outside the sandbox
}

// Unsandboxed is the same call, run outside the sandbox: for a command
// the sandbox blocked, once the person has said yes.
func (c *runCommandCall) Unsandboxed() Call {
	cp := *c
	cp.outside = true
	return &cp
}

// Sandboxed reports whether the call runs inside a sandbox.
func (c *runCommandCall) Sandboxed() bool { return c.opts.Sandbox != nil && !c.outside }

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
	env := commandEnv(os.Environ(), c.opts.DropEnv)
	// A command that runs without asking runs with git's program-running
	// settings off (see safety.SafeEnv and docs/safety.md).
	env = append(env, safety.SafeEnv(c.args.Command, env)...)
	cmd, spec, cleanup, err := c.prepare(name, args, env)
	if err != nil {
		return errorResult(fmt.Sprintf("could not set up the sandbox: %v. Run 'pincer sandbox' to see what this machine supports, or set \"sandbox\": \"off\".", err)), nil
	}
	defer cleanup()
	cmd.Dir = c.opts.Root
	out := newHeadTail(c.opts.MaxOutput)

	err = runAndReap(runCtx, cmd, out, spec != nil)
	var status, hint string
	var blocked []string
	isErr := true
	switch {
	case ctx.Err() != nil:
		status = "cancelled by the user; the command and its child processes were killed"
		return Result{Content: c.format(out, status, ""), IsError: true}, ctx.Err()
	case runCtx.Err() != nil:
		status = fmt.Sprintf("timed out after %d s; the command and its child processes were killed. Output so far is above. Pass a larger timeout (at most %d) if it needs longer.", c.args.Timeout, int(MaxCommandTimeout/time.Second))
	case err == nil:
		status, isErr = "exit code 0", false
	case cmd.ProcessState != nil:
		status = exitStatus(cmd.ProcessState)
		if spec != nil {
			blocked = sandbox.Blocked(out.Capped(c.opts.MaxOutput), *spec, c.opts.Root)
		}
		if len(blocked) > 0 {
			hint = "blocked by the sandbox: " + strings.Join(blocked, "; ") + ". The command ran in pincer's sandbox, which allows writes only in " +
				strings.Join(spec.Writable, ", ") + networkNote(*spec) + ". Find a way that stays inside these, or ask the user."
		} else {
			hint = SuggestFix(c.args.Command, out.Capped(c.opts.MaxOutput), c.opts.Root)
		}
	default:
		return errorResult(fmt.Sprintf("could not start the shell %s: %v. Set \"shell\" in the configuration to a shell that exists.", name, err)), nil
	}
	return Result{Content: c.format(out, status, hint), IsError: isErr, SandboxBlocked: blocked}, nil
}

// sandboxNote tells the model what the sandbox allows, for the tool's
// description.
func sandboxNote(o Options) string {
	sb := o.Sandbox
	if sb == nil {
		return ""
	}
	where := "the project directory and the temp dir"
	if sb.PrivateTemp {
		where = "a private temp dir ($TMPDIR) only; the project is read-only"
	}
	net := "Network access is allowed."
	if !sb.Spec.Network {
		net = "Network connections are blocked."
	}
	return " Commands run in a sandbox: writes are allowed in " + where + " (and configured caches); secrets such as ~/.ssh are unreadable. " + net +
		" A command the sandbox blocks fails with \"Permission denied\" and the result says what was blocked."
}

// networkNote says whether the sandbox blocks the network, for the
// model's note about a blocked command.
func networkNote(s sandbox.Spec) string {
	if s.Network {
		return ""
	}
	return ", and blocks network connections"
}

// prepare builds the process for the shell: through the sandbox helper
// when the options have a sandbox and this call was not let out of it.
// With a private temp dir (read-only mode) it is made here and removed by
// cleanup.
func (c *runCommandCall) prepare(name string, args, env []string) (*exec.Cmd, *sandbox.Spec, func(), error) {
	sb := c.opts.Sandbox
	if sb == nil || c.outside {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		return cmd, nil, func() {}, nil
	}
	spec := sb.Spec
	spec.Writable = append([]string(nil), spec.Writable...)
	cleanup := func() {}
	if sb.PrivateTemp {
		tmp, err := os.MkdirTemp("", "pincer-cmd-")
		if err != nil {
			return nil, nil, nil, fmt.Errorf("make a private temp dir: %w", err)
		}
		cleanup = func() { _ = os.RemoveAll(tmp) }
		spec.Writable = append(spec.Writable, tmp)
		env = setEnv(env, "TMPDIR", tmp)
	}
	cmd, err := sandbox.Command(sb.Helper, spec, name, args...)
	if err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	cmd.Env = env
	return cmd, &spec, cleanup, nil
}

// runAndReap runs cmd with its output in out, and when the shell ends —
// finished, timed out or cancelled — kills every process it started, so
// nothing it put in the background outlives the call. Processes that left
// the process group (setsid) are killed by the sandbox helper; without it
// they may survive, and the call waits at most pipeGrace for them to let
// go of the output.
func runAndReap(ctx context.Context, cmd *exec.Cmd, out io.Writer, helper bool) error {
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	defer pr.Close()
	cmd.Stdout, cmd.Stderr = pw, pw // one pipe: output in order
	startInOwnGroup(cmd)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return err
	}
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(out, pr); close(copied) }()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err = <-waited:
	case <-ctx.Done():
		stopGroup(cmd, helper)
		err = <-waited
	}
	killGroup(cmd)
	select {
	case <-copied:
	case <-time.After(pipeGrace):
		pr.Close()
		<-copied
	}
	return err
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
//
// The variables in drop (API keys) are left out, so a command cannot read
// the key pincer uses.
func commandEnv(base, drop []string) []string {
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
		if slices.Contains(drop, k) {
			continue
		}
		if _, override := set[k]; !override {
			env = append(env, kv)
		}
	}
	for _, k := range sortedKeys(set) {
		env = append(env, k+"="+set[k])
	}
	return env
}

// setEnv sets one variable in env, replacing an earlier value.
func setEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}
