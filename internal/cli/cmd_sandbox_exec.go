package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"pincer/safety"
	sbx "pincer/tools/sandbox"
)

func (c *cli) sandboxExecCommand() *cobra.Command {
	var profile string
	var mode sandboxFlag
	cmd := &cobra.Command{
		Use:   "exec [--profile NAME] [--cwd DIR] -- COMMAND [ARGS...]",
		Short: "Run a command in one of pincer's jails",
		Long: `exec runs COMMAND in exactly the jail pincer would give a command of the
model's, in the project at --cwd (default: the current directory), and exits with
its exit status (128 + the signal's number when a signal ended it). Use it to
check a claim about the jail, or to run a script of your own in it.

Profiles: inspect (what read-only commands get: no writes but /tmp, no network,
the project's secret files masked), contained (what auto approvals run: the
project writable, no network), workspace (what you approve; the default).

The command gets your environment without the API key variables (and, in
inspect and contained, without any variable named like a secret), its own
session (no controlling terminal), and your stdin, stdout and stderr.`,
		Example: `pincer sandbox exec --profile inspect -- cat .env
pincer sandbox exec --profile contained -- go test ./...
pincer sandbox exec -- sh -c 'echo hi > /tmp/x && ls /tmp'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pr := safety.Profile(profile)
			if !pr.Valid() {
				return usageError(fmt.Errorf("--profile %q is not one of pincer's jails; use inspect, contained or workspace", profile))
			}
			p, err := c.loadProject(&mode)
			if err != nil {
				return err
			}
			st := c.sandboxState(p)
			if !st.Active {
				return usageError(fmt.Errorf("there is no jail to run %s in: %s", args[0], strings.TrimSuffix(st.Note, ".")))
			}
			cs := newCommandSandbox(st, st.policy)
			defer cs.Close()
			l := cs.Launcher(pr)
			if l == nil {
				return fmt.Errorf("there is no %s jail here", pr)
			}
			files, closeFiles, err := c.stdFiles()
			if err != nil {
				return err
			}
			defer closeFiles()
			drop := c.keyVariables(p)
			// As run_command gives it: unasked profiles get no variable
			// named like a secret.
			unasked := pr == safety.ProfileInspect || pr == safety.ProfileContained
			env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
				k, _, _ := strings.Cut(kv, "=")
				return slices.Contains(drop, k) || unasked && safety.SecretVarName(k)
			})
			proc, err := l.Start(sbx.Request{Path: args[0], Argv: args, Env: env, Dir: p.root, Stdin: files[0], Stdout: files[1], Stderr: files[2]})
			if err != nil {
				return fmt.Errorf("could not run %s in the %s jail: %w", args[0], pr, err)
			}
			done := make(chan struct{})
			go func() {
				select {
				case <-cmd.Context().Done():
					proc.Kill()
				case <-done:
				}
			}()
			exit, err := proc.Wait()
			close(done)
			closeFiles()
			if err != nil {
				return fmt.Errorf("the %s jail lost %s: %w", pr, args[0], err)
			}
			switch {
			case exit.Signal != 0:
				return &exitError{code: 128 + int(exit.Signal), silent: true}
			case exit.Code != 0:
				return &exitError{code: exit.Code, silent: true}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&profile, "profile", string(safety.ProfileWorkspace), "the jail: inspect, contained or workspace")
	// Everything after the command's name is the command's, flags too.
	cmd.Flags().SetInterspersed(false)
	mode.register(cmd.Flags())
	return cmd
}

// stdFiles are the command's stdin, stdout and stderr: pincer's own when
// they are files (a terminal, a pipe), else pipes copied to and from
// them. closeFiles closes what was made here and waits for the copies.
func (c *cli) stdFiles() (files [3]*os.File, closeFiles func(), err error) {
	var closers []func()
	var waits []chan struct{}
	closeFiles = func() {
		for _, f := range closers {
			f()
		}
		closers = nil
		for _, w := range waits {
			<-w
		}
		waits = nil
	}
	streams := []any{c.stdin, c.stdout, c.stderr}
	for i, s := range streams {
		if f, ok := s.(*os.File); ok {
			files[i] = f
			continue
		}
		r, w, perr := os.Pipe()
		if perr != nil {
			closeFiles()
			return files, nil, errors.Join(errors.New("make a pipe for the command"), perr)
		}
		done := make(chan struct{})
		if i == 0 {
			files[i] = r
			src, _ := s.(io.Reader)
			go func() {
				defer close(done)
				if src != nil {
					_, _ = io.Copy(w, src)
				}
				w.Close()
			}()
			closers = append(closers, func() { r.Close() })
			continue // the command's end of stdin is not waited for
		}
		files[i] = w
		dst, _ := s.(io.Writer)
		go func() {
			defer close(done)
			if dst != nil {
				_, _ = io.Copy(dst, r)
			}
			r.Close()
		}()
		closers = append(closers, func() { w.Close() })
		waits = append(waits, done)
	}
	return files, closeFiles, nil
}
