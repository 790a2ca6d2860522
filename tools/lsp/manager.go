// Package lsp is pincer's language-server client: it starts the servers a
// project needs (lazily, one per language, in the command jail), keeps
// them told of the files pincer changes, turns what they publish into
// diagnostics for the model after each edit, and answers the navigation
// tools (definition, references, hover, symbols, rename).
//
// The JSON-RPC 2 framing and message matching are
// github.com/sourcegraph/jsonrpc2's; the protocol structures pincer uses
// are in protocol.go.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Defaults of the Manager's options.
const (
	DefaultWait           = 8 * time.Second
	DefaultFirstWait      = 45 * time.Second
	DefaultStartTimeout   = 30 * time.Second
	DefaultRequestTimeout = 20 * time.Second
	DefaultMaxRestarts    = 3
)

// Options configure a Manager.
type Options struct {
	// Root is the project, absolute: the workspace every server gets.
	Root string
	// Servers are the servers by language (Merge of Defaults and the
	// configuration).
	Servers map[string]ServerConfig
	// Start starts a server's program; nil means ExecStarter.
	Start Starter
	// LookPath finds a program on PATH; nil means exec.LookPath.
	LookPath func(string) (string, error)
	// Environ is the environment servers start with (nil means
	// os.Environ()), less DropEnv (pincer's API keys).
	Environ []string
	DropEnv []string
	// Wait bounds how long a change waits for its diagnostics (0 means
	// DefaultWait); FirstWait, how long it waits for a server that has
	// not published anything yet, which is still loading the project
	// (0 means DefaultFirstWait).
	Wait, FirstWait time.Duration
	// StartTimeout bounds a server's initialize; RequestTimeout one
	// navigation request. A server that does not answer in time is taken
	// for hung: ended, and started again on the next use.
	StartTimeout, RequestTimeout time.Duration
	// MaxRestarts is how many times a server that crashed or hung is
	// started again before pincer leaves it off (0 means
	// DefaultMaxRestarts).
	MaxRestarts int
	// OnChange, when set, is called (from another goroutine) when a
	// server's state or its diagnostics change, so a screen can redraw.
	OnChange func()
}

// State is where a language's server is in its life.
type State string

// The states of a server.
const (
	StateIdle     State = "idle"     // not started: no file of its language was touched yet
	StateStarting State = "starting" // starting or initializing
	StateReady    State = "ready"
	StateFailed   State = "failed"   // crashed or hung; starts again on the next use
	StateOff      State = "off"      // failed too often; left off for the session
	StateMissing  State = "missing"  // its program is not on PATH
	StateDisabled State = "disabled" // switched off in the configuration
)

// Manager runs one server per language for one project. It is safe for
// use from several goroutines; a Manager whose languages have no server
// running costs a map lookup per call.
type Manager struct {
	opts  Options
	byExt map[string]string // ".go" → "go"

	mu        sync.Mutex
	slots     map[string]*slot
	closed    bool
	notices   []string          // for the next report
	baselines map[string][]byte // content before a planned edit, by path
}

// slot is one language's server and its history.
type slot struct {
	lang     string
	cfg      ServerConfig
	argv     []string // resolved at the first use
	path     string
	state    State
	srv      *server
	ready    chan struct{} // closed when the start under way ends
	restarts int
	lastErr  string
	// disk is the language's files as last seen, to tell what a command
	// changed (nil until recorded, or when there are too many).
	disk diskState
}

// New prepares a manager; no server starts before a file of its language
// is used.
func New(o Options) *Manager {
	if o.Start == nil {
		o.Start = ExecStarter
	}
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	if o.FirstWait <= 0 {
		o.FirstWait = max(DefaultFirstWait, o.Wait)
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.MaxRestarts <= 0 {
		o.MaxRestarts = DefaultMaxRestarts
	}
	if abs, err := filepath.Abs(o.Root); err == nil {
		o.Root = abs
	}
	if real, err := filepath.EvalSymlinks(o.Root); err == nil {
		o.Root = real
	}
	m := &Manager{opts: o, byExt: map[string]string{}, slots: map[string]*slot{}, baselines: map[string][]byte{}}
	langs := make([]string, 0, len(o.Servers))
	for lang := range o.Servers {
		langs = append(langs, lang)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		c := o.Servers[lang]
		st := StateIdle
		if c.Disabled {
			st = StateDisabled
		}
		m.slots[lang] = &slot{lang: lang, cfg: c, state: st}
		for _, ext := range c.Extensions {
			ext = strings.ToLower(ext)
			if _, taken := m.byExt[ext]; !taken {
				m.byExt[ext] = lang
			}
		}
	}
	return m
}

// Language is the language whose server handles path ("" for none).
func (m *Manager) Language(path string) string {
	if m == nil {
		return ""
	}
	ext := filepath.Ext(path)
	if lang, ok := m.byExt[ext]; ok {
		return lang
	}
	return m.byExt[strings.ToLower(ext)]
}

// usable is the slot of path's language when its server runs or may
// start; nil otherwise. m.mu is held.
func (m *Manager) usable(path string) *slot {
	lang := m.Language(path)
	if lang == "" || m.closed {
		return nil
	}
	sl := m.slots[lang]
	switch sl.state {
	case StateOff, StateMissing, StateDisabled:
		return nil
	}
	return sl
}

// Touch tells the manager that pincer used these files (absolute paths):
// the servers of their languages start, in the background, if they have
// not. It returns at once.
func (m *Manager) Touch(paths ...string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range paths {
		if sl := m.usable(p); sl != nil {
			m.startLocked(sl)
		}
	}
}

// Before is told what path (absolute) holds before an edit pincer is
// about to review or apply, so the problems the edit brings can be told
// from those that were there. It starts the language's server and, once
// it runs, shows it that content; it returns at once.
func (m *Manager) Before(path string, content []byte) {
	if m == nil {
		return
	}
	m.mu.Lock()
	sl := m.usable(path)
	if sl == nil {
		m.mu.Unlock()
		return
	}
	if len(m.baselines) > 64 {
		clear(m.baselines)
	}
	m.baselines[path] = content
	m.startLocked(sl)
	srv := sl.srv
	m.mu.Unlock()
	if srv != nil {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), m.opts.Wait)
			defer cancel()
			_, _ = srv.openText(ctx, path, content)
		}()
	}
}

// startLocked starts sl's server in the background unless it runs or is
// starting. m.mu is held.
func (m *Manager) startLocked(sl *slot) {
	switch sl.state {
	case StateReady, StateStarting, StateOff, StateMissing, StateDisabled:
		return
	}
	if sl.argv == nil {
		sl.argv, sl.path = resolveCommand(sl.cfg, m.opts.LookPath)
		if sl.path == "" {
			sl.state = StateMissing
			sl.lastErr = sl.argv[0] + " is not on PATH"
			return
		}
	}
	sl.state = StateStarting
	sl.ready = make(chan struct{})
	go m.start(sl, sl.ready)
	m.changed()
}

// start starts sl's server and records how it went.
func (m *Manager) start(sl *slot, ready chan struct{}) {
	defer close(ready)
	ctx, cancel := context.WithTimeout(context.Background(), m.opts.StartTimeout)
	defer cancel()
	cmd := Command{Path: sl.path, Args: sl.argv[1:], Dir: m.opts.Root, Env: environ(m.opts.Environ, m.opts.DropEnv, sl.cfg.Env)}
	var init json.RawMessage
	if len(sl.cfg.InitializationOptions) > 0 {
		init = json.RawMessage(sl.cfg.InitializationOptions)
	}
	srv, err := startServer(ctx, sl.lang, filepath.Base(sl.argv[0]), m.opts.Root, cmd, m.opts.Start, init)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		if srv != nil {
			go srv.kill()
		}
		return
	}
	if err != nil {
		m.failedLocked(sl, fmt.Errorf("start %s: %w", filepath.Base(sl.argv[0]), err))
		return
	}
	sl.srv, sl.state, sl.disk = srv, StateReady, nil
	go m.watch(sl, srv)
	go m.snapshot(sl, srv)
	m.changed()
}

// watch notices a server that ended on its own.
func (m *Manager) watch(sl *slot, srv *server) {
	<-srv.dead
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || sl.srv != srv {
		return
	}
	srv.kill()
	m.failedLocked(sl, srv.deathError())
}

// failedLocked records a crash, a hang or a failed start: the server
// starts again on its next use, until it has failed more than
// MaxRestarts times; then it is left off, with one notice. m.mu is held.
func (m *Manager) failedLocked(sl *slot, err error) {
	sl.srv = nil
	sl.lastErr = err.Error()
	sl.restarts++
	if sl.restarts > m.opts.MaxRestarts {
		sl.state = StateOff
		m.notices = append(m.notices, fmt.Sprintf("The %s language server failed %d times (last: %s); pincer leaves it off for this session, so edits to %s files get no diagnostics.",
			sl.lang, sl.restarts, sl.lastErr, sl.lang))
	} else {
		sl.state = StateFailed
	}
	m.changed()
}

// hung ends a server that did not answer in time; it counts as a crash.
func (m *Manager) hung(sl *slot, srv *server, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sl.srv != srv || m.closed {
		return
	}
	srv.kill()
	m.failedLocked(sl, err)
}

func (m *Manager) changed() {
	if m.opts.OnChange != nil {
		go m.opts.OnChange()
	}
}

// serverFor waits, within ctx, for sl's server to be ready, starting it
// when needed; nil when it could not start.
func (m *Manager) serverFor(ctx context.Context, sl *slot) *server {
	for range 2 {
		m.mu.Lock()
		m.startLocked(sl)
		srv, ready, st := sl.srv, sl.ready, sl.state
		m.mu.Unlock()
		switch st {
		case StateReady:
			return srv
		case StateStarting:
			select {
			case <-ready:
			case <-ctx.Done():
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// AfterChange tells the servers that the files at paths (absolute)
// changed, waits (at most Options.Wait) for their diagnostics, and
// reports them. Files no server handles are left out; when none is
// handled the report is empty, at the cost of a lookup per path.
func (m *Manager) AfterChange(ctx context.Context, paths []string) Report {
	if m == nil {
		return Report{}
	}
	groups := map[*slot][]string{}
	var order []*slot
	m.mu.Lock()
	for _, p := range paths {
		sl := m.usable(p)
		if sl == nil {
			continue
		}
		if _, seen := groups[sl]; !seen {
			order = append(order, sl)
		}
		groups[sl] = append(groups[sl], p)
	}
	rep := Report{Notices: m.takeNoticesLocked()}
	m.mu.Unlock()
	if len(order) == 0 {
		return rep
	}
	for _, sl := range order {
		m.check(ctx, sl, groups[sl], &rep)
	}
	m.finish(&rep, paths)
	return rep
}

// Refresh tells the servers of every file they have open that changed on
// disk since (a command's doing, a rewind), waits for the diagnostics of
// those, and reports them; empty when nothing changed or no server runs.
func (m *Manager) Refresh(ctx context.Context) Report {
	if m == nil {
		return Report{}
	}
	m.mu.Lock()
	var ready []*slot
	for _, sl := range m.slots {
		if sl.state == StateReady {
			ready = append(ready, sl)
		}
	}
	rep := Report{Notices: m.takeNoticesLocked()}
	m.mu.Unlock()
	if len(ready) == 0 {
		return rep
	}
	sort.Slice(ready, func(i, j int) bool { return ready[i].lang < ready[j].lang })
	var all []string
	for _, sl := range ready {
		m.mu.Lock()
		srv := sl.srv
		m.mu.Unlock()
		if srv == nil {
			continue
		}
		var changed []string
		for _, p := range srv.openPaths() {
			if srv.stale(p) {
				changed = append(changed, p)
			}
		}
		// Files the server does not have open: a command's new or changed
		// files are announced, and the first few opened and reported on.
		evs := m.diskChanges(ctx, sl)
		_ = srv.announce(ctx, evs)
		added := 0
		for _, e := range evs {
			if e.kind == fileDeleted || slices.Contains(changed, e.path) || added == maxNewChecked {
				continue
			}
			if _, open := srv.lastSync(e.path); open {
				continue
			}
			changed = append(changed, e.path)
			added++
		}
		if len(changed) == 0 {
			continue
		}
		sort.Strings(changed)
		all = append(all, changed...)
		m.check(ctx, sl, changed, &rep)
	}
	if len(all) == 0 {
		return rep
	}
	m.finish(&rep, all)
	return rep
}

// check syncs paths to sl's server, waits for their diagnostics and adds
// them to rep. It waits at most Wait, or FirstWait for a server that is
// starting or has not published yet (loading the project).
func (m *Manager) check(ctx context.Context, sl *slot, paths []string, rep *Report) {
	wait := m.opts.Wait
	m.mu.Lock()
	if sl.srv == nil || !sl.srv.hasPublished() {
		wait = m.opts.FirstWait
	}
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	srv := m.serverFor(ctx, sl)
	if srv == nil {
		m.mu.Lock()
		starting, argv := sl.state == StateStarting, sl.argv
		m.mu.Unlock()
		if starting && len(argv) > 0 {
			// Still starting when the wait ran out (a slow or busy
			// machine): the model is told none arrived in time, as for a
			// server that is up but silent, not left to think the files
			// went unchecked by design.
			rep.Servers = appendUnique(rep.Servers, filepath.Base(argv[0]))
		}
		for _, p := range paths {
			rep.Pending = append(rep.Pending, m.rel(p))
		}
		return
	}
	// Files shown to the server before the change first get their
	// diagnostics for that content: the baseline.
	var base []synced
	for _, p := range paths {
		m.mu.Lock()
		content, ok := m.baselines[p]
		delete(m.baselines, p)
		m.mu.Unlock()
		if ok {
			if sy, err := srv.openText(ctx, p, content); err == nil {
				base = append(base, sy)
			}
		} else if sy, ok := srv.lastSync(p); ok {
			base = append(base, sy)
		}
	}
	baseline := len(base) == len(paths) && srv.await(ctx, base)
	before := srv.diagnostics()
	var sent []synced
	for _, p := range paths {
		sy, err := srv.sync(ctx, p)
		if err != nil {
			break
		}
		sent = append(sent, sy)
	}
	m.restamp(sl, paths)
	complete := srv.await(ctx, sent)
	after := srv.diagnostics()
	rep.Servers = appendUnique(rep.Servers, srv.name)
	rep.Baseline = rep.Baseline || baseline
	changed := map[string]bool{}
	for _, p := range paths {
		changed[p] = true
		rep.Files = append(rep.Files, m.rel(p))
		if !complete {
			srv.mu.Lock()
			cur := false
			for _, sy := range sent {
				if sy.path == p {
					cur = srv.current(sy)
				}
			}
			srv.mu.Unlock()
			if !cur {
				rep.Pending = append(rep.Pending, m.rel(p))
				continue
			}
		}
		news := markNew(before[p], after[p])
		for i, d := range after[p] {
			if d.Severity != SeverityError && d.Severity != SeverityWarning && d.Severity != 0 {
				continue
			}
			rep.Items = append(rep.Items, m.item(srv, p, d, baseline && news[i]))
		}
	}
	// Errors the change caused elsewhere (a caller of a function whose
	// signature changed), as far as the server reported them in time.
	if baseline {
		for p, ds := range after {
			if changed[p] || !within(m.opts.Root, p) {
				continue
			}
			news := markNew(before[p], ds)
			for i, d := range ds {
				if news[i] && (d.Severity == SeverityError || d.Severity == 0) {
					rep.Items = append(rep.Items, m.item(srv, p, d, true))
				}
			}
		}
	}
	if !complete && ctx.Err() == nil && !srv.alive() {
		m.hung(sl, srv, srv.deathError())
	}
}

// finish sorts and counts the report's items and adds the project's
// total.
func (m *Manager) finish(rep *Report, paths []string) {
	order := map[string]int{}
	for i, p := range paths {
		if _, ok := order[m.rel(p)]; !ok {
			order[m.rel(p)] = i
		}
	}
	sortItems(rep.Items, order)
	rep.Errors, rep.Warnings, rep.New = 0, 0, 0
	for _, it := range rep.Items {
		switch it.Severity {
		case SeverityWarning:
			rep.Warnings++
		default:
			rep.Errors++
		}
		if it.New {
			rep.New++
		}
	}
	rep.Problems = m.Problems()
	rep.Total = 0
	for _, n := range rep.Problems {
		rep.Total += n
	}
	m.mu.Lock()
	rep.Notices = append(rep.Notices, m.takeNoticesLocked()...)
	m.mu.Unlock()
	m.changed()
}

// item turns a server's diagnostic of path into an Item with editor
// positions.
func (m *Manager) item(srv *server, path string, d wireDiagnostic, isNew bool) Item {
	sev := d.Severity
	if sev == 0 {
		sev = SeverityError
	}
	it := Item{Path: m.rel(path), Line: d.Range.Start.Line + 1, Severity: sev, Message: d.Message, Source: d.Source, New: isNew}
	text := srv.text(path)
	line := lineText(text, d.Range.Start.Line)
	col := d.Range.Start.Character
	if !srv.utf8 {
		col = byteColumn(line, col)
	}
	it.Column = runeColumn(line, col)
	if text == nil {
		it.Column = d.Range.Start.Character + 1
	}
	return it
}

// TotalErrors counts the errors the running servers report for the
// project's files.
func (m *Manager) TotalErrors() int {
	if m == nil {
		return 0
	}
	n := 0
	for _, c := range m.Problems() {
		n += c
	}
	return n
}

// Problems maps each project file (relative, forward slashes) that has
// errors to their number, for the tree.
func (m *Manager) Problems() map[string]int {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	var srvs []*server
	for _, sl := range m.slots {
		if sl.state == StateReady && sl.srv != nil {
			srvs = append(srvs, sl.srv)
		}
	}
	m.mu.Unlock()
	out := map[string]int{}
	for _, s := range srvs {
		for p, ds := range s.diagnostics() {
			if !within(m.opts.Root, p) {
				continue
			}
			for _, d := range ds {
				if d.Severity == SeverityError || d.Severity == 0 {
					out[m.rel(p)]++
				}
			}
		}
	}
	return out
}

// takeNoticesLocked returns the notices not yet given. m.mu is held.
func (m *Manager) takeNoticesLocked() []string {
	n := m.notices
	m.notices = nil
	return n
}

// Notices returns what the person should be told and was not yet.
func (m *Manager) Notices() []string {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.takeNoticesLocked()
}

// rel is path relative to the root with forward slashes, or path itself
// outside it.
func (m *Manager) rel(path string) string {
	if r, err := filepath.Rel(m.opts.Root, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return path
}

// within reports whether path lies inside root.
func within(root, path string) bool {
	return path == root || strings.HasPrefix(path, root+string(filepath.Separator))
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// Info is what is known about one language's server, for /lsp and
// `pincer lsp`.
type Info struct {
	Language string   `json:"language"`
	Command  []string `json:"command"`
	Path     string   `json:"path,omitempty"`
	Origin   string   `json:"origin,omitempty"`
	State    State    `json:"state"`
	Restarts int      `json:"restarts"`
	// Reason says why it is not running (its last error).
	Reason string `json:"reason,omitempty"`
	// Open counts the files the server was shown.
	Open int `json:"open"`
	// Problems are its current errors and warnings in the project.
	Problems []Item `json:"problems,omitempty"`
}

// Servers describes every language's server, running ones first.
func (m *Manager) Servers() []Info {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	var out []Info
	srvs := map[string]*server{}
	for _, sl := range m.slots {
		argv, path := sl.argv, sl.path
		if argv == nil {
			argv, path = resolveCommand(sl.cfg, m.opts.LookPath)
		}
		in := Info{Language: sl.lang, Command: argv, Path: path, Origin: sl.cfg.Origin, State: sl.state, Restarts: sl.restarts, Reason: sl.lastErr}
		if in.State == StateIdle && path == "" {
			in.Reason = argv[0] + " is not on PATH"
		}
		if sl.srv != nil {
			srvs[sl.lang] = sl.srv
		}
		out = append(out, in)
	}
	m.mu.Unlock()
	for i := range out {
		srv := srvs[out[i].Language]
		if srv == nil {
			continue
		}
		out[i].Open = len(srv.openPaths())
		diags := srv.diagnostics()
		paths := make([]string, 0, len(diags))
		for p := range diags {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			if !within(m.opts.Root, p) {
				continue
			}
			for _, d := range diags[p] {
				if d.Severity == SeverityError || d.Severity == SeverityWarning || d.Severity == 0 {
					out[i].Problems = append(out[i].Problems, m.item(srv, p, d, false))
				}
			}
		}
		sortItems(out[i].Problems, nil)
	}
	rank := func(s State) int {
		switch s {
		case StateReady:
			return 0
		case StateStarting:
			return 1
		case StateFailed, StateOff:
			return 2
		case StateIdle:
			return 3
		}
		return 4
	}
	sort.Slice(out, func(i, j int) bool {
		if ri, rj := rank(out[i].State), rank(out[j].State); ri != rj {
			return ri < rj
		}
		return out[i].Language < out[j].Language
	})
	return out
}

// Running reports whether a server is ready for path's language.
func (m *Manager) Running(path string) bool {
	if m == nil {
		return false
	}
	lang := m.Language(path)
	if lang == "" {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	sl := m.slots[lang]
	return sl.state == StateReady
}

// AnyRunning reports whether some server is ready, so the navigation
// tools are worth offering.
func (m *Manager) AnyRunning() bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, sl := range m.slots {
		if sl.state == StateReady {
			return true
		}
	}
	return false
}

// Restart ends every server and forgets their failures, so each starts
// again on its next use (/lsp restart).
func (m *Manager) Restart() {
	m.mu.Lock()
	var srvs []*server
	for _, sl := range m.slots {
		if sl.srv != nil {
			srvs = append(srvs, sl.srv)
		}
		sl.srv, sl.restarts, sl.lastErr = nil, 0, ""
		if sl.state != StateDisabled && sl.state != StateMissing {
			sl.state = StateIdle
		}
	}
	m.mu.Unlock()
	for _, s := range srvs {
		s.kill()
	}
	m.changed()
}

// Close shuts every server down: shutdown and exit, then a kill for one
// that does not end within two seconds.
func (m *Manager) Close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	var srvs []*server
	for _, sl := range m.slots {
		if sl.srv != nil {
			srvs = append(srvs, sl.srv)
			sl.srv = nil
		}
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range srvs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			s.shutdown(ctx)
		}()
	}
	wg.Wait()
}
