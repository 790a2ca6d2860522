package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"pincer/internal/procgroup"
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
	outside bool           // the person let this call run outside the sandbox
	profile safety.Profile // the jail it runs in; "" is the strictest
}

// Unsandboxed is the same call, run outside the sandbox: for a command
// the sandbox blocked, once the person has said yes.
func (c *runCommandCall) Unsandboxed() Call {
	cp := *c
	cp.outside = true
	return &cp
}

// InProfile is the same call, to run in the jail of profile p.
func (c *runCommandCall) InProfile(p safety.Profile) Call {
	cp := *c
	cp.profile = p
	return &cp
}

// Profile is the jail the call runs in: the strictest until the agent
// says how the call was allowed.
func (c *runCommandCall) Profile() safety.Profile {
	if c.profile == "" {
		return safety.ProfileInspect
	}
	return c.profile
}

// Sandboxed reports whether the call runs inside the full jail (which
// lets auto approvals run it unasked).
func (c *runCommandCall) Sandboxed() bool {
	return c.opts.Sandbox != nil && !c.outside && c.opts.Sandbox.Jailed()
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
	env := commandEnv(os.Environ(), c.opts.DropEnv)
	// A command that runs without asking runs with git's program-running
	// settings off (see safety.SafeEnv and docs/safety.md).
	env = append(env, safety.SafeEnv(c.args.Command, env)...)
	if p := c.Profile(); p == safety.ProfileInspect || p == safety.ProfileContained {
		env = withoutSecretVars(env)
	}
	out := newHeadTail(c.opts.MaxOutput)
	// The git dirs before, to compare after: only where the jail guards
	// them (contained), and only when listed, lest every one seem new.
	var gitBefore []string
	listedGit := c.Sandboxed() && c.Profile() == safety.ProfileContained
	if listedGit {
		gitBefore = c.gitPlaces()
	}
	proc, spec, err := c.start(name, args, env)
	if err != nil {
		var notFound *startError
		if errors.As(err, &notFound) {
			return errorResult(fmt.Sprintf("could not start the shell %s: %v. Set \"shell\" in the configuration to a shell that exists.", name, notFound.err)), nil
		}
		return errorResult(fmt.Sprintf("could not set up the sandbox: %v. Run 'pincer sandbox' to see what this machine supports, or set \"sandbox\": \"off\".", err)), nil
	}
	end, err := runAndReap(runCtx, proc, out)
	var status, hint string
	var blocked []string
	isErr := true
	switch {
	case ctx.Err() != nil:
		status = "cancelled by the user; the command and its child processes were killed"
		return Result{Content: c.format(out, status, ""), IsError: true}, ctx.Err()
	case runCtx.Err() != nil:
		status = fmt.Sprintf("timed out after %d s; the command and its child processes were killed. Output so far is above. Pass a larger timeout (at most %d) if it needs longer.", c.args.Timeout, int(MaxCommandTimeout/time.Second))
	case err != nil:
		status = fmt.Sprintf("ended without a status: %v", err)
	case end.ok:
		status, isErr = "exit code 0", false
	default:
		status = end.status
		if spec != nil {
			blocked = sandbox.Blocked(out.Capped(c.opts.MaxOutput), *spec, c.opts.Root)
		}
		if len(blocked) > 0 {
			hint = "blocked by the sandbox: " + strings.Join(blocked, "; ") + ". " + jailNote(c.Profile(), *spec) + " Find a way that stays inside these, or ask the user."
		} else {
			hint = SuggestFix(c.args.Command, out.Capped(c.opts.MaxOutput), c.opts.Root)
		}
	}
	if listedGit && spec != nil && spec.GitGuard {
		if made := newGitPlaces(gitBefore, c.gitPlaces(), c.opts.Root); made != "" {
			status += ". " + made
		}
	}
	return Result{Content: c.format(out, status, hint), IsError: isErr, SandboxBlocked: blocked}, nil
}

// gitPlaces lists the git dirs and .git files in the project now: from
// the jail's scan of the project, which reads again only the directories
// that changed, or by walking it when the jail has none.
func (c *runCommandCall) gitPlaces() []string {
	if l := c.opts.Sandbox.Launcher(c.Profile()); l != nil {
		if places, ok := l.GitPlaces(); ok {
			return places
		}
	}
	return sandbox.GitPlaces(c.opts.Root)
}

// newGitPlaces says which git dirs or .git files appeared in root between
// before and after ("" when none): the jail guards only those it found
// when it was built, and git runs what a new one's settings and hooks say
// (git status enters a nested repository recorded in the index), outside
// any jail.
func newGitPlaces(before, after []string, root string) string {
	var made []string
	for _, p := range after {
		if !slices.Contains(before, p) {
			made = append(made, displayPath(root, p))
		}
	}
	if len(made) == 0 {
		return ""
	}
	return "WARNING: the command made a new git repository (" + strings.Join(made, ", ") + "): its settings and hooks were written unasked, and git runs what they say when you run git there (git status enters a nested repository recorded in the index); look at them before running git in this project"
}

// sandboxNote tells the model what the jail allows, for the tool's
// description.
func sandboxNote(o Options) string {
	if o.Sandbox == nil {
		return ""
	}
	return " Commands run in a jail chosen by how they were allowed: one that only reads (run without asking) may write nothing but $TMPDIR and has no network; " +
		"one the user approved may write the project, $TMPDIR and the build caches. Secrets such as ~/.ssh and .env files are unreadable, other terminals and sockets unreachable. " +
		"A command the jail blocks fails with \"Permission denied\" (or a read-only file system, or no network) and the result says what was blocked."
}

// jailNote says what the jail a blocked command ran in allows, for the
// model's note about it.
func jailNote(p safety.Profile, s sandbox.Spec) string {
	net := ""
	if !s.Network {
		net = ", and it has no network"
	}
	where := strings.Join(append(slices.Clone(s.Writable), "$TMPDIR"), ", ")
	switch p {
	case safety.ProfileInspect:
		return "The command ran read-only, in the inspect jail (it was rated as only reading, so nobody was asked): it may write only its temp dir $TMPDIR" + net + "."
	case safety.ProfileContained:
		return "The command ran unasked (auto approvals) in the contained jail: it may write only " + where + net + "."
	}
	return "The command ran in pincer's sandbox, which allows writes only in " + where + net + "."
}

// startError is a shell that could not be started at all.
type startError struct{ err error }

func (e *startError) Error() string { return e.err.Error() }

// running is a started command: one pincer started itself, or one the
// sandbox's helper started for it.
type running interface {
	// wait waits for the command to end.
	wait() (ended, error)
	// stop ends it early (timeout, Esc) with everything it started.
	stop()
	// reap kills what is left of it once it has ended.
	reap()
	// output is where its output is read; it reaches EOF when the last
	// process holding it has gone.
	output() *os.File
}

// ended is how a command ended.
type ended struct {
	status string // "exit code 2", "killed by signal killed"
	ok     bool   // it exited with 0
}

// start starts the shell with its output going to one pipe: through the
// sandbox's helper when the options have a sandbox and this call was not
// let out of it. spec is what the sandbox allowed (nil without one).
func (c *runCommandCall) start(name string, args, env []string) (running, *sandbox.Spec, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	defer pw.Close()
	sb := c.opts.Sandbox
	if sb == nil || c.outside {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		cmd.Dir = c.opts.Root
		cmd.Stdout, cmd.Stderr = pw, pw // one pipe: output in order
		// A session of its own: no terminal to steal, and one group that is
		// killed as a whole when the call ends.
		procgroup.Detach(cmd)
		verbatimCmdLine(cmd)
		if err := cmd.Start(); err != nil {
			pr.Close()
			return nil, nil, &startError{err}
		}
		return &execRun{cmd: cmd, pr: pr}, nil, nil
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		pr.Close()
		return nil, nil, err
	}
	defer null.Close()
	l := sb.Launcher(c.Profile())
	if l == nil {
		pr.Close()
		return nil, nil, fmt.Errorf("no jail for the %s profile", c.Profile())
	}
	p, err := l.Start(sandbox.Request{Path: name, Argv: append([]string{name}, args...), Env: env, Dir: c.opts.Root, Stdin: null, Stdout: pw, Stderr: pw})
	if err != nil {
		pr.Close()
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return nil, nil, &startError{err}
		}
		return nil, nil, err
	}
	spec := p.Spec
	return &sandboxRun{p: p, pr: pr}, &spec, nil
}

// execRun is a command pincer started itself.
type execRun struct {
	cmd *exec.Cmd
	pr  *os.File
}

func (r *execRun) wait() (ended, error) {
	err := r.cmd.Wait()
	if r.cmd.ProcessState == nil {
		return ended{}, err
	}
	return ended{status: exitStatus(r.cmd.ProcessState), ok: r.cmd.ProcessState.Success()}, nil
}
func (r *execRun) stop()            { _ = procgroup.Stop(r.cmd) }
func (r *execRun) reap()            { _ = procgroup.Kill(r.cmd) }
func (r *execRun) output() *os.File { return r.pr }

// sandboxRun is a command the sandbox's helper started; the helper kills
// all it left behind before it reports the end.
type sandboxRun struct {
	p  *sandbox.Process
	pr *os.File
}

func (r *sandboxRun) wait() (ended, error) {
	e, err := r.p.Wait()
	if err != nil {
		return ended{}, err
	}
	if e.Signal != 0 {
		return ended{status: fmt.Sprintf("killed by signal %s", e.Signal)}, nil
	}
	return ended{status: fmt.Sprintf("exit code %d", e.Code), ok: e.Code == 0}, nil
}
func (r *sandboxRun) stop()            { r.p.Kill() }
func (r *sandboxRun) reap()            {}
func (r *sandboxRun) output() *os.File { return r.pr }

// runAndReap waits for the command — finished, timed out or cancelled —
// then kills every process it started, so nothing it put in the
// background outlives the call. Processes that left the process group
// (setsid) are killed by the sandbox's helper; without it they may
// survive, and the call waits at most pipeGrace for them to let go of
// the output.
func runAndReap(ctx context.Context, r running, out io.Writer) (ended, error) {
	defer r.output().Close()
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(out, r.output()); close(copied) }()
	type result struct {
		e   ended
		err error
	}
	waited := make(chan result, 1)
	go func() {
		e, err := r.wait()
		waited <- result{e, err}
	}()
	var res result
	select {
	case res = <-waited:
	case <-ctx.Done():
		r.stop()
		res = <-waited
	}
	r.reap()
	select {
	case <-copied:
	case <-time.After(pipeGrace):
		r.output().Close()
		<-copied
	}
	return res.e, res.err
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
// withoutSecretVars drops the variables named like secrets
// (safety.SecretVarName) from env: a command that runs without asking
// gets none, so one the classifier misjudged cannot print or send them.
func withoutSecretVars(env []string) []string {
	return slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return safety.SecretVarName(k)
	})
}

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
