package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"pincer/config"
	"pincer/safety"
	"pincer/session"
	"pincer/tools"
	sbx "pincer/tools/sandbox"
	"pincer/ui/safetext"
)

// sandboxState is what contains commands in this project: the mode asked
// for, what the machine can enforce, and the paths.
type sandboxState struct {
	Mode      safety.SandboxMode `json:"mode"`
	Approvals string             `json:"approvals"`
	Support   sbx.Support        `json:"support"`
	// Active is true when commands really run in the sandbox.
	Active bool `json:"active"`
	// Network is whether sandboxed commands may use TCP; when the kernel
	// cannot block it, it stays allowed whatever the setting.
	Network  bool     `json:"network"`
	Writable []string `json:"writable"`
	Hidden   []string `json:"hidden"`
	// PrivateTemp: read-only mode's per-command temp dir.
	PrivateTemp bool `json:"private_temp"`
	// Note says in one sentence what is (not) contained, for the start
	// of a session and the status line's tooltip.
	Note string `json:"note"`
	// Helper is the binary that applies the sandbox to each command.
	Helper string `json:"helper,omitempty"`
}

// sandboxState works out the sandbox for p from its configuration.
func (c *cli) sandboxState(p *project) sandboxState {
	home, _ := os.UserHomeDir()
	if h := c.getenv("HOME"); h != "" {
		home = h
	}
	mode := safety.SandboxMode(p.cfg.Sandbox)
	st := sandboxState{Mode: mode, Approvals: p.cfg.Approvals, Support: sbx.Probe(), Network: true}
	if mode == safety.SandboxOff {
		st.Note = "The sandbox is off: commands run with your full rights."
		return st
	}
	if !st.Support.Available() {
		st.Note = "No sandbox on this machine: " + st.Support.Reason + ". Commands run with your full rights, and auto approvals ask as usual."
		return st
	}
	pol := safety.SandboxPolicy{
		Mode:      mode,
		Root:      p.root,
		Home:      home,
		TempDir:   realPath(os.TempDir()),
		Extra:     usableDirs(append(safety.ToolchainCaches(home, c.getenv), p.cfg.SandboxWritable...), home),
		ConfigDir: filepath.Dir(config.UserConfigPath(c.getenv)),
		DataDir:   c.dataDir(p),
	}
	st.Active = true
	if exe, err := os.Executable(); err == nil {
		st.Helper = exe
	}
	st.Writable, st.Hidden = pol.Writable(), pol.Hidden()
	if cfgFile := c.getenv(config.EnvConfig); cfgFile != "" && filepath.IsAbs(cfgFile) {
		st.Hidden = append(st.Hidden, cfgFile)
	}
	st.PrivateTemp = mode == safety.SandboxReadOnly
	st.Network = p.cfg.SandboxNetwork || !st.Support.Network
	where := "the project, the temp dir and the build caches"
	if st.PrivateTemp {
		where = "a private temp dir only"
	}
	net := "network allowed"
	switch {
	case !p.cfg.SandboxNetwork && !st.Support.Network:
		net = "the network cannot be blocked here (" + st.Support.Reason + ")"
	case !st.Network:
		net = "network blocked"
	}
	st.Note = fmt.Sprintf("Commands run in a %s sandbox (%s ABI %d): writes to %s; %s.", mode, st.Support.Mechanism, st.Support.ABI, where, net)
	return st
}

// commandSandbox is run_command's sandbox, or nil when commands run
// unsandboxed. One is made per state and kept for the life of the
// process, with its helper started in the background soon after start-up
// (not competing with the first frame), so the first command does not
// wait for it.
func (c *cli) commandSandbox(st sandboxState) *tools.CommandSandbox {
	key := fmt.Sprintf("%q %q %v %v", st.Writable, st.Hidden, st.Network, st.PrivateTemp)
	if cs, ok := c.sandboxes[key]; ok {
		return cs
	}
	cs := newCommandSandbox(st)
	if cs == nil {
		return nil
	}
	if c.sandboxes == nil {
		c.sandboxes = map[string]*tools.CommandSandbox{}
	}
	c.sandboxes[key] = cs
	time.AfterFunc(backgroundDelay, cs.Warm)
	return cs
}

// newCommandSandbox is a sandbox for st of its own (nil when inactive).
func newCommandSandbox(st sandboxState) *tools.CommandSandbox {
	if !st.Active || st.Helper == "" {
		return nil
	}
	return &tools.CommandSandbox{
		Helper:      st.Helper,
		Spec:        sbx.Spec{Writable: st.Writable, Hidden: st.Hidden, Network: st.Network},
		PrivateTemp: st.PrivateTemp,
	}
}

// keyVariables are the environment variables that hold API keys pincer
// knows of, which commands do not get unless command_env_passthrough lists
// them.
func (c *cli) keyVariables(p *project) []string {
	vars := []string{config.EnvAPIKey, config.EnvOpenAIAPIKey}
	if p.cfg.APIKeyEnv != "" {
		vars = append(vars, p.cfg.APIKeyEnv)
	}
	for _, pr := range config.Presets() {
		if pr.KeyEnv != "" && !slices.Contains(vars, pr.KeyEnv) {
			vars = append(vars, pr.KeyEnv)
		}
	}
	return slices.DeleteFunc(vars, func(v string) bool { return slices.Contains(p.cfg.CommandEnvPassthrough, v) })
}

// dataDir is where pincer keeps its store.
func (c *cli) dataDir(p *project) string {
	if p.cfg.DataDir != "" {
		return p.cfg.DataDir
	}
	return filepath.Dir(session.DefaultPath(c.getenv))
}

// usableDirs keeps the paths that exist, creating a missing one when its
// parent exists and is not the home directory itself (so ~/.cache/pip is
// made, but ~/.npm only when npm made it).
func usableDirs(paths []string, home string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, realPath(p))
			continue
		}
		parent := filepath.Dir(p)
		if parent == home {
			continue
		}
		if _, err := os.Stat(parent); err == nil && os.MkdirAll(p, 0o755) == nil {
			out = append(out, realPath(p))
		}
	}
	return out
}

// realPath resolves symbolic links, so the sandbox's rules and the
// messages name the real place.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// selfTest is one check of `pincer sandbox`.
type selfTest struct {
	Name   string `json:"name"`
	Want   string `json:"want"`   // "blocked" or "allowed"
	Result string `json:"result"` // "blocked", "allowed" or "skipped"
	Detail string `json:"detail,omitempty"`
	OK     bool   `json:"ok"`
}

func (c *cli) sandboxCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Show how commands are contained here, and test it",
		Long: `sandbox prints what contains the model's commands on this machine: the
mechanism (Landlock on Linux) and its ABI, the mode (workspace, read-only, off),
the paths commands may write, the paths they may not see, and the network.

Then it runs a self-test through the real sandbox: a write outside the project,
a write inside it, a read of a secret path, and a TCP connect with the network
off, each with its result. The exit status is 1 when a check fails.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := c.loadProject(cmd)
			if err != nil {
				return err
			}
			st := c.sandboxState(p)
			tests := c.sandboxSelfTest(cmd.Context(), p, st)
			failed := slices.ContainsFunc(tests, func(t selfTest) bool { return !t.OK })
			if asJSON {
				if err := c.writeJSON(struct {
					sandboxState
					Modes    []safety.SandboxMode `json:"modes"`
					SelfTest []selfTest           `json:"self_test"`
				}{st, safety.SandboxModes(), orEmpty(tests)}); err != nil {
					return err
				}
			} else {
				c.printSandbox(st, tests)
			}
			if failed {
				return &exitError{code: 1, silent: true}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func (c *cli) printSandbox(st sandboxState, tests []selfTest) {
	w := c.stdout
	mech := "none (" + st.Support.Reason + ")"
	if st.Support.Available() {
		mech = fmt.Sprintf("%s, ABI %d", st.Support.Mechanism, st.Support.ABI)
	}
	fmt.Fprintf(w, "mechanism   %s\n", mech)
	fmt.Fprintf(w, "mode        %s (modes: read-only, workspace, off)\n", st.Mode)
	fmt.Fprintf(w, "active      %v\n", st.Active)
	if st.Helper != "" {
		fmt.Fprintf(w, "helper      %s (started once per session; each command is one fork and exec)\n", safetext.LineOf(st.Helper))
	}
	fmt.Fprintf(w, "approvals   %s\n", st.Approvals)
	if st.Active {
		netText := "allowed"
		if !st.Network {
			netText = "blocked (TCP connect and bind)"
		}
		fmt.Fprintf(w, "network     %s\n", netText)
		writable := st.Writable
		if st.PrivateTemp {
			writable = append(writable, "a private temp dir per command ($TMPDIR)")
		}
		fmt.Fprintf(w, "writable    %s\n", linesOf(writable))
		fmt.Fprintf(w, "hidden      %s\n", linesOf(st.Hidden))
	}
	fmt.Fprintf(w, "%s\n", st.Note)
	if len(tests) > 0 {
		fmt.Fprintln(w, "\nself-test:")
		for _, t := range tests {
			mark := "ok  "
			if !t.OK {
				mark = "FAIL"
			}
			line := fmt.Sprintf("  %s %-34s want %-8s got %s", mark, t.Name, t.Want, t.Result)
			if t.Detail != "" {
				line += " (" + safetext.LineOf(t.Detail) + ")"
			}
			fmt.Fprintln(w, line)
		}
	}
}

// sandboxSelfTest runs the four checks through the real helper, in a
// scratch project, with a scratch secret standing in for ~/.ssh.
func (c *cli) sandboxSelfTest(ctx context.Context, p *project, st sandboxState) []selfTest {
	if !st.Active {
		return nil
	}
	scratch, err := os.MkdirTemp(p.root, ".pincer-sandbox-test-")
	if err != nil {
		return []selfTest{{Name: "set up", Want: "allowed", Result: "failed", Detail: err.Error()}}
	}
	defer os.RemoveAll(scratch)
	home, _ := os.UserHomeDir()
	outsideDir, err := os.MkdirTemp(home, ".pincer-sandbox-test-")
	if err != nil {
		return []selfTest{{Name: "set up", Want: "allowed", Result: "failed", Detail: err.Error()}}
	}
	defer os.RemoveAll(outsideDir)
	secretDir := filepath.Join(outsideDir, "secret")
	_ = os.Mkdir(secretDir, 0o700)
	_ = os.WriteFile(filepath.Join(secretDir, "key"), []byte("secret"), 0o600)

	run := func(spec sbx.Spec, script string) (string, bool) {
		cs := newCommandSandbox(st)
		if cs == nil {
			return "no helper", false
		}
		cs.Spec = spec
		defer cs.Close()
		reg, err := tools.NewRegistry(tools.Builtins(tools.Options{Root: scratch, Sandbox: cs, CommandTimeout: 10 * time.Second})...)
		if err != nil {
			return err.Error(), false
		}
		tool, _ := reg.Get("run_command")
		call, err := tool.Decode(fmt.Sprintf(`{"command": %q}`, script))
		if err != nil {
			return err.Error(), false
		}
		res, err := call.Run(ctx)
		if err != nil {
			return err.Error(), false
		}
		return res.Content, !res.IsError
	}
	spec := sbx.Spec{Writable: []string{scratch}, Hidden: append(slices.Clone(st.Hidden), secretDir), Network: st.Network}
	outside := filepath.Join(outsideDir, "canary")
	var tests []selfTest
	check := func(name, want string, ok bool, out string) {
		got := "blocked"
		if ok {
			got = "allowed"
		}
		t := selfTest{Name: name, Want: want, Result: got, OK: got == want}
		if !t.OK {
			t.Detail = firstLineOf(out)
		}
		tests = append(tests, t)
	}
	out, ok := run(spec, "echo x > "+shellQuote(outside))
	if _, err := os.Stat(outside); err == nil {
		ok = true
	}
	check("write outside the project", "blocked", ok, out)
	out, ok = run(spec, "echo x > inside.txt && cat inside.txt")
	check("write inside the project", "allowed", ok, out)
	out, ok = run(spec, "cat "+shellQuote(filepath.Join(secretDir, "key")))
	check("read a secret path", "blocked", ok, out)
	if !st.Support.Network {
		tests = append(tests, selfTest{Name: "TCP connect with network off", Want: "blocked", Result: "skipped", Detail: st.Support.Reason, OK: true})
		return tests
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return tests
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	offSpec := spec
	offSpec.Network = false
	port := ln.Addr().(*net.TCPAddr).Port
	if _, err := os.Stat("/bin/bash"); err != nil {
		tests = append(tests, selfTest{Name: "TCP connect with network off", Want: "blocked", Result: "skipped", Detail: "the check uses /bin/bash", OK: true})
		return tests
	}
	out, ok = run(offSpec, fmt.Sprintf("/bin/bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d'", port))
	check("TCP connect with network off", "blocked", ok, out)
	return tests
}

// firstLineOf is the first line of s, for a short detail.
func firstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// linesOf lists paths one under the other, aligned with the labels above,
// each drawn safely (a project path may hold anything).
func linesOf(paths []string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = safetext.LineOf(p)
	}
	return strings.Join(out, "\n            ")
}
