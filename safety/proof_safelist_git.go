package safety

import (
	"path"
	"strings"
)

// git and go in the forms that only read. git runs with the repository's
// configuration, which the project cannot write unasked (writes into .git
// need approval) and whose program-running settings SafeEnv turns off; the
// person's own configuration is theirs. What the list keeps out is what
// would change that: -c with keys that run programs, another repository
// (-C elsewhere, --git-dir), environment variables that move the
// configuration (HOME=., GIT_CONFIG_*), pagers, external diff and textconv
// drivers, and options that write (--output).

const gitDiffOpts = `-p -u -s -z -R -a -b -w -W -D -M? -C? -B? -X? -U= -l= -S= -G= -O=r --patch --no-patch --raw
	--patch-with-raw --patch-with-stat --numstat --shortstat --stat? --stat-width= --stat-name-width= --stat-count=
	--stat-graph-width= --compact-summary --summary --name-only --name-status --dirstat? --cumstat --dirstat-by-file?
	--submodule? --color? --no-color --color-moved? --no-color-moved --color-moved-ws= --color-words? --word-diff?
	--word-diff-regex= --no-renames --rename-empty --no-rename-empty --check --ws-error-highlight= --full-index --binary
	--abbrev? --break-rewrites? --find-renames? --find-copies? --find-copies-harder --irreversible-delete --diff-filter=
	--pickaxe-all --pickaxe-regex --find-object= --text --ignore-cr-at-eol --ignore-space-at-eol --ignore-space-change
	--ignore-all-space --ignore-blank-lines --ignore-matching-lines= --inter-hunk-context= --function-context --exit-code
	--quiet --no-ext-diff --no-textconv --ignore-submodules? --src-prefix= --dst-prefix= --no-prefix --default-prefix
	--line-prefix= --ita-invisible-in-index --ita-visible-in-index --minimal --patience --histogram --anchored=
	--diff-algorithm= --indent-heuristic --no-indent-heuristic --unified= --output-indicator-new= --output-indicator-old=
	--output-indicator-context= --relative? --no-relative --merge-base --cached --staged --cc --combined-all-paths -m -c
	--remerge-diff --diff-merges= --no-diff-merges --dd --skip-to= --rotate-to=`

const gitLogOpts = gitDiffOpts + ` # -n= -g -L= -i -E -F -P -t --max-count= --skip= --since= --after= --until= --before=
	--author= --committer= --grep= --grep-reflog= --all-match --invert-grep --regexp-ignore-case --basic-regexp
	--extended-regexp --fixed-strings --perl-regexp --remove-empty --merges --no-merges --min-parents= --max-parents=
	--no-min-parents --no-max-parents --first-parent --exclude-first-parent-only --not --all --branches? --tags? --remotes?
	--glob= --exclude= --exclude-hidden= --reflog --alternate-refs --single-worktree --ignore-missing --bisect
	--cherry-mark --cherry-pick --left-only --right-only --cherry --walk-reflogs --merge --boundary
	--simplify-by-decoration --show-pulls --full-history --dense --sparse --simplify-merges --ancestry-path? --date-order
	--author-date-order --topo-order --reverse --no-walk? --do-walk --pretty? --format= --abbrev-commit
	--no-abbrev-commit --oneline --encoding= --expand-tabs? --no-expand-tabs --notes? --no-notes --show-notes?
	--standard-notes --no-standard-notes --relative-date --date= --parents --children --left-right --graph
	--show-linear-break? --decorate? --no-decorate --decorate-refs= --decorate-refs-exclude= --clear-decorations --source
	--mailmap --no-mailmap --use-mailmap --no-use-mailmap --full-diff --log-size --follow --no-follow --count
	--since-as-filter= --max-age= --min-age= --timestamp --header --no-commit-header --commit-header --objects
	--objects-edge --no-object-names --in-commit-order --disk-usage? --unpacked --use-bitmap-index`

// gitConfigKeys are the -c settings a proven git command may carry: they
// change how output looks, or turn off what runs programs.
func gitConfigOK(key, value string) bool {
	k := strings.ToLower(key)
	switch {
	case strings.HasPrefix(k, "color."), strings.HasPrefix(k, "advice."), strings.HasPrefix(k, "column."):
		return true
	case k == "core.quotepath", k == "core.abbrev", k == "user.name", k == "user.email", k == "diff.noprefix",
		k == "diff.mnemonicprefix", k == "diff.renames", k == "diff.relative", k == "log.decorate", k == "log.date",
		k == "log.abbrevcommit", k == "log.follow", k == "i18n.logoutputencoding", k == "status.short", k == "status.branch",
		k == "status.showuntrackedfiles", k == "grep.linenumber", k == "grep.extendedregexp", k == "grep.patterntype",
		k == "core.safecrlf", k == "init.defaultbranch", k == "diff.algorithm", k == "diff.colormoved", k == "log.mailmap":
		return true
	case k == "core.fsmonitor", k == "log.showsignature", k == "diff.external" && value == "", k == "core.untrackedcache":
		return value == "false" || value == "0" || value == "no" || value == "off" || value == ""
	case k == "core.hookspath":
		return value == "/dev/null"
	case k == "core.pager", strings.HasPrefix(k, "pager."):
		return value == "cat" || value == "false" || value == ""
	}
	return false
}

func checkGitGlobal(c *proofCtx, a *proofArgs) string {
	dir := c.p.w.cwd
	for _, o := range a.opts {
		switch o.name {
		case "-C":
			// Each -C is relative to the one before, as the engine follows.
			if !o.val.known() {
				return "runs git in a directory only known at run time"
			}
			dir = placePath(o.val.s, dir).path
			if dir == "." {
				dir = ""
			}
		case "-c":
			k, v, _ := strings.Cut(o.val.s, "=")
			if !gitConfigOK(k, v) {
				return "git -c " + display(k) + " is not a setting on the list"
			}
		case "--git-dir":
			if l := c.p.w.resolve(o.val.s); l.path != ".git" {
				return "uses the repository " + display(o.val.s) + ", whose configuration can run programs"
			}
		case "--work-tree":
			if l := c.p.w.resolve(o.val.s); l.path != "." {
				return "uses " + display(o.val.s) + " as the work tree"
			}
		}
	}
	if dir != "" && dir != c.p.w.cwd && !placePath(dir, "").project {
		return "runs git in " + display(dir) + ", outside the project"
	}
	return ""
}

// checkGitPaths proves the revisions and paths of a git read: a path in
// a revision (HEAD:.env) or a pathspec must not name a secret, and a
// pathspec pattern must not be able to match one.
func checkGitPaths(c *proofCtx, a *proofArgs) string {
	for _, op := range a.ops {
		if op.item {
			if why := c.itemRead(op); why != "" {
				return why
			}
			continue
		}
		if !op.known() && !op.fromGlob {
			return display(strings.ReplaceAll(op.s, unknownMark, "…")) + " is only known at run time"
		}
		p := op.s
		if i := strings.LastIndexByte(p, ':'); i >= 0 && !strings.Contains(p, "://") {
			p = p[i+1:]
		}
		if p == "" {
			continue
		}
		l := placePath(p, "")
		if why := secretLoc(l); why != "" {
			c.secret = true
			return "shows " + display(op.s) + " (" + why + ")"
		}
		if hasMeta(path.Base(p)) || strings.Contains(p, "*") {
			if s := couldMatchSecret(strings.TrimPrefix(p, ":(glob)"), false); s != "" {
				return "shows " + display(op.s) + ", a pattern that could match " + s
			}
		}
	}
	a.ops = nil
	return ""
}

func gitReadEntry(name, about, opts string) *entry {
	return spec(name, about, opts, argLit).checked(checkGitPaths)
}

// gitReadOn is gitReadEntry on a shared, parsed option table.
func gitReadOn(name, about string, base optTable, extra string) *entry {
	return specOn(name, about, base, extra, argLit).checked(checkGitPaths)
}

func checkGitBranch(c *proofCtx, a *proofArgs) string {
	if len(a.ops) > 0 && !a.has("-l", "--list") {
		return "git branch with a name creates a branch"
	}
	a.ops = nil
	return ""
}

func checkGitTag(c *proofCtx, a *proofArgs) string {
	if len(a.ops) > 0 && !a.has("-l", "--list") {
		return "git tag with a name creates a tag"
	}
	a.ops = nil
	return ""
}

func checkGitRemote(c *proofCtx, a *proofArgs) string {
	if len(a.ops) == 0 {
		return ""
	}
	switch a.ops[0].s {
	case "get-url":
		a.ops = nil
		return ""
	case "show":
		if a.has("-n") {
			a.ops = nil
			return ""
		}
		return "git remote show asks the remote (only -n, which does not, is on the list)"
	}
	return "git remote " + display(a.ops[0].s) + " is not on the list"
}

func checkGitConfig(c *proofCtx, a *proofArgs) string {
	// --blob reads the settings from a file of a revision: the file is
	// proven like the REV:PATH of git show.
	if blobs := a.values("--blob"); len(blobs) > 0 {
		if why := checkGitPaths(c, &proofArgs{ops: blobs}); why != "" {
			return why
		}
	}
	ops := a.ops
	if len(ops) > 0 {
		switch ops[0].s {
		case "get", "list":
			a.ops = nil
			return ""
		}
	}
	if a.has("--list", "-l", "--get", "--get-all", "--get-regexp", "--get-urlmatch") {
		a.ops = nil
		return ""
	}
	if len(ops) == 1 {
		a.ops = nil
		return "" // git config NAME reads it
	}
	return "git config with a value sets it"
}

func checkGitClean(c *proofCtx, a *proofArgs) string {
	if !a.has("-n", "--dry-run") {
		return "git clean without -n deletes files"
	}
	a.ops = nil
	return ""
}

func checkGitApply(c *proofCtx, a *proofArgs) string {
	if !a.has("--check", "--stat", "--numstat", "--summary") {
		return "git apply without --check, --stat, --numstat or --summary changes files"
	}
	return ""
}

func checkGitGrep(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	if !a.has("-e", "-f") && len(ops) > 0 {
		ops = ops[1:]
	}
	var inc []string
	for _, op := range ops {
		if hasMeta(op.s) && !strings.Contains(op.s, "/") {
			inc = append(inc, op.s)
		}
	}
	var keep func(string, bool) bool
	if len(inc) > 0 {
		keep = func(name string, dir bool) bool { return dir || matchAny(inc, name) }
	}
	a.ops = ops
	if why := checkGitPaths(c, a); why != "" {
		return why
	}
	return c.treeAt(".", true, keep)
}

func checkGitLsFiles(c *proofCtx, a *proofArgs) string {
	roots := fieldTexts(a.ops)
	a.ops = nil
	if len(roots) == 0 {
		roots = []string{"."}
	}
	if !a.has("--format", "-s", "--stage", "-t", "-v", "--eol", "--debug", "-u", "--unmerged") {
		c.out = &listing{roots: roots, hidden: true}
	}
	return ""
}

func checkGitLsRemote(c *proofCtx, a *proofArgs) string {
	if !a.has("--get-url") {
		return "git ls-remote asks the remote (only --get-url, which does not, is on the list)"
	}
	a.ops = nil
	return ""
}

func gitEntry() *entry {
	e := spec("git", "git in the forms that only read", "-P -C= -c= --no-pager --literal-pathspecs --glob-pathspecs "+
		"--noglob-pathspecs --icase-pathspecs --no-replace-objects --no-optional-locks --no-lazy-fetch --no-advice "+
		"--html-path --man-path --info-path --exec-path --git-dir= --work-tree= --version --help", argLit)
	e.posix = true
	e.check = checkGitGlobal
	sub := func(name, about, opts string) *entry { return gitReadEntry("git "+name, about, opts) }
	logT, diffT := spec("git log", "", gitLogOpts, argLit).opts, spec("git diff", "", gitDiffOpts, argLit).opts
	onLog := func(name, about, extra string) *entry {
		e := gitReadOn("git "+name, about, logT, extra)
		e.number = true // git log -5
		return e
	}
	onDiff := func(name, about, extra string) *entry { return gitReadOn("git "+name, about, diffT, extra) }
	stash := &entry{name: "git stash", about: "stash listings", maxOps: -1, subs: map[string]*entry{
		"list": onLog("stash list", "lists stashes", ""),
		"show": onDiff("stash show", "shows a stash", " --include-untracked --only-untracked"),
	}}
	reflog := onLog("reflog", "shows the reflog", "")
	reflog.posix = true
	reflog.subs = map[string]*entry{
		"":       reflog,
		"show":   onLog("reflog show", "shows the reflog", ""),
		"list":   sub("reflog list", "lists reflogs", ""),
		"exists": sub("reflog exists", "tests a reflog", ""),
	}
	e.subs = map[string]*entry{
		"status":        sub("status", "shows the work tree's state", "-s -b -v -z -u? --short --branch --show-stash --porcelain? --long --verbose --untracked-files? --ignore-submodules? --ignored? --column? --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames? --null"),
		"diff":          onDiff("diff", "shows changes", " --no-index"),
		"log":           onLog("log", "shows history", ""),
		"show":          onLog("show", "shows objects", ""),
		"whatchanged":   onLog("whatchanged", "shows history", ""),
		"blame":         sub("blame", "shows who changed each line", "-b -l -t -s -e -w -p -n -f -c -M? -C? -L= -S=r --root --show-stats --porcelain --line-porcelain --incremental --encoding= --contents=r --date= --progress --no-progress --show-name --show-number --show-email --abbrev? --color-lines --color-by-age --minimal --ignore-rev= --ignore-revs-file=r --reverse= --first-parent"),
		"annotate":      sub("annotate", "shows who changed each line", "-b -l -t -s -e -w -p -n -f -c -M? -C? -L= --root --porcelain --encoding= --date= --abbrev?"),
		"shortlog":      onLog("shortlog", "summarises history", " -e -n -s -c -w? --numbered --summary --email --group= --committer"),
		"describe":      sub("describe", "names a commit", "--all --tags --contains --abbrev? --candidates= --exact-match --debug --long --match= --exclude= --always --first-parent --dirty? --broken?"),
		"rev-parse":     spec("git rev-parse", "resolves names", "", argLit).with(func(e *entry) { e.anyOpts = true }).checked(checkGitPaths),
		"rev-list":      onLog("rev-list", "lists commits", " --quiet"),
		"ls-files":      spec("git ls-files", "lists tracked files", "-c -d -o -i -s -u -k -m -z -t -v -f --cached --deleted --others --ignored --stage --unmerged --killed --modified --directory --no-empty-directory --eol --deduplicate -x= -X=r --exclude= --exclude-from=r --exclude-per-directory= --exclude-standard --error-unmatch --with-tree= --full-name --recurse-submodules --abbrev? --debug --sparse --format=", argList).checked(checkGitLsFiles),
		"ls-tree":       spec("git ls-tree", "lists a tree's names", "-d -r -t -l -z --name-only --name-status --object-only --full-name --full-tree --abbrev? --format=", argLit),
		"cat-file":      sub("cat-file", "shows an object", "-t -s -e -p --allow-unknown-type --use-mailmap --no-use-mailmap"),
		"show-ref":      sub("show-ref", "lists refs", "-h -d -s -q --head --heads --branches --tags --dereference --hash? --abbrev? --verify --quiet --exists"),
		"for-each-ref":  sub("for-each-ref", "lists refs", "--count= --sort= --format= --color? --shell --perl --python --tcl --points-at= --merged~ --no-merged~ --contains~ --no-contains~ --ignore-case --omit-empty --exclude= --include-root-refs"),
		"name-rev":      sub("name-rev", "names commits", "--tags --refs= --exclude= --all --name-only --no-undefined --always"),
		"merge-base":    sub("merge-base", "finds a common ancestor", "-a --all --octopus --independent --is-ancestor --fork-point"),
		"count-objects": sub("count-objects", "counts objects", "-v -H --verbose --human-readable"),
		"branch":        spec("git branch", "lists branches", "-a -r -l -v -i --list --all --remotes --verbose --merged~ --no-merged~ --contains~ --no-contains~ --points-at= --sort= --format= --color? --no-color --column? --no-column --abbrev= --no-abbrev --show-current --ignore-case --omit-empty", argLit).checked(checkGitBranch),
		"tag":           spec("git tag", "lists tags", "-l -i -n? --list --sort= --format= --contains~ --no-contains~ --merged~ --no-merged~ --points-at= --column? --no-column --color? --ignore-case --omit-empty", argLit).checked(checkGitTag),
		"remote":        spec("git remote", "lists remotes", "-v -n --verbose --push --all", argLit).checked(checkGitRemote),
		"config":        spec("git config", "reads settings", "-l -z -f=r --list --get --get-all --get-regexp --get-urlmatch --global --system --local --worktree --file=r --blob= --name-only --show-origin --show-scope --type= --bool --int --bool-or-int --path --expiry-date --null --includes --no-includes --default= --fixed-value --all --regexp --value= --url=", argLit).checked(checkGitConfig),
		"stash":         stash,
		"reflog":        reflog,
		"grep":          spec("git grep", "searches tracked files", "-a -i -I -w -v -h -H -E -G -F -P -n -l -L -c -o -q -z -p -W -r --cached --untracked --no-exclude-standard --exclude-standard --recurse-submodules --text --ignore-case --word-regexp --invert-match --full-name --extended-regexp --basic-regexp --fixed-strings --perl-regexp --line-number --column --files-with-matches --name-only --files-without-match --null --only-matching --count --color? --no-color --break --heading --show-function --function-context --threads= --quiet --all-match --and --or --not -e= -f=r -A= -B= -C= -m= --max-depth= --max-count= --after-context= --before-context= --context=", argLit).checked(checkGitGrep),
		"worktree":      &entry{name: "git worktree", about: "lists worktrees", maxOps: -1, subs: map[string]*entry{"list": sub("worktree list", "lists worktrees", "-v -z --porcelain --verbose --expire=")}},
		"submodule":     &entry{name: "git submodule", about: "shows submodules", maxOps: -1, subs: map[string]*entry{"status": sub("submodule status", "shows submodules", "-q --cached --recursive --quiet")}},
		"check-ignore":  sub("check-ignore", "tests ignore rules", "-q -v -n -z --quiet --verbose --non-matching --no-index"),
		"check-attr":    sub("check-attr", "shows attributes", "-a -z --all --cached --source="),
		"var":           sub("var", "prints a git variable", "-l"),
		"version":       sub("version", "prints git's version", "--build-options"),
		"range-diff":    onDiff("range-diff", "compares commit ranges", " --creation-factor= --no-dual-color --left-only --right-only"),
		"diff-tree":     onDiff("diff-tree", "compares trees", " -r -t -v --root --no-commit-id --always --pretty? --format= --encoding= --notes?"),
		"diff-files":    onDiff("diff-files", "compares the work tree", " -q -0 -1 -2 -3 --base --ours --theirs"),
		"diff-index":    onDiff("diff-index", "compares the index", ""),
		"show-branch":   sub("show-branch", "shows branches", "-a -r -g --all --remotes --topo-order --date-order --current --sparse --more= --list --merge-base --independent --no-name --sha1-name --topics --reflog? --color? --no-color"),
		"cherry":        sub("cherry", "finds unmerged commits", "-v --abbrev?"),
		"archive":       sub("archive", "writes an archive to its output", "-l -v -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 --format= --list --verbose --prefix= --worktree-attributes --mtime="),
		"apply":         spec("git apply", "checks a patch", "-R -v -z -p= -C= --check --stat --numstat --summary --exclude= --include= --reverse --unidiff-zero --allow-empty --ignore-space-change --ignore-whitespace --whitespace= --verbose --directory= --recount --inaccurate-eof", argRead).checked(checkGitApply),
		"clean":         spec("git clean", "lists what clean would delete", "-n -d -x -X -q -f -e= --dry-run --quiet --exclude=", argLit).checked(checkGitClean),
		"ls-remote":     spec("git ls-remote", "prints a remote's address", "--get-url", argLit).checked(checkGitLsRemote),
	}
	return e
}

// goBuildFlags are the build flags go list and go vet may take: none names
// a program to run (-toolexec, -exec, -vettool) or replaces files
// (-overlay), and -mod may not let go rewrite go.mod.
const goBuildFlags = "-tags= -buildvcs= -modfile=r -race -msan -asan -trimpath -cover -covermode= -coverpkg= -n -x -v -a -p= -gcflags= -asmflags= -ldflags= -buildmode= -compiler= -installsuffix= -pgo=r -work -mod="

func checkGoMod(c *proofCtx, a *proofArgs) string {
	for _, v := range a.values("-mod") {
		if v.s != "readonly" && v.s != "vendor" {
			return "-mod=" + display(v.s) + " lets go change go.mod"
		}
	}
	return ""
}

// goEnv reports variables that are inert for go: the target, cgo on or
// off, and GOFLAGS made only of flags on the list.
func goEnv(name, value string) bool {
	switch name {
	case "GOOS", "GOARCH", "GOARM", "GOAMD64", "GOARM64", "GO386", "GOMIPS", "GOMIPS64", "GOPPC64", "GOWASM", "GORISCV64",
		"GODEBUG", "GOMAXPROCS", "GOEXPERIMENT", "GOTELEMETRY":
		return true
	case "CGO_ENABLED":
		return value == "0" || value == "1"
	case "GOTOOLCHAIN":
		return value == "local"
	case "GOWORK", "GOPROXY":
		return value == "off"
	case "GOFLAGS":
		for _, f := range strings.Fields(value) {
			k, v, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
			switch k {
			case "tags", "count", "race", "trimpath", "buildvcs", "v", "p", "json", "cover", "covermode", "short", "timeout", "failfast":
			case "mod":
				if v != "readonly" && v != "vendor" {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return false
}

func goEntry() *entry {
	e := spec("go", "the Go commands that only read", "-C=d", argLit)
	e.posix = true
	e.env = goEnv
	e.subs = map[string]*entry{
		"version": singleSpec("go version", "prints Go's version, or a binary's", "-m -v -json", argRead),
		"env":     singleSpec("go env", "prints Go's settings", "-json -changed", argLit),
		"list":    singleSpec("go list", "lists packages", goBuildFlags+" -f= -json? -m -e -deps -test -export -compiled -find -reuse=r -retracted", argLit).checked(checkGoMod),
		"vet":     singleSpec("go vet", "checks packages", goBuildFlags+" -json -c=", argLit).checked(checkGoMod),
		"doc":     singleSpec("go doc", "prints documentation", "-all -c -cmd -short -src -u", argLit),
		"help":    singleSpec("go help", "prints help", "", argLit),
	}
	return e
}
