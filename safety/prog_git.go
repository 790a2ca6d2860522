package safety

import "strings"

func hGit(p *part, name string, args []field) {
	dir := p.w.cwd // "" is the project root
	i := 0
global:
	for i < len(args) {
		s := args[i].s
		flag, val, hasVal := strings.Cut(s, "=")
		next := func() string {
			if hasVal {
				i++
				return val
			}
			i += 2
			if i-1 < len(args) {
				return args[i-1].s
			}
			return ""
		}
		switch {
		case s == "-C":
			d := ""
			if i+1 < len(args) {
				d = args[i+1].s
			}
			i += 2
			dir = placePath(d, dir).path
			if dir == "." {
				dir = ""
			}
		case strings.HasPrefix(s, "-C") && len(s) > 2 && !strings.HasPrefix(s, "--"):
			dir = placePath(s[2:], dir).path
			if dir == "." {
				dir = ""
			}
			i++
		case s == "-c":
			if i+1 < len(args) {
				p.gitConfig(args[i+1].s, true)
			}
			i += 2
		case flag == "--git-dir":
			if d := next(); placePath(d, p.w.cwd).path != ".git" {
				p.raiseSticky(Confirm, "uses the repository "+display(d)+", whose configuration can run programs")
			}
		case flag == "--work-tree":
			if d := next(); placePath(d, p.w.cwd).path != "." {
				p.raiseSticky(Confirm, "uses "+display(d)+" as the work tree")
			}
		case s == "--bare":
			p.raiseSticky(Confirm, "uses the current directory as a bare repository, whose configuration can run programs")
			i++
		case flag == "--config-env":
			p.raiseSticky(Confirm, "takes git configuration from the environment ("+display(next())+"), which can run programs")
		case flag == "--exec-path" && hasVal:
			p.raiseSticky(Confirm, "runs git's programs from "+display(val))
			i++
		case flag == "--namespace" || flag == "--super-prefix" || flag == "--attr-source":
			next()
		case s == "--version" || s == "--help" || s == "-h" || s == "--exec-path" || s == "--html-path" || s == "--man-path" || s == "--info-path" ||
			strings.HasPrefix(s, "--list-cmds"):
			return
		case strings.HasPrefix(s, "-"):
			i++
		default:
			break global
		}
	}
	if dir != "" {
		p.raiseSticky(Confirm, "runs git in "+display(strings.ReplaceAll(dir, unknownMark, "…"))+", which may be another repository whose configuration runs programs")
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

// gitURL raises for repository addresses that run programs: the ext::
// transport runs the command it names, and fd:: talks over descriptors the
// command line sets up.
func (p *part) gitURL(a field) {
	s := strings.ToLower(a.s)
	switch {
	case strings.HasPrefix(s, "ext::"):
		p.raiseSticky(Dangerous, "uses the ext:: transport, which runs a command")
		cmd := strings.NewReplacer("% ", " ", "%%", "%").Replace(a.s[len("ext::"):])
		p.nestedCommand(field{s: cmd, taint: a.taint}, scriptOpts{})
	case strings.HasPrefix(s, "fd::"):
		p.raiseSticky(Confirm, "uses the fd:: transport")
	case strings.Contains(s, "::"):
		// transport::address runs the remote helper git-remote-<transport>.
		p.raiseSticky(Confirm, "runs the git remote helper for "+display(a.s[:strings.Index(s, "::")]))
	}
}

// gitURLs checks every operand that may be a repository address.
func (p *part) gitURLs(ops []field) {
	for _, o := range ops {
		p.gitURL(o)
	}
}

// gitExecOpts classifies the options of network commands that name a
// program git runs (locally for local and ssh remotes): --upload-pack,
// --receive-pack and --exec.
func (p *part) gitExecOpts(ps parsed, short string, names ...string) {
	for _, prog := range ps.values(short, names...) {
		p.raiseSticky(Confirm, "runs "+display(prog)+" as the remote side of git")
		p.nestedCommand(field{s: prog}, scriptOpts{})
	}
}

// gitSubs classifies git subcommands. Read-only ones are safe; the rest
// need approval; the ones that destroy work or rewrite shared history are
// dangerous.
var gitSubs = map[string]func(p *part, args []field){
	"status": gitRead, "log": gitOutput, "show": gitOutput, "diff": gitOutput, "whatchanged": gitOutput,
	"shortlog": gitRead, "blame": gitRead, "annotate": gitRead, "describe": gitRead, "rev-parse": gitRead,
	"rev-list": gitRead, "ls-files": gitRead, "ls-tree": gitRead, "ls-remote": gitLsRemote, "cat-file": gitCatFile,
	"show-ref": gitRead, "for-each-ref": gitRead, "name-rev": gitRead, "merge-base": gitRead, "count-objects": gitRead,
	"verify-commit": gitRead, "verify-tag": gitRead, "verify-pack": gitRead, "help": gitHelp, "version": gitRead,
	"check-ignore": gitRead, "check-attr": gitRead, "check-ref-format": gitRead, "var": gitRead, "cherry": gitRead,
	"range-diff": gitOutput, "diff-tree": gitOutput, "diff-files": gitOutput, "diff-index": gitOutput, "show-branch": gitRead,
	"get-tar-commit-id": gitRead, "grep": gitGrep, "reflog": gitReflog, "fsck": gitFsck, "archive": gitArchive,
	"hash-object": gitHashObject, "branch": gitBranch, "tag": gitTag, "remote": gitRemote, "config": gitConfigCmd,
	"stash": gitStash, "worktree": gitWorktree, "notes": gitListOr("list", "show"), "submodule": gitSubmodule,
	"bisect": gitBisect, "push": gitPush, "reset": gitReset, "clean": gitClean, "checkout": gitCheckout,
	"restore": gitRestore, "switch": gitSwitch, "rm": gitRm, "filter-branch": gitRewrite, "filter-repo": gitRewrite,
	"rebase": gitRebase, "clone": gitClone, "fetch": gitFetch, "pull": gitFetch, "sparse-checkout": gitListOr("list"),
	"lfs":    gitLFS,
	"commit": gitChange("records a commit"), "merge": gitChange("merges branches"), "cherry-pick": gitChange("applies commits"),
	"revert": gitChange("reverts commits"), "am": gitChange("applies patches"), "apply": gitApply,
	"init": gitInit, "add": gitChange("stages changes"), "mv": gitChange("moves files"),
	"gc": gitChange("cleans up the repository"), "prune": gitChange("prunes unreachable objects"),
	"update-ref": gitChange("changes a ref"), "update-index": gitChange("changes the index"),
	"symbolic-ref": gitChange("changes a ref"), "replace": gitChange("replaces objects"),
	"format-patch": gitChange("writes patch files"), "send-email": gitToolCmd("sends email"),
	"request-pull": gitChange("asks a remote for its refs (network)"), "difftool": gitToolCmd("runs a diff tool"), "mergetool": gitToolCmd("runs a merge tool"),
	"daemon": gitChange("starts a git server"), "instaweb": gitChange("starts a web server"),
	"credential": gitChange("reads or stores credentials"), "maintenance": gitChange("changes scheduled maintenance"),
	"repack": gitChange("repacks objects"), "pack-refs": gitChange("packs refs"), "commit-tree": gitChange("writes objects"),
	"read-tree": gitChange("changes the index"), "write-tree": gitChange("writes objects"), "mktag": gitChange("writes objects"),
	"mktree": gitChange("writes objects"), "rerere": gitChange("records merge resolutions"), "bundle": gitChange("writes a bundle"),
	"citool": gitChange("opens a commit tool"), "gui": gitChange("opens a git GUI"), "gitk": gitRead,
}

func gitRead(p *part, args []field) {}

// gitOutput handles log/show/diff and the diff plumbing: --output writes a
// file, --ext-diff and --textconv run the programs the configuration names,
// and --no-index compares files anywhere.
func gitOutput(p *part, args []field) {
	noIndex := false
	for i, a := range args {
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a.s, "--"), "=")
		if !strings.HasPrefix(a.s, "--") {
			continue
		}
		switch {
		case len(name) >= 4 && strings.HasPrefix("output", name):
			if hasVal {
				p.writes([]field{{s: val}})
			} else if i+1 < len(args) {
				p.writes(args[i+1 : i+2])
			}
		case name == "ext-diff":
			p.raiseSticky(Confirm, "runs the external diff program the configuration names")
		case name == "textconv":
			p.raiseSticky(Confirm, "runs the text conversion programs the configuration names")
		case name == "no-index":
			noIndex = true
		}
	}
	if noIndex {
		var ops []field
		for _, a := range args {
			if !strings.HasPrefix(a.s, "-") {
				ops = append(ops, a)
			}
		}
		p.readsFiles(ops)
	}
}

func gitCatFile(p *part, args []field) {
	for _, a := range args {
		if a.s == "--textconv" || a.s == "--filters" || strings.HasPrefix(a.s, "--batch") && hasWord(args, "--textconv") {
			p.raise(Confirm, "runs the conversion programs the configuration names")
			return
		}
	}
}

func gitHelp(p *part, args []field) {
	for _, a := range args {
		if a.s == "-w" || a.s == "--web" {
			p.raise(Confirm, "opens the help in a web browser")
		}
	}
}

func gitLFS(p *part, args []field) {
	op, i := firstOperand(args)
	switch op.s {
	case "", "ls-files", "status", "env", "version", "logs":
		return
	case "track":
		if ops := getopt(args[i+1:], optSpec{}).operands; len(ops) == 0 {
			return
		}
		p.raise(Confirm, "changes .gitattributes")
		return
	}
	p.raise(Confirm, "changes the repository")
}

// gitLsRemote asks a remote for its refs: it talks to the network (or runs
// the program --upload-pack names), except for --get-url.
func gitLsRemote(p *part, args []field) {
	ps := getopt(args, optSpec{longArg: []string{"upload-pack", "exec", "sort", "server-option"}, shortArg: "o"})
	if ps.has("", 0, "get-url") {
		return
	}
	p.gitExecOpts(ps, "", "upload-pack", "exec")
	p.gitURLs(ps.operands[:min(1, len(ps.operands))])
	p.raise(Confirm, "asks a remote repository for its refs (network)")
}

func gitGrep(p *part, args []field) {
	for _, a := range args {
		pager, ok := "", false
		switch {
		case a.s == "-O" || a.s == "--open-files-in-pager":
			ok = true
		case strings.HasPrefix(a.s, "--open-files-in-pager="):
			pager, ok = strings.TrimPrefix(a.s, "--open-files-in-pager="), true
		case strings.HasPrefix(a.s, "-O") && len(a.s) > 2 && !strings.HasPrefix(a.s, "--"):
			pager, ok = a.s[2:], true
		}
		if ok {
			p.raiseSticky(Confirm, "opens the matches in another program")
			if pager != "" {
				p.nestedCommand(field{s: pager}, scriptOpts{})
			}
		}
	}
}

// gitToolCmd handles difftool, mergetool and send-email, whose options
// can name a command to run (-x/--extcmd, --sendmail-cmd, --to-cmd, …).
func gitToolCmd(why string) func(p *part, args []field) {
	return func(p *part, args []field) {
		p.raise(Confirm, why)
		for i, a := range args {
			name, val, has := strings.Cut(a.s, "=")
			switch name {
			case "-x", "--extcmd", "--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd", "--smtp-server", "--tool":
				if !has && i+1 < len(args) {
					val = args[i+1].s
				}
				if name == "--tool" || name == "--smtp-server" && !strings.HasPrefix(val, "/") {
					continue // a tool of the configuration, or a host name
				}
				p.raiseSticky(Confirm, "runs "+display(val)+" ("+name+")")
				p.nestedCommand(field{s: val}, scriptOpts{})
			}
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
	ps := getopt(args, optSpec{shortArg: "o", longArg: []string{"output", "remote", "exec", "format", "prefix", "add-file", "add-virtual-file"}})
	if o, ok := ps.value("o", 0, "output"); ok {
		p.writes([]field{{s: o}})
	}
	if r, ok := ps.value("", 0, "remote"); ok {
		p.gitURL(field{s: r})
		p.gitExecOpts(ps, "", "exec")
		p.raise(Confirm, "contacts another repository")
	}
	for _, f := range ps.values("", "add-file") {
		p.readsFiles([]field{{s: f}})
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
	if ps.has("D", 0) || ps.has("d", 3, "delete") && ps.has("f", 3, "force") {
		p.raise(Dangerous, "deletes a branch even if its commits are not merged anywhere")
		return
	}
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
	p.readsFiles(gitFileValues(args)) // -F FILE, the tag's message
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
	ps := getopt(args, optSpec{shortArg: "tm", longArg: []string{"track", "master", "push"}})
	if len(ps.operands) == 0 {
		return
	}
	switch ps.operands[0].s {
	case "get-url":
		return
	case "show":
		if !ps.has("n", 0) {
			p.raise(Confirm, "asks the remote for its branches (network)")
		}
		return
	case "add", "set-url":
		p.gitURLs(ps.operands[1:])
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
		p.readsFiles(gitFileValues(args)) // git notes add -F FILE
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
		if len(ps.operands) > 1 && (o.name == "add" || o.name == "replace-all") {
			p.gitConfig(ps.operands[0].s+"="+ps.operands[1].s, false)
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

// gitConfig checks one configuration setting given on the command line
// (-c, clone --config) or written with git config. Settings whose value
// git runs are classified as commands; settings that point git at other
// configuration or programs, and settings pincer does not know to be
// harmless, need approval.
func (p *part) gitConfig(kv string, oneShot bool) {
	k, v, hasVal := strings.Cut(kv, "=")
	k = strings.ToLower(strings.TrimSpace(k))
	if strings.Contains(k, unknownMark) || strings.Contains(v, unknownMark) {
		p.raiseSticky(Confirm, "sets git configuration only known at run time")
		if !gitCommandKey(k) {
			return
		}
	}
	switch {
	case gitCommandKey(k):
		if !hasVal && oneShot {
			v = "true"
		}
		if k == "core.fsmonitor" && gitFalse(v) {
			return
		}
		cmd := v
		if strings.HasPrefix(k, "alias.") {
			if strings.HasPrefix(v, "!") {
				cmd = v[1:]
			} else {
				// An alias of git's own subcommands: git x runs git <value>.
				p.raiseSticky(Confirm, "defines the git alias "+strings.TrimPrefix(k, "alias."))
				p.nestedCommand(field{s: "git " + v}, scriptOpts{})
				return
			}
		}
		if k == "submodule.update" || strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update") {
			if !strings.HasPrefix(v, "!") {
				return
			}
			cmd = v[1:]
		}
		if oneShot {
			p.raiseSticky(Confirm, "sets "+k+", which git runs as a command")
		} else {
			p.raiseSticky(Confirm, "sets "+k+", which git will run as a command")
		}
		p.nestedCommand(field{s: cmd}, scriptOpts{})
	case k == "core.hookspath" && v == "/dev/null":
		// No hooks at all.
	case gitProgramDirKey(k):
		p.raiseSticky(Confirm, "sets "+k+", which makes git run programs from "+display(v))
	case k == "include.path" || strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path"):
		p.raiseSticky(Confirm, "includes the configuration file "+display(v)+", which can run programs")
	case strings.HasPrefix(k, "protocol.") && strings.HasSuffix(k, ".allow") || k == "protocol.allow":
		if v == "never" {
			return
		}
		p.raiseSticky(Confirm, "allows git transports ("+k+"="+display(v)+")")
		if strings.Contains(k, "ext") && v != "never" {
			p.raiseSticky(Dangerous, "enables the ext:: transport, which runs commands")
		}
	case k == "safe.barerepository":
		if v != "explicit" {
			p.raiseSticky(Confirm, "lets git use bare repositories it finds, whose configuration can run programs")
		}
	case k == "safe.directory":
		p.raiseSticky(Confirm, "trusts repositories owned by other users, whose configuration can run programs")
	case strings.HasSuffix(k, ".url") || strings.HasSuffix(k, ".pushurl") || strings.HasPrefix(k, "url."):
		p.gitURL(field{s: v})
		if base, ok := strings.CutPrefix(k, "url."); ok {
			// url.<base>.insteadOf: the base is the address git will use.
			if j := strings.LastIndexByte(base, '.'); j > 0 {
				p.gitURL(field{s: base[:j]})
			}
		}
		p.raiseSticky(Confirm, "changes the address of a remote")
	case gitHarmlessKey(k):
	default:
		p.raiseSticky(Confirm, "sets "+display(k)+", git configuration pincer does not know to be harmless")
	}
}

// gitFalse reports a git boolean false.
func gitFalse(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0", "":
		return true
	}
	return false
}

func gitCommandKey(k string) bool {
	switch k {
	case "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.gitproxy", "core.askpass",
		"core.alternaterefscommand", "diff.external", "sequence.editor", "credential.helper", "gpg.program",
		"gpg.ssh.program", "gpg.openpgp.program", "gpg.x509.program", "gpg.ssh.defaultkeycommand",
		"uploadpack.packobjectshook", "diff.tool", "merge.tool", "web.browser", "help.browser", "man.viewer",
		"sendemail.smtpserver", "sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd",
		"interactive.difffilter", "ssh.variant", "submodule.update":
		return true
	}
	return strings.HasPrefix(k, "alias.") || strings.HasPrefix(k, "pager.") ||
		(strings.HasPrefix(k, "filter.") && (strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge") || strings.HasSuffix(k, ".process"))) ||
		(strings.HasPrefix(k, "merge.") && strings.HasSuffix(k, ".driver")) ||
		(strings.HasPrefix(k, "diff.") && (strings.HasSuffix(k, ".command") || strings.HasSuffix(k, ".textconv"))) ||
		((strings.HasPrefix(k, "difftool.") || strings.HasPrefix(k, "mergetool.")) && (strings.HasSuffix(k, ".cmd") || strings.HasSuffix(k, ".path"))) ||
		(strings.HasPrefix(k, "credential.") && strings.HasSuffix(k, ".helper")) ||
		(strings.HasPrefix(k, "trailer.") && (strings.HasSuffix(k, ".command") || strings.HasSuffix(k, ".cmd"))) ||
		((strings.HasPrefix(k, "browser.") || strings.HasPrefix(k, "man.")) && (strings.HasSuffix(k, ".cmd") || strings.HasSuffix(k, ".path"))) ||
		(strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update")) ||
		(strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".uploadpack") || strings.HasSuffix(k, ".receivepack") || strings.HasSuffix(k, ".proxy") || strings.HasSuffix(k, ".vcs")))
}

// gitProgramDirKey lists settings that name a directory or file of
// programs git runs (hooks, templates with hooks) or another repository.
func gitProgramDirKey(k string) bool {
	switch k {
	case "core.hookspath", "init.templatedir", "core.worktree", "core.bare", "core.attributesfile":
		return true
	}
	return false
}

// gitHarmlessKey lists settings that change only how git formats, names
// or compares, never what it runs.
func gitHarmlessKey(k string) bool {
	section, _, _ := strings.Cut(k, ".")
	switch section {
	case "color", "column", "advice", "i18n", "pretty", "status", "grep", "blame", "user", "author", "committer",
		"versionsort", "tag", "branch", "log", "format", "merge", "pull", "push", "rebase", "fetch", "gc", "init",
		"rerere", "stash", "commit", "feature", "index", "pack", "transfer", "http", "checkout", "clone", "am", "apply",
		"diff", "core":
	default:
		return false
	}
	switch k {
	case "core.quotepath", "core.abbrev", "core.autocrlf", "core.safecrlf", "core.eol", "core.filemode",
		"core.ignorecase", "core.precomposeunicode", "core.whitespace", "core.commentchar", "core.commentstring",
		"core.untrackedcache", "core.preloadindex", "core.splitindex", "core.trustctime", "core.checkstat",
		"core.symlinks", "core.logallrefupdates", "core.compression", "core.loosecompression", "core.deltabasecachelimit",
		"core.bigfilethreshold", "core.packedgitlimit", "core.packedgitwindowsize", "core.excludesfile":
		return true
	}
	if section == "core" {
		return false
	}
	// Within the listed sections, only the settings that name programs or
	// files to include are not harmless; those are handled before this.
	return !strings.HasSuffix(k, ".driver") && !strings.HasSuffix(k, ".command") && !strings.HasSuffix(k, ".textconv") &&
		!strings.HasSuffix(k, ".cmd") && !strings.HasSuffix(k, ".helper") && !strings.HasSuffix(k, ".program") &&
		!strings.HasSuffix(k, "tool") && k != "diff.external" && k != "gc.logexpiry" && k != "format.outputdirectory"
}

func gitStash(p *part, args []field) {
	op, _ := firstOperand(args)
	switch op.s {
	case "list", "show":
		return
	case "clear":
		p.raise(Dangerous, "deletes every stash")
		return
	case "drop":
		p.raise(Dangerous, "deletes a stash, with the changes it holds")
		return
	}
	p.raise(Confirm, "changes the stash")
}

func gitWorktree(p *part, args []field) {
	op, i := firstOperand(args)
	if op.s == "list" {
		return
	}
	if op.s == "remove" && getopt(args[i+1:], optSpec{}).has("f", 3, "force") {
		p.raise(Dangerous, "removes a worktree with its uncommitted changes")
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
		case o.name == "f" || o.long && len(o.name) >= 3 && strings.HasPrefix("force", o.name):
			p.raise(Dangerous, "force push: rewrites history on the remote")
		case o.name == "mirror":
			p.raise(Dangerous, "mirror push: overwrites or deletes every ref on the remote")
		case o.name == "d" || o.name == "delete":
			p.raise(Dangerous, "deletes branches or tags on the remote")
		case o.name == "prune":
			p.raise(Dangerous, "deletes remote branches that have no local counterpart")
		case o.name == "repo":
			p.gitURL(field{s: o.val})
		}
	}
	p.gitExecOpts(ps, "", "receive-pack", "exec")
	for i, op := range ps.operands {
		if i == 0 {
			p.gitURL(op) // the remote
			continue
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
		// git accepts unambiguous abbreviations of long options.
		if name, ok := strings.CutPrefix(a.s, "--"); ok && len(name) >= 2 && strings.HasPrefix("hard", name) {
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
	ps := getopt(args, optSpec{shortArg: "obucj", longArg: []string{"origin", "branch", "upload-pack", "template", "config", "depth", "reference", "reference-if-able", "separate-git-dir", "jobs", "shallow-since", "shallow-exclude", "filter", "server-option", "bundle-uri", "ref-format"}})
	for _, c := range ps.values("c", "config") {
		p.gitConfig(c, false)
	}
	p.gitExecOpts(ps, "u", "upload-pack")
	if t, ok := ps.value("", 3, "template"); ok {
		p.raiseSticky(Confirm, "copies hooks from the template "+display(t)+", which git runs after the clone")
	}
	p.gitURLs(ps.operands[:min(1, len(ps.operands))])
	if len(ps.operands) > 1 {
		p.writes(ps.operands[1:2])
	}
	p.raise(Confirm, "clones a repository")
}

// gitInit handles git init: a template directory's hooks are copied into
// the new repository, where git runs them, so --template is asked about
// wherever it points (the template git uses by default is its own).
func gitInit(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "b", longArg: []string{"template", "separate-git-dir", "initial-branch", "object-format", "ref-format", "shared"}})
	if t, ok := ps.value("", 3, "template"); ok {
		p.raiseSticky(Confirm, "copies hooks from the template "+display(t)+", which git runs in the new repository")
	}
	if d, ok := ps.value("", 3, "separate-git-dir"); ok {
		p.raiseSticky(Confirm, "keeps the repository in "+display(d)+", whose configuration can run programs")
	}
	p.raise(Confirm, "creates a repository")
}

func gitFetch(p *part, args []field) {
	ps := getopt(args, optSpec{longArg: []string{"upload-pack", "depth", "deepen", "shallow-since", "shallow-exclude", "refmap", "server-option", "jobs", "negotiation-tip", "recurse-submodules-default", "filter", "strategy", "strategy-option", "gpg-sign", "rebase", "log", "cleanup", "signoff", "into-name"}, shortArg: "Xjo"})
	p.gitExecOpts(ps, "", "upload-pack")
	p.gitURLs(ps.operands[:min(1, len(ps.operands))])
	p.raise(Confirm, "fetches from a remote")
}

// gitApply is safe only when it reports on a patch without applying it:
// --check, --stat, --numstat and --summary turn applying off unless
// --apply (or --reject, which applies what it can) turns it back on.
func gitApply(p *part, args []field) {
	ps := getopt(args, optSpec{shortArg: "pC", longArg: []string{"exclude", "include", "directory", "build-fake-ancestor", "whitespace"}})
	if f, ok := ps.value("", 0, "build-fake-ancestor"); ok {
		p.writes([]field{{s: f}})
	}
	report, apply := false, false
	for _, o := range ps.opts {
		if !o.long {
			continue
		}
		switch {
		case o.name == "check" || o.name == "stat" || o.name == "numstat" || o.name == "summary":
			report = true
		case len(o.name) >= 2 && strings.HasPrefix("apply", o.name), len(o.name) >= 3 && strings.HasPrefix("reject", o.name):
			apply = true
		}
	}
	if report && !apply {
		return
	}
	p.raise(Confirm, "applies a patch")
}

func gitChange(why string) func(p *part, args []field) {
	return func(p *part, args []field) {
		p.raise(Confirm, why)
		p.readsFiles(gitFileValues(args))
	}
}

// gitFileValues are the files a changing git command reads through its
// options: the message of -F/--file, the template of -t/--template, the
// pathspecs of --pathspec-from-file. They are judged as reads, so a secret
// read as a commit message is asked about like any other read. Long
// options count abbreviated, as git takes them; short ones in clusters.
func gitFileValues(args []field) []field {
	var out []field
	for i := 0; i < len(args); i++ {
		a := args[i].s
		if a == "--" {
			break
		}
		next := func() {
			if i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		}
		if name, ok := strings.CutPrefix(a, "--"); ok {
			name, val, has := strings.Cut(name, "=")
			if len(name) < 3 || !gitFileOption(name) {
				continue
			}
			if has {
				out = append(out, field{s: val})
			} else {
				next()
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; {
			case c == 'F' || c == 't':
				if rest := a[j+1:]; rest != "" {
					out = append(out, field{s: rest})
				} else {
					next()
				}
			case c == 'm' || c == 'C' || c == 'c':
				if a[j+1:] == "" && i+1 < len(args) {
					i++ // the value of -m MSG, -C REV: not a file
				}
			case c == 'S' || c == 'u':
				// -S[KEYID], -u[MODE]: the rest of the word is the value.
			default:
				continue
			}
			break
		}
	}
	return out
}

// gitFileOption reports whether name, a long option maybe abbreviated,
// names a file git reads.
func gitFileOption(name string) bool {
	for _, full := range []string{"file", "template", "pathspec-from-file"} {
		if strings.HasPrefix(full, name) {
			return true
		}
	}
	return false
}
