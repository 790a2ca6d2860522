package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"pincer/config"
	"pincer/internal/safetext"
	"pincer/tools/mcp"
)

// mcpManager prepares the configured MCP servers of the project (Start
// starts them): their logs go under the data directory, they run in the
// project, and pincer's own API keys stay out of their environment.
func (c *cli) mcpManager(p *project, onChange func()) *mcp.Manager {
	return mcp.New(c.mcpOptions(p, onChange))
}

// mcpOptions are the options of the project's MCP manager; logins are
// read from the token store but never started (no Login).
func (c *cli) mcpOptions(p *project, onChange func()) mcp.Options {
	names := slices.Sorted(maps.Keys(p.cfg.MCPServers))
	servers := make([]mcp.Server, 0, len(names))
	for _, name := range names {
		servers = append(servers, mcpServer(name, p.cfg.MCPServers[name]))
	}
	return mcp.Options{
		Servers:  servers,
		LogDir:   filepath.Join(filepath.Dir(c.storePath(p)), "mcp"),
		Dir:      p.root,
		Timeout:  p.cfg.MCPTimeout.Std(),
		Getenv:   c.getenv,
		DropEnv:  c.keyVariables(p),
		OnChange: onChange,
		Version:  version,
		Tokens:   c.mcpTokens(p),
	}
}

// mcpServer is a configured server as the manager takes it.
func mcpServer(name string, s config.MCPServer) mcp.Server {
	out := mcp.Server{
		Name: name, Type: s.Type, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers,
		Disabled: s.Disabled, HideTools: s.HideTools, Trusted: s.Trusted,
	}
	if o := s.OAuth; o != nil {
		out.OAuth = mcp.OAuth{ClientID: o.ClientID, ClientSecret: o.ClientSecret, ClientMetadataURL: o.ClientMetadataURL,
			Scopes: o.Scopes, CallbackPort: o.CallbackPort}
	}
	return out
}

// mcpTokens is where the logins to MCP servers are kept: beside the
// session store in the user's data directory, never in a project.
func (c *cli) mcpTokens(p *project) *mcp.TokenStore {
	return mcp.NewTokenStore(filepath.Join(filepath.Dir(c.storePath(p)), "mcp-auth"))
}

// describeMCP lists the servers as /mcp and 'pincer mcp list' show them:
// one line per server with its status, then its tools and its log. What
// the servers said is foreign, so every part goes through the sanitiser.
func describeMCP(infos []mcp.Info, ignored bool) string {
	var b strings.Builder
	if len(infos) == 0 {
		b.WriteString("No MCP servers are configured. Add one with: pincer mcp add NAME -- COMMAND ARGS…  (or list them under mcp_servers in the config, or in the project's .mcp.json)")
	}
	for i, in := range infos {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s (%s): %s", safetext.LineOf(in.Name), in.Transport, in.Status)
		if in.Reason != "" {
			b.WriteString(" — " + safetext.LineOf(in.Reason))
		}
		if in.Trusted {
			b.WriteString(" [trusted: read-only tools run unasked]")
		}
		if in.LoggedIn {
			b.WriteString(" [logged in: pincer mcp logout " + safetext.LineOf(in.Name) + " forgets it]")
		}
		if len(in.Tools) > 0 {
			b.WriteString("\n  tools: " + safetext.LineOf(strings.Join(in.Tools, ", ")))
		}
		if len(in.Hidden) > 0 {
			b.WriteString("\n  hidden: " + safetext.LineOf(strings.Join(in.Hidden, ", ")))
		}
		for _, w := range in.Warnings {
			b.WriteString("\n  left out: " + safetext.LineOf(w))
		}
		if in.LogPath != "" {
			b.WriteString("\n  log: " + safetext.LineOf(in.LogPath))
		}
	}
	if ignored {
		b.WriteString("\nThis project's own MCP servers (.pincer.json or .mcp.json) start only once you trust it: pincer trust")
	}
	return b.String()
}

func (c *cli) mcpCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "List, add and remove MCP servers",
		Long: `MCP servers give the model more tools: each server's tools appear to it as
mcp__SERVER__TOOL. Servers come from mcp_servers in your config file, from a
project's .pincer.json and from a project's .mcp.json (the format other tools
use); a project's servers start only once you trust the project. Every call
asks first, unless an allow rule names the tool (allow: ["mcp__github__get_issue"])
or the server is trusted and the tool says it only reads.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(c.mcpListCommand(), c.mcpAddCommand(), c.mcpRmCommand(), c.mcpLoginCommand(), c.mcpLogoutCommand(), c.mcpConformanceCommand())
	return cmd
}

func (c *cli) mcpListCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Start the configured MCP servers and show their status, tools and logs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := c.loadProject()
			if err != nil {
				return err
			}
			m := c.mcpManager(p, nil)
			m.Start()
			defer m.Close()
			ctx, cancel := context.WithTimeout(cmd.Context(), mcp.DefaultStartTimeout+5*time.Second)
			defer cancel()
			_ = m.Wait(ctx) // whatever is still starting is shown as such
			infos := m.Servers()
			if asJSON {
				enc := json.NewEncoder(c.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			fmt.Fprintln(c.stdout, describeMCP(infos, slices.Contains(p.srcs.Ignored, "mcp_servers")))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the servers as JSON")
	return cmd
}

// userConfigFile is the user config file that mcp add and rm edit: the
// one PINCER_CONFIG names, else the usual one.
func (c *cli) userConfigFile() (string, error) {
	if named := strings.TrimSpace(c.getenv(config.EnvConfig)); named != "" {
		if home := c.getenv("HOME"); home != "" && strings.HasPrefix(named, "~/") {
			named = filepath.Join(home, named[2:])
		}
		return filepath.Abs(named)
	}
	path := config.UserConfigPath(c.getenv)
	if path == "" {
		return "", usageError(errors.New("cannot tell where the user config file goes; set XDG_CONFIG_HOME or HOME, or PINCER_CONFIG"))
	}
	return path, nil
}

func (c *cli) mcpAddCommand() *cobra.Command {
	var env, headers, scopes []string
	var url, clientID, clientSecret, clientMetadata string
	var trusted bool
	var callbackPort int
	cmd := &cobra.Command{
		Use:   "add NAME [--url URL | -- COMMAND ARGS…]",
		Short: "Add an MCP server to your config file",
		Example: `  pincer mcp add fs -- npx -y @modelcontextprotocol/server-filesystem ~/notes
  pincer mcp add github --url https://api.githubcopilot.com/mcp/ --header 'Authorization: Bearer ${GITHUB_TOKEN}'
  pincer mcp add linear --url https://mcp.linear.app/mcp     (then: pincer mcp login linear)
  pincer mcp add corp --url https://mcp.corp.example/mcp --client-id pincer --client-secret '${CORP_MCP_SECRET}'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			dash := cmd.ArgsLenAtDash()
			if dash > 1 || (dash < 0 && len(args) > 1) {
				return usageError(errors.New("put the server's command after --, e.g. pincer mcp add fs -- npx -y @modelcontextprotocol/server-filesystem ."))
			}
			if strings.TrimSpace(name) == "" || strings.ContainsAny(name, "\x00\n\r\t") {
				return usageError(fmt.Errorf("the server name %q is empty or holds control characters; use a short name such as github", name))
			}
			s := config.MCPServer{URL: url, Trusted: trusted}
			if dash == 1 && len(args) > 1 {
				s.Command, s.Args = args[1], args[2:]
			}
			if (s.Command == "") == (s.URL == "") {
				return usageError(errors.New("give either a command after -- (a server over stdio) or --url (a server over HTTP)"))
			}
			for _, kv := range env {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return usageError(fmt.Errorf("--env %q is not KEY=VALUE", kv))
				}
				if s.Env == nil {
					s.Env = map[string]string{}
				}
				s.Env[k] = v
			}
			for _, h := range headers {
				k, v, ok := strings.Cut(h, ":")
				if !ok || strings.TrimSpace(k) == "" {
					return usageError(fmt.Errorf("--header %q is not 'Name: value'", h))
				}
				if s.Headers == nil {
					s.Headers = map[string]string{}
				}
				s.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			if clientID != "" || clientSecret != "" || clientMetadata != "" || len(scopes) > 0 || callbackPort != 0 {
				if s.URL == "" {
					return usageError(errors.New("--client-id, --client-secret, --client-metadata-url, --scope and --callback-port are for a server over HTTP; give its --url"))
				}
				if clientSecret != "" && clientID == "" {
					return usageError(errors.New("--client-secret goes with the --client-id it belongs to"))
				}
				if clientSecret != "" && !strings.HasPrefix(clientSecret, "${") {
					return usageError(errors.New("write --client-secret as a ${VARIABLE} (e.g. --client-secret '${CORP_MCP_SECRET}' in single quotes), so the secret is not saved in the config file"))
				}
				if callbackPort < 0 || callbackPort > 65535 {
					return usageError(fmt.Errorf("--callback-port %d is not a port; give 1 to 65535", callbackPort))
				}
				s.OAuth = &config.MCPOAuth{ClientID: clientID, ClientSecret: clientSecret, ClientMetadataURL: clientMetadata,
					Scopes: scopes, CallbackPort: callbackPort}
			}
			path, err := c.userConfigFile()
			if err != nil {
				return err
			}
			exists := false
			err = config.SaveUser(path, func(f *config.FileConfig) {
				if _, exists = f.MCPServers[name]; exists {
					return
				}
				servers := maps.Clone(f.MCPServers)
				if servers == nil {
					servers = map[string]config.MCPServer{}
				}
				servers[name] = s
				f.MCPServers = servers
			})
			if err != nil {
				return fmt.Errorf("save the server to %s: %w", path, err)
			}
			if exists {
				return usageError(fmt.Errorf("an MCP server named %q is already in %s; remove it first with: pincer mcp rm %s", name, path, name))
			}
			fmt.Fprintf(c.stdout, "Added the MCP server %s to %s. It starts with pincer; check it with: pincer mcp list\n", safetext.LineOf(name), path)
			return nil
		},
	}
	cmd.Flags().StringArrayVarP(&env, "env", "e", nil, "an environment variable for the server, KEY=VALUE (repeatable); the value may name ${VARIABLES}")
	cmd.Flags().StringVar(&url, "url", "", "the server's streamable HTTP endpoint, instead of a command")
	cmd.Flags().StringArrayVar(&headers, "header", nil, "an HTTP header, 'Name: value' (repeatable); write tokens as ${VARIABLE} so none is saved")
	cmd.Flags().BoolVar(&trusted, "trusted", false, "run the server's read-only tools without asking")
	cmd.Flags().StringVar(&clientID, "client-id", "", "an OAuth client registered for pincer with the server's authorization server")
	cmd.Flags().StringVar(&clientSecret, "client-secret", "", "its secret, as a ${VARIABLE} in single quotes")
	cmd.Flags().StringVar(&clientMetadata, "client-metadata-url", "", "the HTTPS URL of a client ID metadata document that describes pincer")
	cmd.Flags().StringArrayVar(&scopes, "scope", nil, "an OAuth scope to ask for besides the server's own (repeatable)")
	cmd.Flags().IntVar(&callbackPort, "callback-port", 0, "the port the browser returns to after a login (http://127.0.0.1:PORT/callback), when the client's registration names one")
	return cmd
}

func (c *cli) mcpRmCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove an MCP server from your config file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			path, err := c.userConfigFile()
			if err != nil {
				return err
			}
			found := false
			err = config.SaveUser(path, func(f *config.FileConfig) {
				if _, found = f.MCPServers[name]; !found {
					return
				}
				servers := maps.Clone(f.MCPServers)
				delete(servers, name)
				if len(servers) == 0 {
					servers = nil
				}
				f.MCPServers = servers
			})
			if err != nil {
				return fmt.Errorf("remove the server from %s: %w", path, err)
			}
			if !found {
				return usageError(fmt.Errorf("there is no MCP server named %q in %s; a project's servers are in its .pincer.json or .mcp.json (set \"disabled\": true there to keep one from starting); see pincer mcp list", name, path))
			}
			fmt.Fprintf(c.stdout, "Removed the MCP server %s from %s.\n", safetext.LineOf(name), path)
			return nil
		},
	}
}

// mcpAlerts turns changes of the servers' status into notices for the
// screen: a server that failed, with the reason, and one that is being
// restarted. alert must not block.
type mcpAlerts struct {
	mu    sync.Mutex
	seen  map[string]string // server → the status and reason last told
	alert func(string)
}

// changed compares the servers with what was last told.
func (a *mcpAlerts) changed(infos []mcp.Info) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.seen == nil {
		a.seen = map[string]string{}
	}
	for _, in := range infos {
		key := string(in.Status) + "\x00" + in.Reason + "\x00" + strings.Join(in.Warnings, "\x00")
		if a.seen[in.Name] == key {
			continue
		}
		a.seen[in.Name] = key
		if in.Status == mcp.StatusReady {
			for _, w := range in.Warnings {
				a.alert(fmt.Sprintf("MCP server %s: %s. /mcp lists the servers.", safetext.LineOf(in.Name), safetext.LineOf(w)))
			}
		}
		switch {
		case in.Status == mcp.StatusFailed:
			a.alert(fmt.Sprintf("MCP server %s failed: %s. /mcp lists the servers.", safetext.LineOf(in.Name), safetext.LineOf(in.Reason)))
		case in.Status == mcp.StatusStarting && in.Restarts > 0:
			a.alert(fmt.Sprintf("MCP server %s stopped; starting it once more (%s).", safetext.LineOf(in.Name), safetext.LineOf(in.Reason)))
		case in.Status == mcp.StatusReady && in.Restarts > 0:
			a.alert(fmt.Sprintf("MCP server %s is back: %d tools.", safetext.LineOf(in.Name), len(in.Tools)))
		}
	}
}

// warnMCP tells a headless run which servers could not start.
func warnMCP(w io.Writer, infos []mcp.Info) {
	for _, in := range infos {
		switch in.Status {
		case mcp.StatusFailed:
			fmt.Fprintf(w, "pincer: warning: the MCP server %s is not available: %s\n", safetext.LineOf(in.Name), safetext.LineOf(in.Reason))
		case mcp.StatusStarting:
			fmt.Fprintf(w, "pincer: warning: the MCP server %s is still starting; its tools are offered once it is ready\n", safetext.LineOf(in.Name))
		case mcp.StatusReady:
			for _, warning := range in.Warnings {
				fmt.Fprintf(w, "pincer: warning: the MCP server %s: %s\n", safetext.LineOf(in.Name), safetext.LineOf(warning))
			}
		}
	}
}
