package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"pincer/agent"
	"pincer/internal/atomicfile"
)

// checkDecisionsFile holds, in pincer's data directory, what the person
// answered when asked whether to run the check after each turn, by
// project root: asked once per project.
const checkDecisionsFile = "checks.json"

// checkDecisions reads and records the answers; it is safe for use from
// several goroutines.
type checkDecisions struct {
	path string
	mu   sync.Mutex
}

func (d *checkDecisions) load() (map[string]bool, error) {
	data, err := os.ReadFile(d.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON (%v); remove it to be asked again", d.path, err)
	}
	return out, nil
}

// get returns the answer recorded for root.
func (d *checkDecisions) get(root string) (run, known bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	all, err := d.load()
	if err != nil {
		return false, false, err
	}
	run, known = all[root]
	return run, known, nil
}

// set records the answer for root.
func (d *checkDecisions) set(root string, run bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	all, err := d.load()
	if err != nil {
		return err
	}
	all[root] = run
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(d.path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(d.path, data, 0o600)
}

// checkCommand is the check for p: the configured one, else the one its
// files suggest; "" when there is none.
func checkCommand(p *project) string {
	if p.cfg.Check != "" {
		return p.cfg.Check
	}
	return agent.DetectCheck(p.root, exec.LookPath)
}

// checkOptions are the agent's check for p. force runs it without asking
// (pincer run --check); canAsk says somebody is there to be asked (the
// screen): without, auto_check "ask" leaves it off.
func (c *cli) checkOptions(p *project, force, canAsk bool) *agent.CheckOptions {
	command := checkCommand(p)
	if command == "" {
		if force {
			fmt.Fprintln(c.stderr, "pincer: warning: --check: no check is configured and none could be detected; set \"check\" in the config, such as \"make test\"")
		}
		return nil
	}
	o := &agent.CheckOptions{Command: command, Rounds: p.cfg.CheckRounds}
	switch {
	case force:
		return o
	case p.cfg.AutoCheck == "off":
		return nil
	case p.cfg.AutoCheck == "on":
		return o
	case !canAsk:
		return nil
	}
	d := &checkDecisions{path: filepath.Join(c.dataDir(p), checkDecisionsFile)}
	run, known, err := d.get(p.root)
	if err != nil {
		fmt.Fprintf(c.stderr, "pincer: warning: %v\n", err)
		return nil
	}
	if known {
		if !run {
			return nil
		}
		return o
	}
	o.Ask = true
	o.Decided = func(run bool) {
		if err := d.set(p.root, run); err != nil {
			fmt.Fprintf(c.stderr, "pincer: warning: could not remember the answer about the check: %v\n", err)
		}
	}
	return o
}
