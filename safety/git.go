package safety

import "strings"

func hGit(p *part, name string, args []field) {
	i := 0
global:
	for i < len(args) {
		s := args[i].s
		switch {
		case s == "-C" || s == "--git-dir" || s == "--work-tree" || s == "--namespace" || s == "--super-prefix" || s == "--list-cmds":
			i += 2
		case s == "-c":
			if i+1 < len(args) {
				p.gitConfig(args[i+1].s, true)
			}
			i += 2
		case strings.HasPrefix(s, "--config-env") || strings.HasPrefix(s, "--exec-path="):
			p.raise(Confirm, "changes git's configuration or programs")
			i++
		case s == "--version" || s == "--help" || s == "-h" || s == "--exec-path" || s == "--html-path" || s == "--man-path" || s == "--info-path":
			return
		case strings.HasPrefix(s, "-"):
			i++
		default:
			break global
		}
	}
	if i >= len(args) {
		return
	}
	sub := args[i]
	rest := args[i+1:]
	if !sub.known() {
		p.raise(Confirm, "runs a git subcommand only known at run time")
		return
	}
	if h, ok := gitSubs[sub.s]; ok {
		h(p, rest)
		return
	}
	p.raise(Confirm, "runs git "+display(sub.s)+" (an alias or extension pincer does not know)")
}

// gitSubs classifies git subcommands. Read-only ones are safe; the rest
// need approval; the ones that destroy work or rewrite shared history are
// dangerous.
var gitSubs = map[string]func(p *part, args []field){
	"status": gitRead, "log": gitOutput, "show": gitOutput, "diff": gitOutput, "whatchanged": gitOutput,
	"shortlog": gitRead, "blame": gitRead, "annotate": gitRead, "describe": gitRead, "rev-parse": gitRead,
	"rev-list": gitRead, "ls-files": gitRead, "ls-tree": gitRead, "ls-remote": gitRead, "cat-file": gitRead,
	"show-ref": gitRead, "for-each-ref": gitRead, "name-rev": gitRead, "merge-base": gitRead, "count-objects": gitRead,
	"verify-commit": gitRead, "verify-tag": gitRead, "verify-pack": gitRead, "help": gitRead, "version": gitRead,
	"check-ignore": gitRead, "check-attr": gitRead, "check-ref-format": gitRead, "var": gitRead, "cherry": gitRead,
	"range-diff": gitOutput, "diff-tree": gitOutput, "diff-files": gitOutput, "diff-index": gitOutput, "show-branch": gitRead,
	"get-tar-commit-id": gitRead, "grep": gitGrep, "reflog": gitReflog, "fsck": gitFsck, "archive": gitArchive,
	"hash-object": gitHashObject, "branch": gitBranch, "tag": gitTag, "remote": gitRemote, "config": gitConfigCmd,
	"stash": gitStash, "worktree": gitWorktree, "notes": gitListOr("list", "show"), "submodule": gitSubmodule,
	"bisect": gitBisect, "push": gitPush, "reset": gitReset, "clean": gitClean, "checkout": gitCheckout,
	"restore": gitRestore, "switch": gitSwitch, "rm": gitRm, "filter-branch": gitRewrite, "filter-repo": gitRewrite,
	"rebase": gitRebase, "clone": gitClone, "fetch": gitFetch, "pull": gitFetch, "sparse-checkout": gitListOr("list"),
	"lfs":    gitListOr("ls-files", "status", "env", "version", "logs", "track"),
	"commit": gitChange("records a commit"), "merge": gitChange("merges branches"), "cherry-pick": gitChange("applies commits"),
	"revert": gitChange("reverts commits"), "am": gitChange("applies patches"), "apply": gitApply,
	"init": gitChange("creates a repository"), "add": gitChange("stages changes"), "mv": gitChange("moves files"),
	"gc": gitChange("cleans up the repository"), "prune": gitChange("prunes unreachable objects"),
	"update-ref": gitChange("changes a ref"), "update-index": gitChange("changes the index"),
	"symbolic-ref": gitChange("changes a ref"), "replace": gitChange("replaces objects"),
	"format-patch": gitChange("writes patch files"), "send-email": gitChange("sends email"),
	"request-pull": gitRead, "difftool": gitChange("runs a diff tool"), "mergetool": gitChange("runs a merge tool"),
	"daemon": gitChange("starts a git server"), "instaweb": gitChange("starts a web server"),
	"credential": gitChange("reads or stores credentials"), "maintenance": gitChange("changes scheduled maintenance"),
	"repack": gitChange("repacks objects"), "pack-refs": gitChange("packs refs"), "commit-tree": gitChange("writes objects"),
	"read-tree": gitChange("changes the index"), "write-tree": gitChange("writes objects"), "mktag": gitChange("writes objects"),
	"mktree": gitChange("writes objects"), "rerere": gitChange("records merge resolutions"), "bundle": gitChange("writes a bundle"),
	"citool": gitChange("opens a commit tool"), "gui": gitChange("opens a git GUI"), "gitk": gitRead,
}

func gitRead(p *part, args []field) {}

// gitOutput handles log/show/diff, which write a file with --output.
func gitOutput(p *part, args []field) {
	for i, a := range args {
		if a.s == "--output" && i+1 < len(args) {
			p.writes(args[i+1 : i+2])
		} else if strings.HasPrefix(a.s, "--output=") {
			p.writes([]field{{s: strings.TrimPrefix(a.s, "--output=")}})
		}
	}
}

func gitGrep(p *part, args []field) {
	for _, a := range args {
		if a.s == "-O" || strings.HasPrefix(a.s, "--open-files-in-pager") || (strings.HasPrefix(a.s, "-O") && len(a.s) > 2) {
			p.raise(Confirm, "opens the matches in another program")
		}
	}
}

func gitReflog(p *part, args []field) {
	if len(args) > 0 && (args[0].s == "expire" || args[0].s == "delete" || args[0].s == "drop") {
		p.raise(Dangerous, "destroys the record of earlier commits")
	}
}

func gitFsck(p *part, args []field) {
	for _, a := range args {
		if a.s == "--lost-found" {
			p.raise(Confirm, "writes recovered objects")
		}
	}
}

func gitArchive(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "o", longArg: []string{"output", "remote", "exec", "format", "prefix"}})
	if o, ok := ps.value("o", 0, "output"); ok {
		p.writes([]field{{s: o}})
	}
	if _, ok := ps.value("", 0, "exec", "remote"); ok {
		p.raise(Confirm, "contacts another repository")
	}
}

func gitHashObject(p *part, args []field) {
	for _, a := range args {
		if a.s == "-w" {
			p.raise(Confirm, "writes objects")
		}
	}
}

func gitBranch(p *part, args []field) {
	ps := getopt(args, optSpec{longArg: []string{"sort", "format", "points-at", "color", "abbrev", "column", "set-upstream-to"}, shortArg: "u"})
	listing := false
	for _, o := range ps.opts {
		switch o.name {
		case "d", "D", "m", "M", "c", "C", "u", "f", "t", "delete", "move", "copy", "force", "set-upstream-to",
			"unset-upstream", "edit-description", "track", "no-track", "set-upstream", "create-reflog":
			p.raise(Confirm, "changes branches")
			return
		case "l", "list", "a", "all", "r", "remotes", "merged", "no-merged", "contains", "no-contains", "points-at", "show-current":
			listing = true
		}
	}
	if len(ps.operands) > 0 && !listing {
		p.raise(Confirm, "creates a branch")
	}
}

func gitTag(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "mFun", longArg: []string{"message", "file", "local-user", "sort", "format", "contains", "no-contains", "points-at", "merged", "no-merged", "color", "column", "cleanup"}})
	listing := false
	for _, o := range ps.opts {
		switch o.name {
		case "l", "list", "contains", "no-contains", "points-at", "merged", "no-merged", "n", "v", "verify", "sort", "format", "column":
			listing = true
		case "d", "delete", "a", "annotate", "s", "sign", "f", "force", "m", "message", "F", "file", "u", "local-user":
			p.raise(Confirm, "creates or deletes tags")
			return
		}
	}
	if len(ps.operands) > 0 && !listing {
		p.raise(Confirm, "creates a tag")
	}
}

func gitRemote(p *part, args []field) {
	ps := getopt(args, optSpec{})
	if len(ps.operands) == 0 {
		return
	}
	switch ps.operands[0].s {
	case "show", "get-url":
		return
	}
	p.raise(Confirm, "changes remotes")
}

// gitListOr is safe for the listed read-only sub-subcommands (and none).
func gitListOr(read ...string) func(p *part, args []field) {
	return func(p *part, args []field) {
		op, _ := firstOperand(args)
		if op.s == "" || contains(read, op.s) {
			return
		}
		p.raise(Confirm, "changes the repository")
	}
}

func gitConfigCmd(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "f", longArg: []string{"file", "blob", "type", "default", "comment", "value", "url"}})
	for _, o := range ps.opts {
		switch o.name {
		case "get", "get-all", "get-regexp", "get-urlmatch", "l", "list", "get-color", "get-colorbool", "show-origin", "show-scope", "name-only", "null", "z", "includes", "no-includes", "global", "system", "local", "worktree", "f", "file", "blob", "type", "default", "bool", "int", "path", "expiry-date", "bool-or-int":
			continue
		}
		p.raise(Confirm, "changes git configuration")
		if len(ps.operands) > 0 && (o.name == "add" || o.name == "replace-all") {
			p.gitConfig(joinFields(ps.operands[:min(2, len(ps.operands))]), false)
		}
		return
	}
	ops := ps.operands
	if len(ops) > 0 {
		switch ops[0].s {
		case "get", "list", "--get":
			return
		case "set":
			ops = ops[1:]
		case "unset", "rename-section", "remove-section", "edit":
			p.raise(Confirm, "changes git configuration")
			return
		}
	}
	if len(ops) >= 2 {
		p.raise(Confirm, "changes git configuration")
		p.gitConfig(ops[0].s+"="+ops[1].s, false)
	}
}

// gitConfig checks one configuration setting for values git runs as commands.
func (p *part) gitConfig(kv string, oneShot bool) {
	k, v, _ := strings.Cut(kv, "=")
	k = strings.ToLower(strings.TrimSpace(k))
	if !gitCommandKey(k) {
		return
	}
	cmd := v
	if strings.HasPrefix(k, "alias.") {
		if strings.HasPrefix(v, "!") {
			cmd = v[1:]
		} else {
			// An alias of git's own subcommands: git x runs git <value>.
			p.raise(Confirm, "defines the git alias "+strings.TrimPrefix(k, "alias."))
			p.nestedCommand(field{s: "git " + v}, scriptOpts{})
			return
		}
	}
	if oneShot {
		p.raise(Confirm, "sets "+k+", which git runs as a command")
	} else {
		p.raise(Confirm, "sets "+k+", which git will run as a command")
	}
	p.nestedCommand(field{s: cmd}, scriptOpts{})
}

func gitCommandKey(k string) bool {
	switch k {
	case "core.pager", "core.editor", "core.sshcommand", "core.hookspath", "core.fsmonitor", "core.gitproxy",
		"core.askpass", "diff.external", "sequence.editor", "credential.helper", "gpg.program", "gpg.ssh.program",
		"uploadpack.packobjectshook", "diff.tool", "merge.tool", "web.browser", "sendemail.smtpserver", "pager.log",
		"pager.diff", "pager.show", "interactive.difffilter", "ssh.variant", "remote.origin.uploadpack", "remote.origin.receivepack":
		return true
	}
	return strings.HasPrefix(k, "alias.") || strings.HasPrefix(k, "pager.") ||
		(strings.HasPrefix(k, "filter.") && (strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge") || strings.HasSuffix(k, ".process"))) ||
		(strings.HasPrefix(k, "merge.") && strings.HasSuffix(k, ".driver")) ||
		(strings.HasPrefix(k, "diff.") && (strings.HasSuffix(k, ".command") || strings.HasSuffix(k, ".textconv"))) ||
		(strings.HasPrefix(k, "difftool.") || strings.HasPrefix(k, "mergetool.")) && strings.HasSuffix(k, ".cmd") ||
		(strings.HasPrefix(k, "credential.") && strings.HasSuffix(k, ".helper")) ||
		(strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".uploadpack") || strings.HasSuffix(k, ".receivepack") || strings.HasSuffix(k, ".proxy")))
}

func gitStash(p *part, args []field) {
	op, _ := firstOperand(args)
	switch op.s {
	case "list", "show":
		return
	case "clear":
		p.raise(Dangerous, "deletes every stash")
		return
	}
	p.raise(Confirm, "changes the stash")
}

func gitWorktree(p *part, args []field) {
	op, _ := firstOperand(args)
	if op.s == "list" {
		return
	}
	p.raise(Confirm, "changes worktrees")
}

func gitSubmodule(p *part, args []field) {
	op, i := firstOperand(args)
	switch op.s {
	case "status", "summary", "":
		return
	case "foreach":
		rest := args[i+1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") {
			rest = rest[1:]
		}
		p.raise(Confirm, "runs a command in every submodule")
		if len(rest) > 0 {
			p.nestedCommand(field{s: joinFields(rest), taint: fieldsTaint(rest)}, scriptOpts{bulk: true})
		}
		return
	}
	p.raise(Confirm, "changes submodules")
}

func gitBisect(p *part, args []field) {
	op, i := firstOperand(args)
	switch op.s {
	case "log", "view", "visualize", "terms", "":
		return
	case "run":
		p.raise(Confirm, "runs a command on each bisection step")
		p.run(args[i+1:])
		return
	}
	p.raise(Confirm, "changes the bisection")
}

func gitPush(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "o", longArg: []string{"repo", "receive-pack", "exec", "push-option", "signed", "recurse-submodules"}})
	p.raise(Confirm, "pushes to a remote")
	for _, o := range ps.opts {
		switch {
		case o.name == "f" || o.name == "force" || strings.HasPrefix(o.name, "force-with-lease") || o.name == "force-if-includes":
			p.raise(Dangerous, "force push: rewrites history on the remote")
		case o.name == "mirror":
			p.raise(Dangerous, "mirror push: overwrites or deletes every ref on the remote")
		case o.name == "d" || o.name == "delete":
			p.raise(Dangerous, "deletes branches or tags on the remote")
		case o.name == "prune":
			p.raise(Dangerous, "deletes remote branches that have no local counterpart")
		case o.name == "receive-pack" || o.name == "exec":
			p.raise(Confirm, "runs another program on the remote")
		}
	}
	for i, op := range ps.operands {
		if i == 0 {
			continue // the remote
		}
		switch {
		case strings.HasPrefix(op.s, "+"):
			p.raise(Dangerous, "force push of "+display(op.s)+": rewrites history on the remote")
		case strings.HasPrefix(op.s, ":"):
			p.raise(Dangerous, "deletes "+display(op.s[1:])+" on the remote")
		}
	}
}

func gitReset(p *part, args []field) {
	for _, a := range args {
		if a.s == "--hard" {
			p.raise(Dangerous, "discards uncommitted changes (reset --hard)")
			return
		}
	}
	p.raise(Confirm, "moves the branch or unstages changes")
}

func gitClean(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "e", longArg: []string{"exclude"}})
	switch {
	case ps.has("n", 0, "dry-run"):
		return
	case ps.has("f", 3, "force"):
		why := "deletes untracked files"
		if ps.has("x", 0) {
			why += ", including ignored ones"
		}
		if ps.has("d", 0) {
			why += ", and untracked directories"
		}
		p.raise(Dangerous, why)
	default:
		p.raise(Confirm, "deletes untracked files")
	}
}

// wholeTree reports a pathspec that covers the whole tree.
func wholeTree(ops []field) bool {
	for _, o := range ops {
		switch o.s {
		case ".", ":/", "*", "./", ":(top)", "-A":
			return true
		}
	}
	return false
}

func gitCheckout(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "bBU", longArg: []string{"orphan", "conflict", "pathspec-from-file"}})
	if ps.has("f", 3, "force") {
		p.raise(Dangerous, "discards uncommitted changes (checkout --force)")
	} else if wholeTree(ps.operands) {
		p.raise(Dangerous, "discards uncommitted changes in the whole tree")
	}
	p.raise(Confirm, "changes the working tree")
}

func gitRestore(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "s", longArg: []string{"source", "conflict", "pathspec-from-file"}})
	worktree := ps.has("W", 0, "worktree") || !ps.has("S", 0, "staged")
	if worktree && wholeTree(ps.operands) {
		p.raise(Dangerous, "discards uncommitted changes in the whole tree")
	}
	p.raise(Confirm, "changes the working tree")
}

func gitSwitch(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "cC", longArg: []string{"create", "force-create", "orphan", "conflict"}})
	if ps.has("f", 3, "force", "discard-changes") {
		p.raise(Dangerous, "discards uncommitted changes")
	}
	p.raise(Confirm, "switches branches")
}

func gitRm(p *part, args []field) {
	ps := getopt(args, optSpec{longArg: []string{"pathspec-from-file"}})
	if ps.has("r", 0) && ps.has("f", 3, "force") {
		p.raise(Dangerous, "forced recursive removal, including uncommitted changes")
	}
	p.raise(Confirm, "removes files")
}

func gitRewrite(p *part, args []field) {
	p.raise(Dangerous, "rewrites the repository's whole history")
}

func gitRebase(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "xsX", longArg: []string{"exec", "onto", "strategy", "strategy-option", "gpg-sign"}})
	for _, cmd := range ps.values("x", "exec") {
		p.nestedCommand(field{s: cmd}, scriptOpts{})
	}
	p.raise(Confirm, "rewrites commits")
}

func gitClone(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "obucj", longArg: []string{"origin", "branch", "upload-pack", "template", "config", "depth", "reference", "separate-git-dir", "jobs", "shallow-since", "shallow-exclude", "filter", "server-option", "bundle-uri", "ref-format"}})
	for _, c := range ps.values("c", "config") {
		p.gitConfig(c, false)
	}
	for _, up := range ps.values("u", "upload-pack") {
		p.nestedCommand(field{s: up}, scriptOpts{})
	}
	if len(ps.operands) > 1 {
		p.writes(ps.operands[1:2])
	}
	p.raise(Confirm, "clones a repository")
}

func gitFetch(p *part, args []field) {
	ps := getopt(args, optSpec{longArg: []string{"upload-pack", "depth", "deepen", "shallow-since", "shallow-exclude", "refmap", "server-option", "jobs", "negotiation-tip", "recurse-submodules-default", "filter", "strategy", "strategy-option", "gpg-sign", "rebase", "log", "cleanup", "signoff", "into-name"}})
	for _, up := range ps.values("", "upload-pack") {
		p.nestedCommand(field{s: up}, scriptOpts{})
	}
	p.raise(Confirm, "fetches from a remote")
}

func gitApply(p *part, args []field) {
	for _, a := range args {
		if a.s == "--check" || a.s == "--stat" || a.s == "--numstat" || a.s == "--summary" {
			return
		}
	}
	p.raise(Confirm, "applies a patch")
}

func gitChange(why string) func(p *part, args []field) {
	return func(p *part, args []field) { p.raise(Confirm, why) }
}
