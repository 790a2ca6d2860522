package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"pincer/config"
	"pincer/internal/safetext"
	"pincer/safety"
	"pincer/session"
	"pincer/tools"
	sbx "pincer/tools/sandbox"
)

// sandboxState is what jails commands in this project: the mode asked
// for, what the machine can enforce, and each profile's rights.
type sandboxState struct {
	Mode      safety.SandboxMode `json:"mode"`
	Approvals string             `json:"approvals"`
	Support   sbx.Support        `json:"support"`
	// Active is true when commands really run in a jail.
	Active bool `json:"active"`
	// Jailed is true when the full jail (namespaces and Landlock) holds
	// them: only then do auto approvals run confirm-tier commands unasked.
	Jailed bool `json:"jailed"`
	// Network is whether approved commands may reach the network.
	Network bool `json:"network"`
	// Profiles are the jails, strictest first.
	Profiles []profileState `json:"profiles"`
	// Note says in one sentence what is (not) contained, for the start
	// of a session and the status line's tooltip.
	Note string `json:"note"`
	// Helper is the program that builds the jails: pincer itself, through
	// the file it was started from (never a path a command could replace).
	Helper string `json:"helper,omitempty"`
	// Binary is pincer's program on disk, pinned read-only in every jail.
	Binary string `json:"binary,omitempty"`

	policy safety.SandboxPolicy
	home   string
}

// profileState is one jail as `pincer sandbox` shows it.
type profileState struct {
	safety.ProfileRights
	// Temp is where its temp dir is.
	Temp string `json:"temp"`
	// Sees says what it sees, in words.
	Sees string `json:"sees"`
	// Layers are the mechanisms that hold it, e.g. "landlock ABI 7".
	Layers []string `json:"layers"`
	// Used says when commands run in it.
	Used string `json:"used"`
}

// sandboxState works out the jails for p from its configuration.
func (c *cli) sandboxState(p *project) sandboxState {
	home, _ := os.UserHomeDir()
	if h := c.getenv("HOME"); h != "" {
		home = h
	}
	home = realPath(home)
	mode := safety.SandboxMode(p.cfg.Sandbox)
	st := sandboxState{Mode: mode, Approvals: p.cfg.Approvals, Support: sbx.Probe(), Network: true, home: home}
	if mode == safety.SandboxOff {
		st.Note = "The sandbox is off: commands run with your full rights."
		return st
	}
	if !st.Support.Available() {
		st.Note = "No sandbox on this machine: " + st.Support.Reason + ". Commands run with your full rights, and auto approvals ask as usual."
		return st
	}
	if exe, err := os.Executable(); err == nil {
		st.Binary = realPath(exe)
	}
	st.Helper = helperPath(st.Binary)
	own := c.ownFiles(p)
	explicitNet := p.srcs.Of("sandbox_network").Kind >= config.FromUserFile && p.cfg.SandboxNetwork
	st.policy = safety.SandboxPolicy{
		Mode:           mode,
		Root:           p.root,
		Home:           home,
		Writable:       usableDirs(p.cfg.SandboxWritable, home),
		Caches:         usableDirs(safety.ToolchainCaches(home, c.getenv), home),
		Toolchains:     existingPaths(safety.HomeToolchains(home, c.getenv)),
		GitConfigs:     safety.GitConfigFiles(home, c.getenv),
		SettingsFiles:  safety.HomeSettingsFiles(home, c.getenv),
		Own:            own,
		Binary:         st.Binary,
		Network:        p.cfg.SandboxNetwork || !st.Support.Network,
		NetworkUnasked: explicitNet,
		Sockets:        p.cfg.SandboxSockets,
	}
	st.Active = true
	st.Jailed = st.Support.Jailed()
	st.Network = st.policy.Network
	for _, pr := range safety.Profiles() {
		r, _ := st.policy.Rights(pr)
		st.Profiles = append(st.Profiles, describeProfile(r, st.Support, pr))
	}
	layers := fmt.Sprintf("Landlock ABI %d", st.Support.ABI)
	if st.Jailed {
		layers += ", namespaces"
	}
	if st.Support.Seccomp {
		layers += ", seccomp"
	}
	if st.Jailed {
		st.Note = fmt.Sprintf("Commands run in a jail (%s): read-only ones unasked in inspect (no writes, no network), approved ones in %s.", layers, workspaceWords(st.Profiles[2]))
	} else {
		st.Note = partialNote(st.Support)
	}
	if safety.HomeInProject(p.root, home) {
		st.Note += " The project is your home directory (or holds it): commands that run unasked see all of it but its secret files."
	}
	return st
}

// partialNote says what a jail without namespaces leaves open.
func partialNote(sup sbx.Support) string {
	layers := fmt.Sprintf("Landlock ABI %d", sup.ABI)
	if sup.Seccomp {
		layers += ", seccomp"
	}
	return fmt.Sprintf("Commands run in a partial jail (%s; no namespaces: %s): /tmp is not private and Unix sockets there may be reachable, so auto approvals ask as ask does.", layers, sup.NamespacesReason)
}

// workspaceWords sums up what approved commands may do.
func workspaceWords(w profileState) string {
	if w.Profile != safety.ProfileWorkspace {
		return "inspect too (read-only mode)"
	}
	net := "network on"
	if !w.Network {
		net = "no network"
	}
	return "workspace (the project, the temp dir and the caches; " + net + ")"
}

// describeProfile puts a profile's rights into the words and layers
// `pincer sandbox` shows.
func describeProfile(r safety.ProfileRights, sup sbx.Support, pr safety.Profile) profileState {
	ps := profileState{ProfileRights: r}
	ps.ProfileRights.Profile = pr
	ps.Layers = []string{fmt.Sprintf("landlock ABI %d", sup.ABI)}
	if sup.Namespaces {
		ps.Layers = append(ps.Layers, "userns", "mntns", "pidns", "ipcns")
		if !r.Network {
			ps.Layers = append(ps.Layers, "netns")
		}
	}
	if sup.Seccomp {
		ps.Layers = append(ps.Layers, "seccomp")
	}
	ps.Temp = "/tmp, the jail's own (TMPDIR=/tmp)"
	if !sup.Namespaces {
		ps.Temp = "a private directory ($TMPDIR); the real /tmp is read-only"
	}
	if r.ScratchTemp {
		ps.Temp += ", emptied after each command"
	}
	var sees []string
	if r.MaskProjectSecrets {
		sees = append(sees, "the project with its secret files masked")
	} else {
		sees = append(sees, "the project, secret files included")
	}
	switch {
	case r.HideHome:
		sees = append(sees, "of your home only the project, the build caches and what toolchains need (git's settings, programs installed there), read-only, their credentials masked; the rest of your files read-only")
		if !sup.Namespaces {
			sees[len(sees)-1] += " (without namespaces the names, sizes and times of files in home stay visible, not their contents)"
		}
	case r.HomeNote != "":
		sees = append(sees, "your files read-only, minus ~/.ssh, ~/.aws, ~/.gnupg and other credentials and pincer's own ("+r.HomeNote+")")
	default:
		sees = append(sees, "your files read-only, minus ~/.ssh, ~/.aws, ~/.gnupg and other credentials and pincer's own")
	}
	switch {
	case sup.Namespaces:
		sees = append(sees, "its own /dev and ptys (no other terminal), its own processes only, nothing of /run or $XDG_RUNTIME_DIR")
	default:
		sees = append(sees, "no pty at all, every process's name (but no other's environment)")
	}
	switch r.Sockets {
	case safety.SocketsNone:
		sees = append(sees, "no Unix socket")
	case safety.SocketsOwn:
		if sup.UnixByPath {
			sees = append(sees, "its own Unix sockets only")
		} else {
			sees = append(sees, fmt.Sprintf("no Unix socket (Landlock ABI %d cannot limit them by path)", sup.ABI))
		}
	case safety.SocketsListed:
		if len(r.Listed) > 0 {
			sees = append(sees, "the sockets in sandbox_sockets")
		}
		if !sup.UnixByPath {
			sees = append(sees, "Unix sockets outside the usual places")
		}
	}
	ps.Sees = strings.Join(sees, "; ")
	switch pr {
	case safety.ProfileInspect:
		ps.Used = "commands rated safe, run without asking"
	case safety.ProfileContained:
		ps.Used = "confirm-tier commands auto approvals run without asking"
		if !sup.Jailed() {
			ps.Used = "not used here: without namespaces auto approvals ask"
		}
	case safety.ProfileWorkspace:
		ps.Used = "commands you approved, or allowed by a rule of yours"
	}
	return ps
}

// helperPath is how pincer starts its helper: through /proc/self/exe,
// which is the program this process runs even after the file was
// replaced; where there is no /proc, the binary itself.
func helperPath(binary string) string {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe"
	}
	return binary
}

// specs are the jails of st's profiles, around root.
func (st sandboxState) specs(pol safety.SandboxPolicy) map[safety.Profile]sbx.Spec {
	out := map[safety.Profile]sbx.Spec{}
	for _, pr := range safety.Profiles() {
		r, ok := pol.Rights(pr)
		if !ok {
			continue
		}
		spec := sbx.Spec{Name: string(r.Profile), Root: pol.Root, Writable: r.Writable, Hidden: r.Hidden, Pinned: r.Pinned, Copies: r.Copies,
			Network: r.Network, Sockets: r.Listed, ScratchTemp: r.ScratchTemp, Home: st.home, IsSecret: safety.MaskedSecret,
			HideHome: r.HideHome, HomeKeep: r.HomeKept, GitConfigs: r.GitConfigs, SettingsFiles: r.SettingsFiles, GitGuard: r.GitGuard}
		if cfg := os.Getenv(config.EnvConfig); cfg != "" && filepath.IsAbs(cfg) {
			spec.Hidden = append(spec.Hidden, cfg)
		}
		switch r.Sockets {
		case safety.SocketsOwn:
			spec.Unix = sbx.UnixJail
		case safety.SocketsListed:
			spec.Unix = sbx.UnixListed
		}
		if r.MaskProjectSecrets {
			spec.SecretRoots = []string{pol.Root}
		}
		out[pr] = spec
	}
	return out
}

// commandSandbox is run_command's jails, or nil when commands run
// unjailed. One is made per state and kept for the life of the process,
// with its helpers started in the background soon after start-up (not
// competing with the first frame), so the first command does not wait
// for one.
func (c *cli) commandSandbox(st sandboxState) *tools.CommandSandbox {
	key := fmt.Sprintf("%+v", st.policy)
	if cs, ok := c.sandboxes[key]; ok {
		return cs
	}
	cs := newCommandSandbox(st, st.policy)
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

// newCommandSandbox is a set of jails for st under pol of its own (nil
// when inactive).
func newCommandSandbox(st sandboxState, pol safety.SandboxPolicy) *tools.CommandSandbox {
	if !st.Active || st.Helper == "" {
		return nil
	}
	return &tools.CommandSandbox{Helper: st.Helper, Specs: st.specs(pol)}
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

// existingPaths keeps the paths that exist, as they are named (the jail
// resolves their links, and makes the links again where home is hidden).
func existingPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// globAll is what the patterns match now.
func globAll(patterns []string) []string {
	var out []string
	for _, p := range patterns {
		m, _ := filepath.Glob(p)
		out = append(out, m...)
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

func (c *cli) sandboxCommand() *cobra.Command {
	var asJSON bool
	var mode sandboxFlag
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Show how commands are jailed here, and test it",
		Long: `sandbox prints how the model's commands are jailed on this machine: the
mechanism and its layers (Landlock and its ABI, user, mount, pid and network
namespaces, seccomp), the mode (workspace, read-only, off), and for each profile
what its commands may write, what they see, and their network:

  inspect     commands rated safe, run without asking: write nothing but a
              private temp dir, no network, the project's secret files masked
  contained   commands auto approvals run without asking: write the project
              only, copies of the build caches, no network
  workspace   commands you approved: the project, the temp dir, the caches
              and sandbox_writable; network as configured

Then it runs a self-test of every profile through the real jail: writes outside
and inside the project, secrets in the project and in your home, another
project's files in your home, another
terminal, Unix sockets outside, TCP, UDP and DNS, a signal to pincer, another
process's environment, replacing pincer's program, writing a build cache, and
mktemp in the temp dir. What happened is checked from outside the jail. The exit
status is 1 when a check fails.

'pincer sandbox exec' runs a command of your own in one of the jails.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := c.loadProject(&mode)
			if err != nil {
				return err
			}
			st := c.sandboxState(p)
			tests := c.sandboxSelfTest(cmd.Context(), p, &st)
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
	mode.register(cmd.Flags())
	cmd.AddCommand(c.sandboxExecCommand())
	return cmd
}

func (c *cli) printSandbox(st sandboxState, tests []selfTest) {
	w := c.stdout
	mech := "none (" + st.Support.Reason + ")"
	if st.Support.Available() {
		mech = fmt.Sprintf("%s, ABI %d", st.Support.Mechanism, st.Support.ABI)
	}
	fmt.Fprintf(w, "mechanism   %s\n", mech)
	if st.Support.Available() {
		ns := "user, mount, pid, IPC and network namespaces"
		if !st.Support.Namespaces {
			ns = "none: " + st.Support.NamespacesReason
		}
		sc := "on"
		if !st.Support.Seccomp {
			sc = "off: " + st.Support.SeccompReason
		}
		fmt.Fprintf(w, "namespaces  %s\n", ns)
		fmt.Fprintf(w, "seccomp     %s\n", sc)
	}
	fmt.Fprintf(w, "mode        %s (modes: read-only, workspace, off)\n", st.Mode)
	fmt.Fprintf(w, "active      %v\n", st.Active)
	if st.Helper != "" {
		fmt.Fprintf(w, "helper      %s, started once per jail (each command is one fork and exec)\n", safetext.LineOf(st.Helper))
	}
	fmt.Fprintf(w, "approvals   %s", st.Approvals)
	if st.Active && !st.Jailed {
		fmt.Fprint(w, " (auto asks as ask does: no namespaces)")
	}
	fmt.Fprintln(w)
	for _, ps := range st.Profiles {
		fmt.Fprintf(w, "\n%s — %s\n", ps.Profile, ps.Used)
		writable := append(slices.Clone(ps.Writable), ps.Temp)
		fmt.Fprintf(w, "  writes    %s\n", linesOf(writable, "            "))
		if len(ps.Copies) > 0 {
			fmt.Fprintf(w, "  copies    %s\n", linesOf(append(slices.Clone(ps.Copies), "(changes go to the jail's own copy, never to these)"), "            "))
		}
		fmt.Fprintf(w, "  sees      %s\n", ps.Sees)
		if ps.HideHome {
			fmt.Fprintf(w, "  of home   %s\n", linesOf(append([]string{"the project and the caches above"}, ps.HomeKept...), "            "))
			if filtered := existingPaths(append(slices.Clone(ps.GitConfigs), globAll(ps.SettingsFiles)...)); len(filtered) > 0 {
				fmt.Fprintf(w, "  filtered  %s\n", linesOf(append(filtered, "(read without what carries credentials, as are the files git's settings include from home)"), "            "))
			}
			if st.Jailed {
				fmt.Fprintf(w, "  git       the project's git settings (and its submodules') read without what carries credentials\n")
			} else {
				fmt.Fprintf(w, "  git       the project's git settings that hold a credential hidden (git fails there until approved)\n")
			}
		}
		if ps.GitGuard {
			fmt.Fprintf(w, "  git       read-only in every git dir of the project (config, hooks, info; submodules' and worktrees' too) and what its settings name there\n")
		}
		net := "none"
		if ps.Network {
			net = "yes"
		}
		fmt.Fprintf(w, "  network   %s\n", net)
		fmt.Fprintf(w, "  layers    %s\n", strings.Join(ps.Layers, ", "))
	}
	if st.Active && len(st.Profiles) > 0 {
		fmt.Fprintf(w, "\nhidden      %s\n", linesOf(st.Profiles[0].Hidden, "            "))
		fmt.Fprintf(w, "pinned      %s\n", linesOf(st.Profiles[2].Pinned, "            "))
	}
	if runtime.GOOS != "linux" {
		fmt.Fprintf(w, "\nOn %s pincer has no jail yet: commands run with your full rights.\n", runtime.GOOS)
	}
	fmt.Fprintf(w, "\n%s\n", st.Note)
	if len(tests) > 0 {
		fmt.Fprintln(w, "\nself-test (what happened is checked from outside the jail):")
		last := ""
		for _, t := range tests {
			if t.Profile != last {
				fmt.Fprintf(w, "  %s\n", t.Profile)
				last = t.Profile
			}
			mark := "ok  "
			if !t.OK {
				mark = "FAIL"
			}
			line := fmt.Sprintf("    %s %-37s want %-8s got %s", mark, t.Name, t.Want, t.Result)
			if t.Detail != "" {
				line += " (" + safetext.LineOf(t.Detail) + ")"
			}
			fmt.Fprintln(w, line)
		}
	}
}

// linesOf lists paths one under the other, aligned with the labels above,
// each drawn safely (a project path may hold anything).
func linesOf(paths []string, indent string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = safetext.LineOf(p)
	}
	return strings.Join(out, "\n"+indent)
}
