package safety

import (
	"path"
	"strings"
)

// deletes records the removal of each target: at least Confirm, Dangerous
// for sensitive files and for everything in the home or root directory.
func (p *part) deletes(targets []field) {
	for _, t := range targets {
		l := p.w.resolve(t.s)
		if t.glob && (l.path == "~" || l.path == "/" || path.Dir(l.path) == "~" || path.Dir(l.path) == "/" || path.Dir(l.path) == ".") && globAll(l.path) {
			p.raise(Dangerous, "deletes every file in "+path.Dir(l.path))
			continue
		}
		if tier, why := writeRisk(l); tier == Dangerous {
			p.raise(Dangerous, "deletes "+display(t.s)+" ("+why+")")
		}
	}
}

// globAll reports a pattern whose last element matches everything (*, .*, *.*).
func globAll(p string) bool {
	switch path.Base(p) {
	case "*", ".*", "*.*", "?*", "{*,.*}":
		return true
	}
	return false
}

// writes records writing each target: Confirm, or Dangerous for sensitive paths.
func (p *part) writes(targets []field) {
	for _, t := range targets {
		if t.proc {
			continue // >(cmd): the command is classified, there is no file
		}
		l := p.w.resolve(t.s)
		p.wrote = append(p.wrote, l.path)
		p.raise(p.w.writeEffect(t, l))
	}
}

// readsFiles raises to Confirm when an operand looks like a secret; no
// allow rule lowers that, since a rule names a program, not the secrets
// it may read.
func (p *part) readsFiles(fs []field) {
	for _, f := range fs {
		if f.s == "" || f.s == "-" {
			continue
		}
		if why := secretLoc(p.w.resolve(f.s)); why != "" {
			p.raiseSticky(Confirm, "reads "+display(f.s)+" ("+why+")")
		}
	}
}

func hRm(p *part, name string, args []field) {
	ps := getopt(args, optSpec{})
	recursive := ps.has("rR", 1, "recursive")
	force := ps.has("f", 1, "force")
	switch {
	case recursive && force:
		p.raise(Dangerous, "recursive forced delete")
	case recursive:
		p.raise(Dangerous, "recursive delete")
	case p.bulk:
		p.raise(Dangerous, "deletes every file named in its input")
	case force && len(ps.operands) > 0:
		// -f deletes write-protected files without asking, and a typo in
		// the operands is not caught: there is no way back.
		p.raise(Dangerous, "forced delete")
	}
	for _, a := range args {
		if isWinSwitch(a.s, "s") {
			p.raise(Dangerous, "recursive delete")
		}
	}
	p.deletes(ps.operands)
	p.raise(Confirm, "deletes files")
}

func hRmdir(p *part, name string, args []field) {
	for _, a := range args {
		if isWinSwitch(a.s, "s") || psParam(a.s, "recurse", 1) {
			p.raise(Dangerous, "deletes a directory tree")
		}
	}
	ps := getopt(args, optSpec{})
	p.deletes(ps.operands)
	p.raise(Confirm, "removes directories")
}

func hUnlink(p *part, name string, args []field) {
	p.deletes(getopt(args, optSpec{}).operands)
	p.raise(Confirm, "deletes a file")
}

func hShred(p *part, name string, args []field) {
	p.raise(Dangerous, "overwrites files so they cannot be recovered")
}

// copyLike handles cp, mv, install and ln: the destination is -t DIR or
// the last operand.
func copyLike(verb string, shortArg string, longArg []string, move bool) handler {
	return func(p *part, name string, args []field) {
		ps := getopt(args, optSpec{shortArg: shortArg, longArg: longArg})
		ops := ps.operands
		var dests []field
		if t, ok := ps.value("t", 3, "target-directory"); ok {
			dests = append(dests, field{s: t})
		} else if len(ops) > 1 {
			dests = append(dests, ops[len(ops)-1])
			ops = ops[:len(ops)-1]
		} else if name == "ln" && len(ops) == 1 {
			dests = append(dests, field{s: path.Base(ops[0].s)})
		}
		if name == "install" && ps.has("d", 0, "directory") {
			dests = ps.operands
		}
		if mode, ok := ps.value("m", 3, "mode"); ok {
			if why := modeRisk(mode); why != "" {
				p.raise(Dangerous, why)
			}
		}
		for _, d := range dests {
			if dl := p.w.resolve(d.s); move && isSink(dl.path) && len(ops) > 0 {
				p.raise(Dangerous, "moves "+display(joinFields(ops))+" onto "+display(d.s)+", which destroys it")
			}
		}
		if !move && len(dests) == 1 && !isSink(p.w.resolve(dests[0].s).path) {
			for _, src := range ops {
				if sl := p.w.resolve(src.s); sl.path == "/dev/null" || sl.path == "/dev/zero" || sl.path == "nul" {
					if name == "ln" {
						p.raise(Dangerous, "replaces "+display(dests[0].s)+" with a link to "+src.s+", which keeps nothing")
					} else {
						p.raise(Dangerous, "empties "+display(dests[0].s)+" (copies "+src.s+" over it)")
					}
				}
			}
		}
		if move {
			for _, src := range ops {
				if tier, why := writeRisk(p.w.resolve(src.s)); tier == Dangerous {
					p.raise(Dangerous, "moves "+display(src.s)+" away ("+why+")")
				}
			}
		} else {
			p.readsFiles(ops)
		}
		p.writes(dests)
		p.raise(Confirm, verb)
	}
}

func hTouchLike(verb, shortArg string) handler {
	return func(p *part, name string, args []field) {
		ps := getopt(args, optSpec{shortArg: shortArg})
		if mode, ok := ps.value("m", 3, "mode"); ok && strings.Contains(shortArg, "m") {
			if why := modeRisk(mode); why != "" {
				p.raise(Dangerous, why)
			}
		}
		p.writes(ps.operands)
		p.raise(Confirm, verb)
	}
}

func hChmod(p *part, name string, args []field) {
	var mode string
	var targets []field
	recursive, haveMode := false, false
	for i, a := range args {
		s := a.s
		switch {
		case s == "--":
			targets = append(targets, args[i+1:]...)
			if !haveMode && len(targets) > 0 {
				mode, targets, haveMode = targets[0].s, targets[1:], true
			}
			goto done
		case strings.HasPrefix(s, "--"):
			if strings.HasPrefix(s, "--rec") {
				recursive = true
			}
			if strings.HasPrefix(s, "--reference") {
				haveMode = true
			}
		case len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "RfvcHLP") == "":
			if strings.Contains(s, "R") {
				recursive = true
			}
		case !haveMode:
			mode, haveMode = s, true
		default:
			targets = append(targets, a)
		}
	}
done:
	if why := modeRisk(mode); why != "" {
		p.raise(Dangerous, why)
	}
	p.ownership(targets, recursive, "changes permissions of")
	p.raise(Confirm, "changes file permissions")
}

func hChown(p *part, name string, args []field) {
	ps := getopt(args, optSpec{})
	ops := ps.operands
	if _, ref := ps.value("", 3, "reference"); !ref && len(ops) > 0 {
		ops = ops[1:]
	}
	p.ownership(ops, ps.has("R", 3, "recursive"), "changes the owner of")
	p.raise(Confirm, "changes file ownership")
}

// ownership raises permission or owner changes on sensitive targets, and
// recursive ones over the whole home or root directory.
func (p *part) ownership(targets []field, recursive bool, verb string) {
	for _, t := range targets {
		l := p.w.resolve(t.s)
		if tier, why := writeRisk(l); tier == Dangerous {
			p.raise(Dangerous, verb+" "+display(t.s)+" ("+why+")")
		} else if recursive && (l.path == "~" || l.path == "/" || strings.HasPrefix(l.path, "~/*") || l.path == "?") {
			p.raise(Dangerous, verb+" everything under "+display(t.s))
		}
	}
}

// modeRisk names a chmod mode that opens files to everyone or sets
// setuid/setgid bits.
func modeRisk(mode string) string {
	if mode == "" {
		return ""
	}
	if isOctal(mode) {
		digits := mode
		if len(digits) > 3 {
			special := digits[len(digits)-4]
			if special == '4' || special == '2' || special == '6' || special == '7' || special == '5' || special == '3' {
				return "sets the setuid or setgid bit"
			}
		}
		if len(digits) >= 1 {
			other := digits[len(digits)-1]
			if other == '2' || other == '3' || other == '6' || other == '7' {
				return "makes files writable by everyone (" + mode + ")"
			}
		}
		return ""
	}
	for _, clause := range strings.Split(mode, ",") {
		i := 0
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			i++
		}
		everyone := strings.ContainsAny(clause[:i], "oa")
		for i < len(clause) && strings.IndexByte("+-=", clause[i]) >= 0 {
			op := clause[i]
			j := i + 1
			for j < len(clause) && strings.IndexByte("+-=", clause[j]) < 0 {
				j++
			}
			perms := clause[i+1 : j]
			i = j
			if op == '-' {
				continue
			}
			switch {
			case everyone && strings.Contains(perms, "w"):
				return "makes files writable by everyone (" + mode + ")"
			case strings.Contains(perms, "s"):
				return "sets the setuid or setgid bit"
			case everyone && strings.Contains(perms, "u"):
				return "gives everyone the owner's permissions (" + mode + ")"
			}
		}
	}
	return ""
}

func isOctal(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}

func hDd(p *part, name string, args []field) {
	for _, a := range args {
		k, v, ok := strings.Cut(a.s, "=")
		if !ok {
			continue
		}
		switch k {
		case "of":
			l := p.w.resolve(v)
			if tier, why := writeRisk(l); tier == Dangerous {
				p.raise(Dangerous, "writes raw data to "+display(v)+" ("+why+")")
			} else {
				p.raise(tier, "writes "+display(v))
			}
		case "if":
			p.readsFiles([]field{{s: v}})
		}
	}
	if in, ok := ddOperand(args, "if"); ok && (in == "/dev/null") {
		if out, ok := ddOperand(args, "of"); ok && !isSink(p.w.resolve(out).path) {
			p.raise(Dangerous, "empties "+display(out))
		}
	}
	p.raise(Confirm, "copies raw data")
}

func hTee(p *part, name string, args []field) {
	ps := getopt(args, optSpec{longArg: []string{"output-error"}})
	p.writes(ps.operands)
	p.out = p.stdin
	text := unknownMark
	if p.stdin.exact {
		text = p.stdin.literal
	}
	for _, o := range ps.operands {
		l := p.w.resolve(o.s)
		if ps.has("a", 0, "append") {
			if _, seen := p.w.sh.wrote[l.path]; !seen {
				p.w.sh.wrote[l.path] = unknownMark + "\n"
			}
		} else {
			p.w.sh.wrote[l.path] = ""
		}
		if len(p.w.sh.wrote[l.path])+len(text) <= maxWritten {
			p.w.sh.wrote[l.path] += text
		}
	}
}

func hMkfs(p *part, name string, args []field) {
	p.raise(Dangerous, "creates a file system, erasing what the device holds")
}

func hPartition(p *part, name string, args []field) {
	ps := getopt(args, optSpec{})
	if ps.has("l", 0, "list") && len(args) <= 2 {
		return
	}
	p.raise(Dangerous, "changes disk partitions or signatures")
}

func hFormat(p *part, name string, args []field) {
	p.raise(Dangerous, "formats a drive")
}

// isWinSwitch reports a Windows-style switch such as /s or /S.
func isWinSwitch(s, letter string) bool {
	return len(s) >= 2 && s[0] == '/' && strings.EqualFold(s[1:], letter)
}

// psParam reports a PowerShell parameter (case-insensitive, abbreviable)
// such as -Recurse written -r, -rec or -RECURSE.
func psParam(s, full string, minLen int) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	name := strings.ToLower(strings.TrimRight(s[1:], ":"))
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	return len(name) >= minLen && strings.HasPrefix(full, name)
}

func hDel(p *part, name string, args []field) {
	quiet, wild := false, false
	var targets []field
	for _, a := range args {
		switch {
		case isWinSwitch(a.s, "s") || psParam(a.s, "recurse", 1):
			p.raise(Dangerous, "deletes files in every subdirectory")
		case isWinSwitch(a.s, "q"):
			quiet = true
		case isWinSwitch(a.s, "f"):
			p.raise(Dangerous, "forced delete (read-only files too)")
		case strings.HasPrefix(a.s, "/") && len(a.s) <= 4 && !strings.Contains(a.s[1:], "/"):
		case strings.HasPrefix(a.s, "-"):
		default:
			targets = append(targets, a)
			if strings.ContainsAny(a.s, "*?") {
				wild = true
			}
		}
	}
	if quiet && wild {
		p.raise(Dangerous, "deletes every matching file without asking")
	}
	p.deletes(targets)
	p.raise(Confirm, "deletes files")
}

func hRd(p *part, name string, args []field) {
	for _, a := range args {
		if isWinSwitch(a.s, "s") || psParam(a.s, "recurse", 1) {
			p.raise(Dangerous, "deletes a directory tree")
		}
	}
	p.raise(Confirm, "removes a directory")
}

func hRemoveItem(p *part, name string, args []field) {
	var targets []field
	for _, a := range args {
		switch {
		case psParam(a.s, "recurse", 1):
			p.raise(Dangerous, "recursive delete")
		case psParam(a.s, "force", 2):
			p.raise(Dangerous, "forced delete (hidden and read-only files too)")
		case strings.HasPrefix(a.s, "-"):
		default:
			targets = append(targets, a)
		}
	}
	if p.stdin.present {
		p.raise(Dangerous, "deletes everything piped to it")
	}
	p.deletes(targets)
	p.raise(Confirm, "deletes files")
}

func hRobocopy(p *part, name string, args []field) {
	for _, a := range args {
		if isWinSwitch(a.s, "mir") || isWinSwitch(a.s, "purge") {
			p.raise(Dangerous, "mirrors a directory, deleting files in the destination")
		}
	}
	p.raise(Confirm, "copies files")
}

func hWinCopy(p *part, name string, args []field) {
	var ops []field
	for _, a := range args {
		if !strings.HasPrefix(a.s, "/") || strings.Count(a.s, "/") > 1 || len(a.s) > 4 {
			if !strings.HasPrefix(a.s, "-") {
				ops = append(ops, a)
			}
		}
	}
	if len(ops) > 1 {
		p.writes(ops[len(ops)-1:])
	}
	p.raise(Confirm, "copies or moves files")
}

// hStart handles Windows start, which runs the command after its switches.
func hStart(p *part, name string, args []field) {
	i := 0
	for i < len(args) && (strings.HasPrefix(args[i].s, "/") && len(args[i].s) <= 12 && !strings.Contains(args[i].s[1:], "/")) {
		i++
	}
	if i >= len(args) {
		p.raise(Confirm, "starts another program")
		return
	}
	p.raise(Confirm, "starts another program")
	p.run(args[i:])
}

func hSSHKeygen(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "abCEfFgIjJKmMNnOPrRsStwYzZ", longArg: nil})
	for _, o := range ps.opts {
		switch o.name {
		case "l", "B", "L", "Q", "F", "D":
			return
		case "y":
			p.raise(Confirm, "reads a private key")
			return
		case "R":
			p.writes([]field{{s: "~/.ssh/known_hosts"}})
			return
		}
	}
	target := "~/.ssh/id_key"
	if f, ok := ps.value("f", 0); ok {
		target = f
	}
	p.writes([]field{{s: target}})
}

// hTruncate handles truncate: cutting a file to nothing destroys what it
// held; other sizes are ordinary writes.
func hTruncate(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "sr", longArg: []string{"size", "reference"}})
	if size, ok := ps.value("s", 2, "size"); ok && zeroSize(size) && len(ps.operands) > 0 {
		p.raise(Dangerous, "empties "+display(joinFields(ps.operands)))
	}
	p.writes(ps.operands)
	p.raise(Confirm, "truncates files")
}

// zeroSize reports a truncate size of nothing: 0, 0K, 0MB, or a size
// only known at run time.
func zeroSize(s string) bool {
	if strings.Contains(s, unknownMark) {
		return true
	}
	s = strings.TrimLeft(s, "=<>%/")
	s = strings.TrimRight(s, "KMGTPEZYkmgtpezyiB")
	return s != "" && strings.Trim(s, "0") == ""
}

// hSetfacl handles setfacl: ACLs on system files, or granted recursively
// on the home or root directory, are dangerous.
func hSetfacl(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "mMxX", longArg: []string{"modify", "modify-file", "remove", "remove-file", "set", "set-file"}})
	p.ownership(ps.operands, ps.has("R", 0, "recursive"), "changes the permissions of")
	p.raise(Confirm, "changes file permissions")
}

// winWords splits the arguments of a Windows command again on blanks: a
// shell parse of C:\ /grant joins the two words, as \ escapes the blank.
func winWords(args []field) []field {
	var out []field
	for _, a := range args {
		ws := strings.Fields(a.s)
		if len(ws) > 1 {
			out = append(out, a) // "C:\Program Files" is one path too
		}
		for _, w := range ws {
			out = append(out, field{s: w, taint: a.taint})
		}
	}
	return out
}

// winTargets returns the operands of a Windows command: the words that are
// not /switches (nor their values).
func winTargets(args []field, valued ...string) []field {
	var out []field
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if len(s) > 1 && s[0] == '/' && !strings.Contains(s[1:], "/") && len(s) <= 12 {
			if contains(valued, strings.ToLower(s[1:])) {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// hIcacls handles icacls: showing an ACL is safe; granting rights on a
// drive root or system directory, or full rights to everyone, is dangerous.
func hIcacls(p *part, name string, args []field) {
	args = winWords(args)
	changes := false
	recursive := false
	for i, a := range args {
		switch strings.ToLower(a.s) {
		case "/grant", "/grant:r", "/deny", "/remove", "/remove:g", "/remove:d", "/setowner", "/reset", "/setintegritylevel", "/restore", "/inheritance:r", "/inheritance:d", "/inheritance:e":
			changes = true
			if i+1 < len(args) && strings.HasPrefix(strings.ToLower(a.s), "/grant") {
				who := strings.ToLower(args[i+1].s)
				if (strings.HasPrefix(who, "everyone:") || strings.HasPrefix(who, "*s-1-1-0:") || strings.HasPrefix(who, "users:") ||
					strings.HasPrefix(who, "authenticated users:") || strings.HasPrefix(who, "*s-1-5-11:")) && strings.ContainsAny(strings.TrimLeft(who[strings.IndexByte(who, ':'):], ":"), "FMWfmw") {
					p.raise(Dangerous, "gives everyone write access ("+args[i+1].s+")")
				}
			}
		case "/t":
			recursive = true
		case "/save":
			changes = true
		}
	}
	if !changes {
		return
	}
	targets := winTargets(args, "grant", "grant:r", "deny", "remove", "remove:g", "remove:d", "setowner", "setintegritylevel", "save", "restore", "substitute")
	p.ownership(targets, recursive, "changes the permissions of")
	p.raise(Confirm, "changes file permissions")
}

// hTakeown handles takeown: taking ownership of a drive root or a system
// directory, or recursively of a whole drive, is dangerous.
func hTakeown(p *part, name string, args []field) {
	args = winWords(args)
	recursive := false
	var targets []field
	for i, a := range args {
		switch strings.ToLower(a.s) {
		case "/r":
			recursive = true
		case "/f":
			if i+1 < len(args) {
				targets = append(targets, args[i+1])
				if ws := strings.Fields(args[i+1].s); len(ws) > 1 {
					targets = append(targets, field{s: ws[0]}) // C:\ /r read as one word
				}
			}
		}
	}
	p.ownership(targets, recursive, "takes ownership of")
	p.raise(Confirm, "takes ownership of files")
}

// ddOperand returns the value of dd's key=value operand.
func ddOperand(args []field, key string) (string, bool) {
	for _, a := range args {
		if k, v, ok := strings.Cut(a.s, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// hChattr handles chattr: attributes of system files and secrets (making
// them immutable, or removing that protection) are dangerous to change.
func hChattr(p *part, name string, args []field) {
	var targets []field
	recursive := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.s == "-R":
			recursive = true
		case a.s == "-v" || a.s == "-p":
			i++ // the version or project number, not a file
		case len(a.s) > 1 && (a.s[0] == '+' || a.s[0] == '-' || a.s[0] == '='):
		default:
			targets = append(targets, a)
		}
	}
	p.ownership(targets, recursive, "changes the attributes of")
	p.raise(Confirm, "changes file attributes")
}
