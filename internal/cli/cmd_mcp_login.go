package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	xterm "github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"pincer/internal/browser"
	"pincer/internal/human"
	"pincer/internal/safetext"
	"pincer/tools/mcp"
	"pincer/ui"
	"pincer/ui/headless"
)

// mcpLoginTimeout is how long 'pincer mcp login' gives a person to log in
// in the browser.
const mcpLoginTimeout = 5 * time.Minute

// mcpHTTPServerNamed returns the configured server over HTTP called name, or a
// usage error that says what is wrong.
func (c *cli) mcpHTTPServerNamed(p *project, name string) (mcp.Server, error) {
	s, ok := p.cfg.MCPServers[name]
	if !ok {
		known := slices.Sorted(func(yield func(string) bool) {
			for n, s := range p.cfg.MCPServers {
				if s.URL != "" && !yield(n) {
					return
				}
			}
		})
		hint := "add it with: pincer mcp add NAME --url URL"
		if len(known) > 0 {
			hint = "the servers over HTTP are: " + strings.Join(known, ", ")
		}
		if slices.Contains(p.srcs.Ignored, "mcp_servers") {
			hint += "; this project's own servers count only once you trust it: pincer trust"
		}
		return mcp.Server{}, usageError(fmt.Errorf("there is no MCP server named %q; %s", name, hint))
	}
	if s.URL == "" {
		return mcp.Server{}, usageError(fmt.Errorf("the MCP server %s runs as a command over stdio, and only a server over HTTP asks for a login; give it its credentials with --env instead", name))
	}
	return mcpServer(name, s), nil
}

func (c *cli) mcpLoginCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "login NAME",
		Short: "Log in to an MCP server over HTTP that asks for authorization",
		Long: `Logs in to the MCP server NAME with OAuth, as the MCP specification says:
pincer finds the server's authorization server, registers itself there (or
uses the client given with mcp add --client-id), and asks before opening the
authorization page in your browser ($BROWSER, or the system's opener); without
a browser it prints the address. The browser comes back to pincer on
127.0.0.1. The tokens are kept in pincer's data directory, readable by you
only, and are sent to that server's URL only; pincer refreshes them as they
expire. A server logs in again with this command; mcp logout forgets it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := c.loadProject()
			if err != nil {
				return err
			}
			server, err := c.mcpHTTPServerNamed(p, args[0])
			if err != nil {
				return err
			}
			server.Disabled = false
			opts := c.mcpOptions(p, nil)
			opts.Servers = []mcp.Server{server}
			opts.Relogin = true
			opts.StartTimeout = mcpLoginTimeout + 30*time.Second
			asked := false
			opts.Login = func(ctx context.Context, name, authURL string) error {
				asked = true
				return c.showLogin(ctx, name, authURL)
			}
			m := mcp.New(opts)
			m.Start()
			defer m.Close()
			ctx, cancel := context.WithTimeout(cmd.Context(), opts.StartTimeout+5*time.Second)
			defer cancel()
			_ = m.Wait(ctx)
			in := m.Servers()[0]
			name := safetext.LineOf(server.Name)
			switch {
			case in.Status != mcp.StatusReady:
				return fmt.Errorf("could not log in to the MCP server %s: %s", name, safetext.LineOf(in.Reason))
			case !asked:
				fmt.Fprintf(c.stdout, "The MCP server %s did not ask for a login: it is ready with %s.\n", name, human.Plural(len(in.Tools), "tool"))
			default:
				fmt.Fprintf(c.stdout, "Logged in to the MCP server %s: it is ready with %s. The login is kept in %s; forget it with: pincer mcp logout %s\n",
					name, human.Plural(len(in.Tools), "tool"), opts.Tokens.Dir(), name)
			}
			return nil
		},
	}
}

// showLogin tells the person where to log in to server, and opens the
// page in their browser if they say so; without a terminal to ask or a
// browser to open, it prints the address and how to reach pincer's
// callback from another machine.
func (c *cli) showLogin(ctx context.Context, server, authURL string) error {
	w := c.stderr
	fmt.Fprintf(w, "The MCP server %s asks you to log in. Its authorization page:\n\n  %s\n\n", safetext.LineOf(server), safetext.LineOf(authURL))
	opener, found := browser.Find(c.getenv, exec.LookPath)
	in, isFile := c.stdin.(*os.File)
	if found && isFile && xterm.IsTerminal(in.Fd()) {
		fmt.Fprint(w, "Open it in your browser? [Y/n] ")
		answer, err := readLine(ctx, in)
		if err != nil {
			return err
		}
		if a := strings.ToLower(strings.TrimSpace(answer)); a == "" || a == "y" || a == "yes" {
			if err := opener.Open(authURL); err != nil {
				fmt.Fprintf(w, "Could not open the browser (%s); open the page yourself.\n", safetext.LineOf(err.Error()))
			}
		}
	} else if port := callbackPort(authURL); port != "" {
		fmt.Fprintf(w, "Open it in a browser on this machine. From another machine, forward pincer's port first: ssh -L %s:127.0.0.1:%s THIS-HOST\n", port, port)
	}
	fmt.Fprintf(w, "Waiting for the browser to come back (at most %s)…\n", mcpLoginTimeout)
	return nil
}

// callbackPort is the port of the loopback redirect an authorization URL
// names, or "".
func callbackPort(authURL string) string {
	u, err := url.Parse(authURL)
	if err != nil {
		return ""
	}
	r, err := url.Parse(u.Query().Get("redirect_uri"))
	if err != nil || r.Hostname() != "127.0.0.1" {
		return ""
	}
	return r.Port()
}

// readLine reads one line of the terminal, or gives up when ctx ends.
func readLine(ctx context.Context, in *os.File) (string, error) {
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(in).ReadString('\n')
		got <- line
	}()
	select {
	case line := <-got:
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (c *cli) mcpLogoutCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "logout NAME",
		Short: "Forget the login to an MCP server",
		Long: `Deletes the tokens pincer keeps for the MCP server NAME. The server asks for a
login again the next time pincer starts it (pincer mcp login NAME). The
tokens are not revoked at the authorization server: do that on its page of
authorized applications if you want them dead before they expire.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := c.loadProject()
			if err != nil {
				return err
			}
			name := args[0]
			had, err := c.mcpTokens(p).Forget(name)
			if err != nil {
				return err
			}
			if !had {
				return usageError(errors.New("pincer has no login to an MCP server named " + safetext.LineOf(name) + "; pincer mcp list shows the servers"))
			}
			fmt.Fprintf(c.stdout, "Forgot the login to the MCP server %s.\n", safetext.LineOf(name))
			return nil
		},
	}
}

// runElicitor answers what MCP servers ask during 'pincer run': on the
// terminal when standard input is one, else declined (--yes accepts a
// form whose every field has a default); a page is opened in the browser
// only after the person says yes.
func (c *cli) runElicitor(yes bool) mcp.Elicitor {
	var term *os.File
	if in, ok := c.stdin.(*os.File); ok && xterm.IsTerminal(in.Fd()) {
		term = in // a real terminal: /dev/null is a character device too
	}
	if term == nil {
		return headless.Elicitor(nil, c.stderr, yes, c.openPage)
	}
	return headless.Elicitor(term, c.stderr, yes, c.openPage)
}

// openPage opens a web page in the person's browser, if this machine has
// one.
func (c *cli) openPage(page string) error {
	opener, ok := browser.Find(c.getenv, exec.LookPath)
	if !ok {
		return errors.New("no browser on this machine")
	}
	return opener.Open(page)
}

// mcpPromptText makes the prompt of a line that runs a server's prompt
// ("/mcp__SERVER__PROMPT args"); ok is false for any other line.
func mcpPromptText(ctx context.Context, servers *mcp.Manager, line string) (text string, ok bool, err error) {
	name, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	if !strings.HasPrefix(name, "/mcp__") {
		return "", false, nil
	}
	for _, p := range servers.Prompts() {
		if "/"+p.Command() != name {
			continue
		}
		parsed, err := p.ParseArgs(args)
		if err != nil {
			return "", true, err
		}
		text, err := servers.GetPrompt(ctx, p.Server, p.Name, parsed)
		return text, true, err
	}
	return "", false, nil
}

// mcpPromptCommands are the screen's commands for the prompts of the
// servers ready now: /mcp__SERVER__PROMPT, which sends the prompt the
// server makes of the arguments.
func mcpPromptCommands(servers *mcp.Manager) []ui.Command {
	var out []ui.Command
	for _, p := range servers.Prompts() {
		help := "the prompt " + p.Name + " of the MCP server " + p.Server
		if p.Description != "" {
			help += ": " + p.Description
		}
		out = append(out, ui.PromptCommand(ui.CustomCommand{
			Name: p.Command(), Args: safetext.LineOf(p.Usage()), Help: safetext.LineOf(help),
			Render: func(ctx context.Context, args string, _ func(context.Context, string) (string, error)) (string, error) {
				parsed, err := p.ParseArgs(args)
				if err != nil {
					return "", err
				}
				return servers.GetPrompt(ctx, p.Server, p.Name, parsed)
			},
		}))
	}
	return out
}
