package safety

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// handler classifies one program's arguments into the part.
type handler func(p *part, name string, args []field)

// Classifier decides the tier of shell commands and file accesses under
// one set of user rules. It is immutable and safe for concurrent use.
type Classifier struct {
	allow   []pattern
	deny    []pattern
	unknown Tier
	tabs    *lazyTables // shared by the copies WithFiles and WithHome make
	// files is the view of the file system that globs and trees are
	// resolved against; nil when there is none (then they are unproven).
	files Files
	// home is the user's home directory (absolute, slash-separated), ""
	// when not known: a command's absolute paths inside it are judged as
	// "~/…" (see inHome).
	home string
	// engineOnly turns the proof layer off, for tests of the engine's
	// handlers alone.
	engineOnly bool
}

// NewClassifier compiles the user's rules. A malformed pattern is an error
// (a *RuleError wrapping ErrInvalidRule) that names the rule and the fix.
func NewClassifier(r Rules) (*Classifier, error) {
	allow, err := compilePatterns("allow", r.Allow)
	if err != nil {
		return nil, err
	}
	deny, err := compilePatterns("deny", r.Deny)
	if err != nil {
		return nil, err
	}
	if r.UnknownCommands != UnknownConfirm && r.UnknownCommands != UnknownSafe {
		return nil, fmt.Errorf("%w for unknown commands (%d): use UnknownConfirm or UnknownSafe", ErrInvalidTier, int(r.UnknownCommands))
	}
	return &Classifier{allow: allow, deny: deny, unknown: r.UnknownCommands.Tier(), tabs: &lazyTables{build: buildTables}}, nil
}

// tables are the classifier's own: the same for every classifier, and
// built the first time a command is classified rather than when the
// classifier is made (at start, where the screen may never run one).
type tables struct {
	programs map[string]handler
	names    []string // known program names, sorted
	// safelist is the closed list of commands that run without asking,
	// and versionOK the programs whose lone --version only prints.
	safelist  map[string]*entry
	versionOK map[string]bool
}

// lazyTables builds the tables once, on first use. build is buildTables,
// called through the field: the handlers in the tables classify nested
// commands through the classifier, and a package-level table of them
// (gitSubs) would otherwise take part in its own initialisation.
type lazyTables struct {
	once  sync.Once
	build func() tables
	t     tables
}

// tables are the classifier's own tables, built on first use.
func (c *Classifier) tables() *tables {
	c.tabs.once.Do(func() { c.tabs.t = c.tabs.build() })
	return &c.tabs.t
}

func buildTables() tables {
	progs := programTable()
	names := make([]string, 0, len(progs))
	for n := range progs {
		names = append(names, n)
	}
	sort.Strings(names)
	return tables{programs: progs, names: names, safelist: safelistTable(), versionOK: versionQueries()}
}

// WithFiles returns a copy of the classifier that resolves file name
// patterns and recursive reads against files, the project as the command
// will find it. Without it a pattern is proven only when it could not
// match a secret, and a recursive read is not proven at all.
func (c *Classifier) WithFiles(files Files) *Classifier {
	cp := *c
	cp.files = files
	return &cp
}

// WithHome returns a copy of the classifier that knows the user's home
// directory, so that a command's absolute path inside it is judged like
// the same path spelled with ~: run as root, a project under /root is
// edited like any other while /root/.bashrc, /root/.config/pincer and the
// rest of the system directories stay dangerous.
func (c *Classifier) WithHome(home string) *Classifier {
	cp := *c
	if home != "" && filepath.IsAbs(home) {
		cp.home = filepath.ToSlash(filepath.Clean(home))
	}
	return &cp
}

// Strict returns a copy without the person's allow and deny rules and
// with unknown programs asked about: the built-in judgement alone (plan
// mode asks it what changes nothing). The view of the file system stays.
func (c *Classifier) Strict() *Classifier {
	cp := *c
	cp.allow, cp.deny, cp.unknown = nil, nil, Confirm
	return &cp
}

// WithAllow returns a copy of the classifier with extra allow rules, such
// as the ones "always allow for this session" saves. The receiver is not
// changed.
func (c *Classifier) WithAllow(patterns ...string) (*Classifier, error) {
	extra, err := compilePatterns("allow", patterns)
	if err != nil {
		return nil, err
	}
	cp := *c
	cp.allow = append(append(make([]pattern, 0, len(c.allow)+len(extra)), c.allow...), extra...)
	return &cp, nil
}

// Classify decides the tier of a shell command line (which may be a whole
// script) from a parse of it: every simple command is classified, through
// wrappers, nested shells and substitutions, and the highest tier wins.
// It never panics: should the classifier fail, the verdict is Dangerous.
func (c *Classifier) Classify(command string) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Tier: Dangerous, Reasons: []string{display(command) + ": could not be analysed (internal error: " + fmt.Sprint(r) + ")"}}
		}
	}()
	return c.classify(command)
}

// classify is Classify without the panic guard, so tests see panics.
func (c *Classifier) classify(command string) Verdict {
	sh := newShared(c)
	w := &walker{sh: sh, sc: newScope(), src: command}
	if why := tooComplex(command); why != "" {
		w.oversized(command, why)
		return sh.acc.verdict()
	}
	f, err := parseScript(command)
	if err != nil {
		w.unparsable(command, err)
		return sh.acc.verdict()
	}
	w.sc.collect(f, command)
	w.evalScan(f)
	w.proveScan(f)
	w.stmts(f.Stmts, stream{})
	return sh.acc.verdict()
}

// lookup finds a program's handler, trying versioned names (python3.12,
// pip3) and suffixed ones (mkfs.ext4) as their base program.
func (c *Classifier) lookup(name string) (handler, bool) {
	if h, ok := c.tables().programs[name]; ok {
		return h, true
	}
	if base := strings.TrimRight(name, "0123456789.-"); base != name && versioned[base] {
		h, ok := c.tables().programs[base]
		return h, ok
	}
	if i := strings.IndexByte(name, '.'); i > 0 && suffixed[name[:i]] {
		h, ok := c.tables().programs[name[:i]]
		return h, ok
	}
	return nil, false
}

// versioned programs are also installed under names with a version
// (python3.12, pip3, php8.2); only these are looked up that way, so that a
// script named cat1 is not taken for cat.
var versioned = map[string]bool{
	"python": true, "pip": true, "pypy": true, "perl": true, "ruby": true, "php": true, "node": true,
	"lua": true, "luajit": true, "tclsh": true, "wish": true, "gem": true, "irb": true, "bash": true,
	"zsh": true, "ksh": true, "pwsh": true, "java": true, "psql": true, "mysql": true, "sqlite": true,
	"idle": true, "easy_install": true, "pipx": true, "bun": true, "deno": true, "julia": true, "rscript": true,
}

// suffixed programs have variants named program.kind (mkfs.ext4).
var suffixed = map[string]bool{"mkfs": true, "fsck": true, "mount": true, "umount": true, "newfs": true, "mkdosfs": true}
