package cli

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"pincer/agent"
	"pincer/config"
	"pincer/customcommands"
	"pincer/internal/safefile"
	"pincer/internal/safetext"
)

// trustFile lists the projects whose .pincer.json and .mcp.json the
// person trusts, by the path of .pincer.json (whether or not it exists)
// and a hash of both files' content: a project file that changes must be
// trusted again.
type trustFile struct {
	Projects map[string]string `json:"projects"`
}

func (c *cli) trustPath() string {
	return filepath.Join(filepath.Dir(config.UserConfigPath(c.getenv)), "trusted-projects.json")
}

// readTrust reads the trust file; a missing one trusts nothing. A file
// that cannot be read or parsed is an error that says so (and trusts
// nothing), never a silent "untrusted": the person would not know why.
func (c *cli) readTrust() (trustFile, error) {
	t := trustFile{Projects: map[string]string{}}
	path := c.trustPath()
	data, err := safefile.Read(path, safefile.Options{})
	var refused *safefile.Error
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return t, nil
	case errors.As(err, &refused):
		return t, errors.New(refused.Sentence("no project is trusted until it is fixed"))
	case err != nil:
		return t, fmt.Errorf("cannot read the trust file %s (%w), so no project is trusted; fix its permissions or delete it and run 'pincer trust' again", path, err)
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return trustFile{Projects: map[string]string{}}, fmt.Errorf("the trust file %s is not valid JSON (%w), so no project is trusted; fix it or delete it and run 'pincer trust' again", path, err)
	}
	if t.Projects == nil {
		t.Projects = map[string]string{}
	}
	return t, nil
}

// projectHash is the hash of a project's .pincer.json, and of its
// .mcp.json when it has one (its servers are programs the project chose),
// and of its commands with "!" lines and its agent files (what they run
// and grant, the project chose too), or "" without any of them.
func projectHash(root string) string {
	// A file that cannot be read safely is ignored by config.Load, with a
	// warning, so there is nothing to trust either.
	data, err := safefile.Read(config.ProjectConfigPath(root), safefile.Options{Within: root})
	if err != nil {
		data = nil
	}
	mcp, err := safefile.Read(config.MCPConfigPath(root), safefile.Options{Within: root})
	if err != nil {
		mcp = nil
	}
	extras := projectTrustFiles(root)
	if data == nil && mcp == nil && len(extras) == 0 {
		return ""
	}
	h := sha256.New()
	h.Write(data)
	if mcp != nil {
		// Without a .mcp.json the hash is the one of .pincer.json alone, as
		// recorded before pincer read .mcp.json.
		h.Write([]byte("\x00.mcp.json\x00"))
		h.Write(mcp)
	}
	for _, f := range extras {
		// Likewise, a project without commands or agents that run or grant
		// anything keeps the hash it had.
		h.Write([]byte("\x00" + f.rel + "\x00"))
		h.Write(f.data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// trustFileEntry is one of a project's command or agent files that needs
// trust: its path in the project and its content.
type trustFileEntry struct {
	rel, what string
	data      []byte
}

// projectTrustFiles lists the project's own command files that run shell
// lines and its agent files, in a fixed order.
func projectTrustFiles(root string) []trustFileEntry {
	var out []trustFileEntry
	add := func(path, what string) {
		data, err := safefile.Read(path, safefile.Options{Within: root, Limit: 256 << 10})
		if err != nil {
			return
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return
		}
		out = append(out, trustFileEntry{rel: filepath.ToSlash(rel), what: what, data: data})
	}
	cmds, _ := customcommands.Load(customcommands.Dirs("", root))
	for _, cmd := range cmds {
		if cmd.RunsShell() {
			add(cmd.Path, "the command /"+cmd.Name+", which runs shell lines")
		}
	}
	defs, _ := agent.LoadAgentDefs(agent.AgentDirs("", root))
	for _, d := range defs {
		add(d.Path, "the agent "+d.Name)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}

// trusted reports whether the person trusts the project's config file as
// it is now. A project without one has nothing to trust. The error says
// why the trust file could not be used.
func (c *cli) trusted(root string) (bool, error) {
	h := projectHash(root)
	if h == "" {
		return true, nil
	}
	t, err := c.readTrust()
	return t.Projects[config.ProjectConfigPath(root)] == h, err
}

func (c *cli) trustCommand() *cobra.Command {
	var yes, revoke bool
	cmd := &cobra.Command{
		Use:   "trust",
		Short: "Let this project's .pincer.json and .mcp.json choose the server, key variable, command rules, MCP servers and limits, and its commands and agents run",
		Long: `A project's .pincer.json may set where requests go (provider, base_url,
api_key_env), which commands run without asking (allow, unknown_commands),
where sessions are kept (data_dir), which MCP servers start (mcp_servers,
and the servers of a .mcp.json), which commands run around every turn
(hooks), and limits (context_window,
max_iterations, max_retries, command_timeout, idle_timeout). Its own slash
commands (.pincer/commands, .claude/commands) may hold "!" lines that run
when you type the command, and its agent files (.pincer/agents,
.claude/agents) choose what a sub-agent may do. A cloned repository
controls all of these, so pincer ignores those settings — limits only when
they are looser than yours —, does not run those lines and does not offer
those agents, and says so, until you trust the project. trust shows each
setting under the file that sets it, and records your yes together with a
hash of the files: if one changes, pincer asks again.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := c.cwd
			if root == "" {
				root, _ = os.Getwd()
			}
			root, _ = filepath.Abs(root)
			path := config.ProjectConfigPath(root)
			t, err := c.readTrust()
			if err != nil {
				// Writing now would drop every other project's trust.
				return err
			}
			if revoke {
				delete(t.Projects, path)
				if err := c.writeTrust(t); err != nil {
					return err
				}
				fmt.Fprintf(c.stdout, "No longer trusting %s or %s.\n", path, config.MCPConfigPath(root))
				return nil
			}
			h := projectHash(root)
			if h == "" {
				return usageError(fmt.Errorf("there is no %s or %s, and no command with \"!\" lines or agent file in .pincer/ or .claude/; nothing to trust", path, config.MCPFileName))
			}
			cfg, srcs, err := config.Load(config.LoadOptions{ProjectRoot: root, Getenv: c.getenv})
			if err != nil {
				return usageError(err)
			}
			c.showTrusted(cfg, srcs, root)
			if extras := projectTrustFiles(root); len(extras) > 0 {
				fmt.Fprintln(c.stdout, "The project's own files that run or grant something:")
				for _, f := range extras {
					fmt.Fprintf(c.stdout, "  %s: %s\n", safetext.LineOf(f.rel), safetext.LineOf(f.what))
				}
			}
			if !yes {
				fmt.Fprint(c.stderr, "Trust these settings for this project? [y/N] ")
				answer, _ := bufio.NewReader(c.stdin).ReadString('\n')
				if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
					fmt.Fprintln(c.stderr, "Not trusted; the settings stay ignored.")
					return &exitError{code: 1, silent: true}
				}
			}
			t.Projects[path] = h
			if err := c.writeTrust(t); err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "Trusted. (Run 'pincer trust --revoke' to undo.)\n")
			return nil
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "trust without asking")
	cmd.Flags().BoolVar(&revoke, "revoke", false, "stop trusting this project")
	return cmd
}

// showTrusted prints what trusting the project lets its files set, under
// the file that sets it: the settings of .pincer.json, and the MCP
// servers of .mcp.json and of .pincer.json each under its own file.
func (c *cli) showTrusted(cfg config.Config, srcs config.Sources, root string) {
	red := cfg.Redacted()
	var fields map[string]json.RawMessage
	_ = json.Unmarshal([]byte(plainJSON(red)), &fields)
	type setting struct{ field, value string }
	byFile := map[string][]setting{}
	for _, f := range append(srcs.ProjectSensitive(), srcs.ProjectLimits()...) {
		if f != "mcp_servers" {
			file := srcs.Of(f).Name
			byFile[file] = append(byFile[file], setting{f, string(fields[f])})
			continue
		}
		servers := map[string]map[string]config.MCPServer{}
		for name, src := range srcs.Servers {
			if src.Kind != config.FromProjectFile {
				continue // the person's own server, not the project's
			}
			if servers[src.Name] == nil {
				servers[src.Name] = map[string]config.MCPServer{}
			}
			servers[src.Name][name] = red.MCPServers[name]
		}
		for file, set := range servers {
			byFile[file] = append(byFile[file], setting{f, plainJSON(set)})
		}
	}
	if len(byFile) == 0 {
		var files []string
		for _, f := range []string{config.ProjectConfigPath(root), config.MCPConfigPath(root)} {
			if _, err := os.Lstat(f); err == nil {
				files = append(files, f)
			}
		}
		fmt.Fprintf(c.stdout, "%s sets nothing that needs trust.\n", strings.Join(files, " and "))
		return
	}
	for _, file := range srcs.Files {
		set, ok := byFile[file]
		if !ok {
			continue
		}
		fmt.Fprintf(c.stdout, "%s sets:\n", safetext.LineOf(file))
		for _, s := range set {
			// JSON escapes control characters but not bidi controls or
			// invisible ones, which would make a command read as another.
			fmt.Fprintf(c.stdout, "  %-16s %s\n", s.field, safetext.LineOf(s.value))
		}
	}
}

// plainJSON is v as one line of JSON, with <, > and & as they are (the
// redacted "<redacted>" reads as such).
func plainJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

func (c *cli) writeTrust(t trustFile) error {
	path := c.trustPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save trust: %w", err)
	}
	data, _ := json.MarshalIndent(t, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("save trust to %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save trust to %s: %w", path, err)
	}
	return nil
}
