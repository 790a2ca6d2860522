package safety

import (
	"path"
	"strings"
	"unicode"
)

// The checks of the entries whose arguments need more than option kinds:
// scripts (sed, awk, jq), patterns and trees (grep, rg, find), forms that
// only print (tar -t, gzip -c, date +FORMAT) and wrappers. Each returns ""
// when the words are proven, or why not. A check that reads the operands
// itself sets a.ops to nil; one that finds a command to run sets a.rest.

// grepFilter keeps the files a grep-like reader reads: --include,
// --exclude and --exclude-dir, matched against base names.
func grepFilter(a *proofArgs) func(name string, dir bool) bool {
	inc := fieldTexts(a.values("--include"))
	exc := fieldTexts(a.values("--exclude"))
	excDir := fieldTexts(a.values("--exclude-dir"))
	if len(inc) == 0 && len(exc) == 0 && len(excDir) == 0 {
		return nil
	}
	return func(name string, dir bool) bool {
		if dir {
			return !matchAny(excDir, name)
		}
		return (len(inc) == 0 || matchAny(inc, name)) && !matchAny(exc, name)
	}
}

func fieldTexts(fs []field) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.s)
	}
	return out
}

func matchAny(pats []string, name string) bool {
	for _, p := range pats {
		if m, err := path.Match(p, name); err == nil && m {
			return true
		}
	}
	return false
}

func checkGrep(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	if !a.has("-e", "--regexp", "-f", "--file") && len(ops) > 0 {
		ops = ops[1:] // the pattern
	}
	a.ops = nil
	d, _ := a.value("-d", "--directories")
	recursive := a.has("-r", "-R", "--recursive", "--dereference-recursive") || d.s == "recurse"
	if recursive {
		if len(ops) == 0 {
			ops = []field{literalField(".")}
		}
		keep := grepFilter(a)
		for _, op := range ops {
			if why := c.tree(op, true, keep); why != "" {
				return why
			}
		}
		if a.has("-l", "--files-with-matches", "-L", "--files-without-match") {
			c.out = &listing{roots: fieldTexts(ops), hidden: true, keep: keep}
		}
		return ""
	}
	for _, op := range ops {
		if why := c.read(op); why != "" {
			return why
		}
	}
	return ""
}

// rgTypes maps rg's common file types to the names they select, as rg
// defines them (sh selects .env).
var rgTypes = map[string][]string{
	"go": {"*.go"}, "py": {"*.py", "*.pyi"}, "python": {"*.py", "*.pyi"}, "js": {"*.js", "*.mjs", "*.cjs", "*.jsx"},
	"ts": {"*.ts", "*.tsx", "*.mts", "*.cts"}, "rust": {"*.rs"}, "java": {"*.java"}, "c": {"*.c", "*.h"},
	"cpp": {"*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.h"}, "md": {"*.md", "*.markdown"}, "markdown": {"*.md", "*.markdown"},
	"sh": {".env", "*.env", ".login", ".logout", ".profile", "profile", ".bash_login", "bash_login", ".bash_logout", "bash_logout",
		".bash_profile", "bash_profile", ".bashrc", "bashrc", "*.bashrc", ".cshrc", "*.cshrc", ".kshrc", "*.kshrc", ".tcshrc",
		".zshenv", "zshenv", ".zlogin", "zlogin", ".zlogout", "zlogout", ".zprofile", "zprofile", ".zshrc", "zshrc",
		"*.bash", "*.csh", "*.ksh", "*.sh", "*.tcsh", "*.zsh"},
	"ruby": {"*.rb"}, "json": {"*.json"}, "yaml": {"*.yaml", "*.yml"}, "toml": {"*.toml"},
	"html": {"*.html", "*.htm"}, "css": {"*.css"}, "sql": {"*.sql"}, "php": {"*.php"}, "swift": {"*.swift"}, "kotlin": {"*.kt", "*.kts"},
}

// rgFilter keeps what rg's -g/--glob/--iglob, -t and -T select. Globs
// with a slash match paths, which the filter does not model: those are
// left out, so the filter only ever keeps more.
func rgFilter(a *proofArgs) func(name string, dir bool) bool {
	var inc, exc []string
	globs := fieldTexts(a.values("-g", "--glob"))
	for _, g := range fieldTexts(a.values("--iglob")) {
		if strings.ContainsAny(g, "[]") {
			return nil // a class in a glob that ignores case: not modelled
		}
		globs = append(globs, caseless(g))
	}
	for _, g := range globs {
		neg := strings.HasPrefix(g, "!")
		g = strings.TrimPrefix(g, "!")
		if strings.Contains(g, "/") {
			if !neg {
				return nil
			}
			continue
		}
		if neg {
			exc = append(exc, g)
		} else {
			inc = append(inc, g)
		}
	}
	for _, t := range fieldTexts(a.values("-t", "--type")) {
		globs, ok := rgTypes[t]
		if !ok {
			return nil
		}
		inc = append(inc, globs...)
	}
	for _, t := range fieldTexts(a.values("-T", "--type-not")) {
		exc = append(exc, rgTypes[t]...)
	}
	if len(inc) == 0 && len(exc) == 0 {
		return nil
	}
	return func(name string, dir bool) bool {
		if dir {
			return !matchAny(exc, name)
		}
		return (len(inc) == 0 || matchAny(inc, name)) && !matchAny(exc, name)
	}
}

// caseless turns a glob into one that matches its letters in either
// case, as rg's --iglob does.
func caseless(g string) string {
	var b strings.Builder
	for _, r := range g {
		if lo, up := unicode.ToLower(r), unicode.ToUpper(r); lo != up {
			b.WriteString("[" + string(lo) + string(up) + "]")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// rgSelects reports whether rg's globs select files (a glob without "!"):
// those files are searched whether or not their names start with a dot.
func rgSelects(a *proofArgs) bool {
	for _, g := range fieldTexts(a.values("-g", "--glob", "--iglob")) {
		if !strings.HasPrefix(g, "!") {
			return true
		}
	}
	return false
}

func checkRg(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	a.ops = nil
	if a.has("--type-list") {
		return ""
	}
	files := a.has("--files")
	if !files && !a.has("-e", "--regexp", "-f", "--file") && len(ops) > 0 {
		ops = ops[1:]
	}
	u := 0
	for _, o := range a.opts {
		if o.name == "-u" || o.name == "--unrestricted" {
			u++
		}
	}
	// A file a glob or a type selects is searched even when it is hidden:
	// rg's selections are whitelists, matched before its hidden filter.
	hidden := u >= 2 || a.has("--hidden") || a.has("-t", "--type") || rgSelects(a)
	keep := rgFilter(a)
	if len(ops) == 0 {
		if c.p.stdin.present && !files {
			return "" // it searches what is piped in
		}
		ops = []field{literalField(".")}
	}
	if files {
		c.out = &listing{roots: fieldTexts(ops), hidden: hidden, keep: keep}
		return ""
	}
	for _, op := range ops {
		if why := c.tree(op, hidden, keep); why != "" {
			return why
		}
	}
	if a.has("-l", "--files-with-matches", "--files-without-match") {
		c.out = &listing{roots: fieldTexts(ops), hidden: hidden, keep: keep}
	}
	return ""
}

func checkAg(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	a.ops = nil
	if len(ops) > 0 {
		ops = ops[1:]
	}
	hidden := a.has("--hidden", "-u", "--unrestricted", "-a", "--all-types")
	var exc []string
	for _, g := range fieldTexts(a.values("--ignore", "--ignore-dir")) {
		if !strings.Contains(g, "/") {
			exc = append(exc, g)
		}
	}
	var keep func(string, bool) bool
	if len(exc) > 0 {
		keep = func(name string, dir bool) bool { return !matchAny(exc, name) }
	}
	if len(ops) == 0 {
		if c.p.stdin.present {
			return ""
		}
		ops = []field{literalField(".")}
	}
	for _, op := range ops {
		if why := c.tree(op, hidden, keep); why != "" {
			return why
		}
	}
	return ""
}

func checkAck(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	a.ops = nil
	if !a.has("-f") && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		if c.p.stdin.present {
			return ""
		}
		ops = []field{literalField(".")}
	}
	for _, op := range ops {
		if why := c.tree(op, true, nil); why != "" {
			return why
		}
	}
	return ""
}

func checkDiff(c *proofCtx, a *proofArgs) string {
	if !a.has("-r", "--recursive") {
		return ""
	}
	ops := a.ops
	a.ops = nil
	for _, op := range ops {
		if why := c.tree(op, true, nil); why != "" {
			return why
		}
	}
	return ""
}

func checkShuf(c *proofCtx, a *proofArgs) string {
	if a.has("-e", "--echo", "-i", "--input-range") {
		a.ops = nil // the operands are the lines, not files
	}
	return ""
}

// codeIdents lists the identifiers of program text outside its string
// literals (between double quotes) and, when slashRegex, its /regex/
// literals.
func codeIdents(text string, slashRegex bool) (idents []string, punct string) {
	var b strings.Builder
	operand := true // a / here starts a regex, not a division
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case ch == '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			operand = false
			continue
		case ch == '/' && slashRegex && operand:
			for i++; i < len(text) && text[i] != '/'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			operand = false
			continue
		case ch == '#' && slashRegex:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case ch == '_' || ch == '$' || ch == '@' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j := i + 1
			for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			idents = append(idents, text[i:j])
			i = j - 1
			operand = false
			continue
		case ch >= '0' && ch <= '9' || ch == ')' || ch == ']':
			operand = false
		case ch == ' ' || ch == '\t' || ch == '\n':
		default:
			operand = true
		}
		b.WriteByte(ch)
	}
	return idents, b.String()
}

func checkAwk(c *proofCtx, a *proofArgs) string {
	if len(a.ops) == 0 {
		return "awk without a program"
	}
	prog := a.ops[0]
	files := a.ops[1:]
	a.ops = nil
	if !prog.known() {
		return "its awk program is only known at run time"
	}
	idents, punct := codeIdents(prog.s, true)
	for _, id := range idents {
		switch id {
		case "system", "getline", "close", "fflush", "ENVIRON", "PROCINFO", "ARGV", "ARGC", "SYMTAB", "FUNCTAB":
			return "its awk program uses " + id + ", which is not on the list for awk"
		}
		if strings.HasPrefix(id, "@") {
			return "its awk program uses " + id
		}
	}
	if strings.Contains(strings.ReplaceAll(punct, "||", ""), "|") {
		return "its awk program pipes to or from a command"
	}
	if awkWriteRe().MatchString(stripParens(prog.s)) {
		return "its awk program writes to a file"
	}
	for _, f := range files {
		if n, _, ok := strings.Cut(f.s, "="); ok && isEnvName(n) && f.known() {
			continue // var=value: an assignment, not a file
		}
		if why := c.read(f); why != "" {
			return why
		}
	}
	return ""
}

func checkSed(c *proofCtx, a *proofArgs) string {
	scripts := fieldTexts(a.values("-e", "--expression"))
	files := a.ops
	if len(scripts) == 0 {
		if len(files) == 0 {
			return "sed without a script"
		}
		if !files[0].known() {
			return "its sed script is only known at run time"
		}
		scripts = []string{files[0].s}
		files = files[1:]
	}
	a.ops = nil
	for _, sc := range scripts {
		if strings.Contains(sc, unknownMark) {
			return "its sed script is only known at run time"
		}
		for _, e := range sedEffects(sc) {
			switch e.kind {
			case 'r':
				if why := c.read(literalField(e.arg)); why != "" {
					return "its sed script " + why
				}
			case 'e':
				return "its sed script runs commands"
			case 'w':
				return "its sed script writes " + display(e.arg)
			default:
				return "its sed script has a command pincer cannot read"
			}
		}
	}
	for _, f := range files {
		if why := c.read(f); why != "" {
			return why
		}
	}
	return ""
}

// jqCode reports what jq filter text may do beyond computing: read the
// environment (env, $ENV) or load modules and data files (import, include).
func jqCode(filter string) string {
	idents, _ := codeIdents(filter, false)
	for _, id := range idents {
		switch id {
		case "env", "$ENV", "import", "include", "modulemeta", "get_search_list", "input_filename", "$__prog_args":
			return "its jq filter uses " + id + ", which is not on the list for jq"
		}
	}
	return ""
}

func checkJq(c *proofCtx, a *proofArgs) string {
	e := c.p.w.sh.c.tables().safelist["jq"]
	args := a.ops
	a.ops = nil
	filter, seen, positional := "", false, false
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			if seen && positional {
				continue
			}
			return "an argument is only known at run time"
		}
		s := f.s
		switch {
		case positional && seen:
			continue
		case s == "--arg" || s == "--argjson":
			i += 2
		case s == "--slurpfile" || s == "--rawfile":
			if i+2 >= len(args) {
				return s + " lacks its name or file"
			}
			if why := c.read(args[i+2]); why != "" {
				return why
			}
			i += 2
		case s == "--args" || s == "--jsonargs":
			positional = true
		case s == "--indent":
			i++
		case s == "--":
			positional = positional || false
		case strings.HasPrefix(s, "--"):
			if o, ok := e.opts.long[s]; !ok || o.takes {
				return "the option " + display(s) + " of jq is not on its list"
			}
		case strings.HasPrefix(s, "-") && len(s) > 1:
			for j := 1; j < len(s); j++ {
				if o, ok := e.opts.short[s[j]]; !ok || o.takes {
					return "the option -" + s[j:j+1] + " of jq is not on its list"
				}
			}
		case !seen:
			filter, seen = s, true
		default:
			if why := c.read(f); why != "" {
				return why
			}
		}
	}
	return jqCode(filter)
}

func checkYq(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	a.ops = nil
	if len(ops) > 0 {
		switch ops[0].s {
		case "e", "eval", "ea", "eval-all":
			ops = ops[1:]
		}
	}
	if len(ops) == 0 {
		return ""
	}
	if !ops[0].known() {
		return "its yq expression is only known at run time"
	}
	idents, _ := codeIdents(ops[0].s, false)
	for _, id := range idents {
		switch {
		case id == "env", id == "strenv", id == "envsubst", strings.HasPrefix(id, "load"):
			return "its yq expression uses " + id + ", which is not on the list for yq"
		}
	}
	for _, f := range ops[1:] {
		if why := c.read(f); why != "" {
			return why
		}
	}
	return ""
}

func checkLess(c *proofCtx, a *proofArgs) string {
	for _, o := range a.opts {
		if o.name != "+" {
			continue
		}
		v := o.val.s
		switch {
		case v == "F" || v == "G" || v == "g" || isDigits(v) || isDigits(strings.TrimSuffix(v, "g")):
		case strings.HasPrefix(v, "/") || strings.HasPrefix(v, "?"):
		default:
			return "+" + display(v) + " runs a command of the pager"
		}
	}
	return ""
}

func checkDecompress(c *proofCtx, a *proofArgs) string {
	if a.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test") {
		return ""
	}
	if len(a.ops) == 0 {
		return "" // a filter from its input to its output
	}
	return "writes the compressed or decompressed files"
}

func checkTar(c *proofCtx, a *proofArgs) string {
	e := c.p.w.sh.c.tables().safelist["tar"]
	args := a.ops
	a.ops = nil
	list, force := false, false
	var archives []field
	var pendingF int
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			return "an argument is only known at run time"
		}
		s := f.s
		switch {
		case pendingF > 0:
			archives = append(archives, f)
			pendingF--
		case i == 0 && !strings.HasPrefix(s, "-") && s != "" && strings.Trim(s, "tvzjJaf") == "":
			// Old style: the first word is a cluster of letters.
			list = strings.ContainsRune(s, 't')
			pendingF = strings.Count(s, "f")
		case strings.HasPrefix(s, "--"):
			n, v, hasEq := strings.Cut(s, "=")
			o, ok := e.opts.long[n]
			if !ok {
				return "the option " + display(n) + " of tar is not on its list"
			}
			switch n {
			case "--list":
				list = true
			case "--force-local":
				force = true
			case "--file":
				if hasEq {
					archives = append(archives, field{s: v})
				} else {
					pendingF++
				}
				continue
			}
			if o.takes && !hasEq && !o.optional {
				i++
			}
		case strings.HasPrefix(s, "-") && len(s) > 1:
			for j := 1; j < len(s); j++ {
				if _, ok := e.opts.short[s[j]]; !ok {
					return "the option -" + s[j:j+1] + " of tar is not on its list"
				}
				switch s[j] {
				case 't':
					list = true
				case 'f':
					if j+1 < len(s) {
						archives = append(archives, field{s: s[j+1:]})
						j = len(s)
					} else {
						pendingF++
					}
				}
			}
		}
	}
	if !list {
		return "tar does more than list (only -t is on the list)"
	}
	if len(archives) == 0 {
		return "tar without -f reads its default archive, a tape device"
	}
	for _, ar := range archives {
		if strings.Contains(ar.s, ":") && !force {
			return "tar reads " + display(ar.s) + " from another machine (host:file) unless --force-local is given"
		}
		if why := c.read(ar); why != "" {
			return why
		}
	}
	return ""
}

func checkUnzip(c *proofCtx, a *proofArgs) string {
	if !a.has("-l", "-v", "-t", "-Z", "-p", "-z") {
		return "unzip extracts files (only -l, -v, -t, -Z, -p and -z are on the list)"
	}
	if len(a.ops) > 1 {
		a.ops = a.ops[:1] // the members to show are names inside the archive
	}
	return ""
}

func checkGofmt(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	a.ops = nil
	goOnly := func(name string, dir bool) bool { return dir || strings.HasSuffix(name, ".go") }
	for _, op := range ops {
		if why := c.tree(op, false, goOnly); why != "" {
			return why
		}
	}
	return ""
}

func checkPrintf(c *proofCtx, a *proofArgs) string {
	args := a.ops
	a.ops = nil
	if len(args) > 0 && args[0].s == "-v" {
		if len(args) < 2 || !args[1].known() || !isEnvName(args[1].s) {
			return "printf -v assigns a variable whose name is not written out plainly"
		}
		return ""
	}
	return ""
}

func checkDate(c *proofCtx, a *proofArgs) string {
	for _, op := range a.ops {
		if !strings.HasPrefix(op.s, "+") {
			return "date " + display(op.s) + " sets the clock"
		}
	}
	a.ops = nil
	return ""
}

func checkMan(c *proofCtx, a *proofArgs) string {
	for _, op := range a.ops {
		if strings.ContainsAny(op.s, `/\`) {
			return "man " + display(op.s) + " formats a file of the project as a manual page"
		}
	}
	return ""
}

// psFormatKeys are the columns ps may show: none of them is a process's
// environment.
var psFormatKeys = map[string]bool{
	"pid": true, "ppid": true, "pgid": true, "pgrp": true, "sid": true, "sess": true, "tty": true, "tt": true, "tname": true,
	"user": true, "uid": true, "euid": true, "ruid": true, "euser": true, "ruser": true, "uname": true, "gid": true, "egid": true,
	"group": true, "egroup": true, "comm": true, "cmd": true, "args": true, "command": true, "ucmd": true, "ucomm": true,
	"%cpu": true, "pcpu": true, "%mem": true, "pmem": true, "rss": true, "rssize": true, "vsz": true, "vsize": true,
	"stat": true, "state": true, "s": true, "etime": true, "etimes": true, "time": true, "cputime": true, "start": true,
	"lstart": true, "start_time": true, "stime": true, "bsdstart": true, "bsdtime": true, "nice": true, "ni": true,
	"pri": true, "priority": true, "psr": true, "nlwp": true, "lwp": true, "tid": true, "thcount": true, "wchan": true,
	"f": true, "flags": true, "c": true, "class": true, "cls": true, "rtprio": true, "label": true, "sz": true,
	"cls,": true, "majflt": true, "minflt": true, "policy": true, "wq": true, "jobc": true, "logname": true,
}

func psFormat(v string) string {
	for _, col := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, _, _ := strings.Cut(col, "=")
		k, _, _ = strings.Cut(k, ":")
		if !psFormatKeys[strings.ToLower(k)] {
			return "ps -o " + display(k) + " is not a column on the list"
		}
	}
	return ""
}

func checkPs(c *proofCtx, a *proofArgs) string {
	args := a.ops
	a.ops = nil
	const unixFlags = "AadefFHjlLMNcTwxyZmrSv"
	const unixValued = "CGgopqstUu"
	const bsdFlags = "aAuxwfjlsvrcmhTSZLMH"
	const bsdValued = "oOptUgq"
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			return "an argument is only known at run time"
		}
		s := f.s
		switch {
		case strings.HasPrefix(s, "--"):
			n, v, hasEq := strings.Cut(s, "=")
			switch n {
			case "--forest", "--no-headers", "--headers", "--cumulative", "--deselect", "--info", "--help", "--version":
			case "--format", "--sort", "--cols", "--columns", "--lines", "--rows", "--width", "--pid", "--ppid", "--user", "--User",
				"--group", "--Group", "--tty", "--sid", "--quick-pid":
				if !hasEq {
					if i+1 >= len(args) {
						return n + " lacks its value"
					}
					i++
					v = args[i].s
				}
				if n == "--format" {
					if why := psFormat(v); why != "" {
						return why
					}
				}
			default:
				return "the option " + display(n) + " of ps is not on its list"
			}
		case strings.HasPrefix(s, "-") && len(s) > 1:
			for j := 1; j < len(s); j++ {
				ch := s[j]
				if strings.IndexByte(unixValued, ch) >= 0 {
					v := s[j+1:]
					if v == "" {
						if i+1 >= len(args) {
							return "-" + string(ch) + " lacks its value"
						}
						i++
						v = args[i].s
					}
					if ch == 'o' || ch == 'O' {
						if why := psFormat(v); why != "" {
							return why
						}
					}
					break
				}
				if strings.IndexByte(unixFlags, ch) < 0 {
					return "the option -" + string(ch) + " of ps is not on its list (-E and e show processes' environments)"
				}
			}
		case isDigits(s):
		default:
			// BSD style: a cluster without a dash. e shows environments.
			take := 0
			for j := 0; j < len(s); j++ {
				ch := s[j]
				switch {
				case strings.IndexByte(bsdValued, ch) >= 0:
					take++
				case strings.IndexByte(bsdFlags, ch) < 0:
					return "ps " + display(s) + ": " + string(ch) + " is not on the list (e shows processes' environments)"
				}
			}
			for ; take > 0 && i+1 < len(args); take-- {
				i++
				if strings.ContainsAny(s, "oO") {
					if why := psFormat(args[i].s); why != "" {
						return why
					}
				}
			}
		}
	}
	return ""
}

func checkTop(c *proofCtx, a *proofArgs) string { return "" }

func checkIP(c *proofCtx, a *proofArgs) string {
	args := a.ops
	a.ops = nil
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		switch strings.TrimLeft(args[i].s, "-") {
		case "4", "6", "br", "brief", "c", "color", "d", "details", "s", "stats", "statistics", "j", "json", "p", "pretty",
			"o", "oneline", "h", "human", "human-readable", "N", "numeric":
		default:
			return "the option " + display(args[i].s) + " of ip is not on its list"
		}
		i++
	}
	if i >= len(args) {
		return "ip without an object"
	}
	switch args[i].s {
	case "a", "addr", "address", "l", "link", "r", "ro", "route", "n", "neigh", "neighbour", "neighbor", "ru", "rule", "maddr", "maddress", "netns", "tunnel":
	default:
		return "ip " + display(args[i].s) + " is not on the list"
	}
	i++
	if i < len(args) {
		switch args[i].s {
		case "show", "sh", "list", "ls", "lst", "get":
		default:
			if args[i].s != "dev" && !strings.HasPrefix(args[i].s, "-") {
				return "ip … " + display(args[i].s) + " changes network settings"
			}
		}
	}
	for _, f := range args[i:] {
		if !f.known() {
			return "an argument is only known at run time"
		}
	}
	return ""
}

func checkGetent(c *proofCtx, a *proofArgs) string {
	if len(a.ops) == 0 {
		return "getent without a database"
	}
	switch a.ops[0].s {
	case "passwd", "group", "services", "protocols", "networks", "ethers", "rpc", "netgroup", "initgroups":
		return ""
	}
	return "getent " + display(a.ops[0].s) + " is not on the list"
}

// readableEnv lists the environment variables a proven command may show:
// where things are, who and what the machine is, and how output looks.
// Any other variable may hold a secret (a token, a password).
func readableEnv(name string) bool {
	switch name {
	case "HOME", "PWD", "OLDPWD", "USER", "LOGNAME", "SHELL", "PATH", "LANG", "LANGUAGE", "TZ", "TERM", "COLORTERM",
		"COLUMNS", "LINES", "TMPDIR", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "UID", "EUID", "PPID", "BASHPID",
		"BASH_VERSION", "BASH_VERSINFO", "BASH", "SHLVL", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "EPOCHSECONDS",
		"EPOCHREALTIME", "GOPATH", "GOROOT", "GOBIN", "GOOS", "GOARCH", "CARGO_HOME", "RUSTUP_HOME", "NVM_DIR",
		"PYENV_ROOT", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "JAVA_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
		"XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "EDITOR", "VISUAL", "PAGER", "DISPLAY", "CI", "IFS",
		"PS1", "PS2", "PS4", "OPTARG", "OPTIND", "OPTERR", "REPLY", "PIPESTATUS", "FUNCNAME", "BASH_SOURCE",
		"BASH_LINENO", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "GROUPS", "DIRSTACK", "HISTFILE", "MAIL", "BASH_REMATCH":
		return true
	}
	return strings.HasPrefix(name, "LC_")
}

func checkPrintenv(c *proofCtx, a *proofArgs) string {
	if len(a.ops) == 0 {
		return "prints every environment variable"
	}
	for _, op := range a.ops {
		if !readableEnv(op.s) {
			return "prints " + display(op.s) + ", which may hold a secret"
		}
	}
	a.ops = nil
	return ""
}

func openssl() map[string]*entry {
	return map[string]*entry{
		"version": singleSpec("openssl version", "prints openssl's version", "-a -v -b -o -f -p -d -e -c -r", argNone).max(0),
		"rand":    singleSpec("openssl rand", "prints random bytes", "-hex -base64", argLit).max(1),
		"x509": singleSpec("openssl x509", "prints a certificate's facts", "-in=r -inform= -noout -text -fingerprint -sha1 -sha256 -md5 -subject -issuer "+
			"-dates -startdate -enddate -serial -pubkey -modulus -purpose -ext= -nameopt= -certopt= -email -ocsp_uri -hash "+
			"-subject_hash -issuer_hash -checkend= -alias -nocert", argNone).max(0),
		"dgst":    singleSpec("openssl dgst", "prints digests", "-sha1 -sha256 -sha384 -sha512 -sha224 -md5 -sha3-256 -r -hex -binary -c", argRead),
		"ciphers": singleSpec("openssl ciphers", "lists ciphers", "-v -V -s -tls1_2 -tls1_3 -stdname", argLit),
		"list":    singleSpec("openssl list", "lists algorithms", "-1 -commands -digest-commands -cipher-commands -digest-algorithms -cipher-algorithms -public-key-algorithms", argNone).max(0),
	}
}

func checkSSHKeygen(c *proofCtx, a *proofArgs) string {
	if !a.has("-l") {
		return "ssh-keygen does more than print a fingerprint (only -l is on the list)"
	}
	if !a.has("-f") {
		return "ssh-keygen -l without -f asks for a file"
	}
	return ""
}

func checkTest(c *proofCtx, a *proofArgs) string {
	for i, op := range a.ops {
		if (op.s == "-v" || op.s == "-R") && i+1 < len(a.ops) {
			if n := a.ops[i+1]; !n.known() || !isEnvName(n.s) {
				return "test -v with a name that is not written out plainly"
			}
		}
	}
	a.ops = nil
	return ""
}

// setOptions are the shell options set -o may turn on: none makes the
// shell run, read or write anything (history would write the history
// file; onecmd and the editing modes are for terminals).
var setOptions = map[string]bool{
	"errexit": true, "nounset": true, "pipefail": true, "xtrace": true, "verbose": true, "noglob": true,
	"noclobber": true, "errtrace": true, "functrace": true, "posix": true, "braceexpand": true, "hashall": true,
	"physical": true, "allexport": true, "ignoreeof": true, "keyword": true, "monitor": true, "noexec": true,
	"notify": true, "privileged": true, "histexpand": false,
}

func checkSet(c *proofCtx, a *proofArgs) string {
	args := a.ops
	a.ops = nil
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if !args[i].known() {
			return "sets options only known at run time"
		}
		switch {
		case s == "--" || s == "-":
			return ""
		case len(s) > 1 && (s[0] == '-' || s[0] == '+'):
			if strings.Trim(s[1:], "abefhkmnoptuvxBCEHPT") != "" {
				return "set " + display(s) + " is not on the list"
			}
			for range strings.Count(s, "o") {
				if i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "-") && !strings.HasPrefix(args[i+1].s, "+") {
					i++
					if !setOptions[args[i].s] {
						return "set -o " + display(args[i].s) + " is not on the list"
					}
				}
			}
		default:
			return "" // the rest are positional parameters
		}
	}
	return ""
}

// shoptOptions are the shell options shopt may set: none changes what a
// glob matches beyond what the classifier expands (dotglob, globstar and
// nocaseglob do), nor runs anything.
var shoptOptions = map[string]bool{
	"extglob": true, "nullglob": true, "failglob": true, "nocasematch": true, "globasciiranges": true, "lastpipe": true,
	"inherit_errexit": true, "checkwinsize": true, "xpg_echo": true, "cmdhist": true, "lithist": true,
	"shift_verbose": true, "huponexit": true, "checkjobs": true,
}

func checkShopt(c *proofCtx, a *proofArgs) string {
	o := a.has("-o")
	if !a.has("-s", "-u") {
		return "" // prints options
	}
	for _, op := range a.ops {
		if (o && !setOptions[op.s]) || (!o && !shoptOptions[op.s]) {
			return "shopt " + display(op.s) + " is not on the list"
		}
	}
	a.ops = nil
	return ""
}

// checkNames proves the operands (and the values of opts) are plain
// variable names: a subscript in a name is evaluated as arithmetic.
func checkNames(opts ...string) func(c *proofCtx, a *proofArgs) string {
	return func(c *proofCtx, a *proofArgs) string {
		names := append([]field(nil), a.ops...)
		names = append(names, a.values(opts...)...)
		for _, n := range names {
			if !n.known() || !isEnvName(n.s) {
				return display(strings.ReplaceAll(n.s, unknownMark, "…")) + " is not a plain variable name"
			}
		}
		a.ops = nil
		return ""
	}
}

func checkAliasPrint(c *proofCtx, a *proofArgs) string {
	for _, op := range a.ops {
		if strings.Contains(op.s, "=") || !op.known() {
			return "defines an alias, whose text runs when the name is used"
		}
	}
	return ""
}

func checkFc(c *proofCtx, a *proofArgs) string {
	if !a.has("-l") {
		return "fc without -l edits and runs earlier commands"
	}
	return ""
}

func checkTrap(c *proofCtx, a *proofArgs) string {
	switch {
	case len(a.ops) == 0, a.has("-p"):
		return "" // prints the handlers
	case a.ops[0].s == "-" && a.ops[0].known():
		return "" // resets them
	}
	return "sets a command to run when a signal comes"
}

func checkLet(c *proofCtx, a *proofArgs) string {
	for _, op := range a.ops {
		if !op.known() {
			return "evaluates text only known at run time as arithmetic"
		}
		if why := c.p.w.arithTextWhy(op.s); why != "" {
			return why
		}
	}
	a.ops = nil
	return ""
}

func checkDeclareCmd(c *proofCtx, a *proofArgs) string {
	var flags string
	for _, o := range a.opts {
		flags += strings.TrimLeft(o.name, "-+")
	}
	var items []declItem
	for _, op := range a.ops {
		if !op.known() {
			return "declares a variable whose name or value is only known at run time"
		}
		n, v, has := strings.Cut(op.s, "=")
		items = append(items, declItem{name: n, value: v, hasValue: has, known: true, valueKnown: true, text: true})
	}
	a.ops = nil
	return c.p.w.declWhy(flags, items)
}

func checkCommand(c *proofCtx, a *proofArgs) string {
	if a.has("-v", "-V") {
		a.ops = nil
		return ""
	}
	if len(a.ops) == 0 {
		return "command without a command"
	}
	a.rest, a.ops = a.ops, nil
	return ""
}

func checkEnv(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	a.ops = nil
	for len(ops) > 0 && strings.Contains(ops[0].s, "=") {
		n, v, _ := strings.Cut(ops[0].s, "=")
		if !isEnvName(n) {
			break
		}
		c.env = append(c.env, envSetting{name: n, value: v, known: ops[0].known()})
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return "prints every environment variable"
	}
	a.rest = ops
	return ""
}

func checkWatch(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	a.ops = nil
	if len(ops) == 0 {
		return "watch without a command"
	}
	if a.has("-x", "--exec") {
		a.rest = ops
		return ""
	}
	for _, op := range ops {
		if op.dynamic() {
			return "runs shell text only known at run time"
		}
	}
	return "" // the text is a script the classifier reads on its own
}

func checkXargs(c *proofCtx, a *proofArgs) string {
	cmd := a.ops
	a.ops = nil
	repl := ""
	if v, ok := a.value("-I"); ok {
		repl = v.s
	} else if a.has("--replace") {
		repl = "{}"
	}
	if len(cmd) == 0 {
		cmd = []field{literalField("echo")}
	}
	item := field{s: unknownMark, item: true}
	var known []string
	if in := c.p.stdin; in.exact && !strings.Contains(in.literal, unknownMark) {
		if repl != "" {
			known = strings.Split(strings.TrimRight(in.literal, "\n"), "\n")
		} else {
			known = strings.Fields(in.literal)
		}
		if len(known) == 0 {
			known = []string{""}
		}
	}
	c.items = &itemSource{list: c.p.stdin.list}
	build := func(it *string) []field {
		var argv []field
		for _, f := range cmd {
			if repl != "" && strings.Contains(f.s, repl) {
				if it == nil {
					argv = append(argv, item)
				} else {
					argv = append(argv, field{s: strings.ReplaceAll(f.s, repl, *it)})
				}
				continue
			}
			argv = append(argv, f)
		}
		if repl == "" {
			if it == nil {
				argv = append(argv, item)
			} else {
				for _, w := range strings.Fields(*it) {
					argv = append(argv, field{s: w})
				}
			}
		}
		return argv
	}
	if known == nil {
		a.rest = build(nil)
		return ""
	}
	if repl == "" {
		all := strings.Join(known, " ")
		a.rest = build(&all)
		return ""
	}
	for i, it := range known {
		if i == 4 {
			break
		}
		if i == len(known)-1 || i == 3 {
			a.rest = build(&it)
			return ""
		}
		if _, fail := c.wrapped(build(&it)); fail != nil {
			return fail.why
		}
	}
	return ""
}

func checkShell(c *proofCtx, a *proofArgs) string {
	for _, o := range a.opts {
		switch o.name {
		case "-o", "+o":
			if !setOptions[o.val.s] {
				return "sets the shell option " + display(o.val.s) + ", which is not on the list"
			}
		case "-O", "+O":
			if !shoptOptions[o.val.s] {
				return "sets the shell option " + display(o.val.s) + ", which is not on the list"
			}
		}
	}
	ops := a.ops
	a.ops = nil
	if a.has("-c") {
		if len(ops) == 0 {
			return "-c without a script"
		}
		if ops[0].dynamic() {
			return "runs shell text only known at run time"
		}
		return "" // the script is read as commands of its own
	}
	if len(ops) > 0 {
		return "runs the script file " + display(ops[0].s) + ", which pincer does not read"
	}
	if in := c.p.stdin; in.exact && !strings.Contains(in.literal, unknownMark) {
		return "" // the script written out in the command, read as commands of its own
	}
	return "reads its commands from its input"
}

// checkFind proves find's expression: tests that only look at names and
// metadata, actions that print, and -exec of a proven command given the
// files found.
func checkFind(c *proofCtx, a *proofArgs) string {
	args := a.ops
	a.ops = nil
	i := 0
	for i < len(args) {
		s := args[i].s
		if s == "-H" || s == "-L" || s == "-P" || strings.HasPrefix(s, "-O") {
			i++
			continue
		}
		break
	}
	var roots []string
	known := true
	for i < len(args) && !strings.HasPrefix(args[i].s, "-") && args[i].s != "(" && args[i].s != "!" && args[i].s != "," {
		if !args[i].known() {
			known = false
		}
		roots = append(roots, args[i].s)
		i++
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	simple := true // only -a joins the tests: -name then filters every match
	var names, inames []string
	plain := true // prints plain names (no -printf, -ls, -exec)
	var execs [][]field
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if !f.known() && !f.glob {
			return "an argument is only known at run time"
		}
		arg := func() (field, string) {
			if i+1 >= len(args) {
				return field{}, s + " lacks its value"
			}
			i++
			return args[i], ""
		}
		switch s {
		case "(", ")", "!", "-not", "-o", "-or", ",":
			simple = false
		case "-a", "-and":
		case "-empty", "-executable", "-readable", "-writable", "-nouser", "-nogroup", "-true", "-false", "-prune", "-quit",
			"-print", "-print0", "-depth", "-d", "-mount", "-xdev", "-follow", "-daystart", "-ignore_readdir_race",
			"-noignore_readdir_race", "-noleaf", "-warn", "-nowarn":
		case "-ls":
			plain = false
		case "-name", "-iname":
			v, why := arg()
			if why != "" {
				return why
			}
			if s == "-name" {
				names = append(names, v.s)
			} else {
				inames = append(inames, strings.ToLower(v.s))
			}
		case "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-type", "-xtype",
			"-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer", "-cnewer", "-perm",
			"-user", "-group", "-uid", "-gid", "-links", "-inum", "-samefile", "-maxdepth", "-mindepth", "-fstype", "-used",
			"-regextype", "-context":
			if _, why := arg(); why != "" {
				return why
			}
		case "-printf":
			if _, why := arg(); why != "" {
				return why
			}
			plain = false
		case "-exec", "-execdir":
			j := i + 1
			for j < len(args) && args[j].s != ";" && args[j].s != "+" {
				j++
			}
			if j >= len(args) || j == i+1 {
				return s + " without a command ending in ; or +"
			}
			cmd := make([]field, 0, j-i-1)
			for _, w := range args[i+1 : j] {
				if strings.Contains(w.s, "{}") {
					w = field{s: unknownMark, item: true}
				}
				cmd = append(cmd, w)
			}
			if s == "-execdir" {
				cmd = append([]field{{s: "-execdir"}}, cmd...)
			}
			execs = append(execs, cmd)
			plain = false
			i = j
		default:
			if strings.HasPrefix(s, "-newer") && len(s) == 8 {
				if _, why := arg(); why != "" {
					return why
				}
				continue
			}
			return "find " + display(s) + " is not on the list"
		}
	}
	var keep func(string, bool) bool
	if simple && (len(names) > 0 || len(inames) > 0) {
		keep = func(name string, dir bool) bool {
			if dir {
				return true
			}
			for _, n := range names {
				if m, _ := path.Match(n, name); !m {
					return false
				}
			}
			for _, n := range inames {
				if m, _ := path.Match(n, strings.ToLower(name)); !m {
					return false
				}
			}
			return true
		}
	}
	list := &listing{roots: roots, hidden: true, keep: keep}
	if !known {
		list = nil
	}
	if len(execs) > 0 {
		// A name the files must have that names a secret, or could: the
		// command run on them reads it whether or not it is there now.
		for _, n := range append(append([]string(nil), names...), inames...) {
			if secretLoc(placePath(n, "")) != "" || couldMatchSecret(n, false) != "" {
				return "runs a command on the files named " + display(n) + ", which could be a secret"
			}
		}
	}
	for _, cmd := range execs {
		saved, cwd := c.items, c.p.w.cwd
		c.items = &itemSource{list: list}
		if cmd[0].s == "-execdir" {
			cmd = cmd[1:]
			c.p.w.cwd = "?" // it runs in the directory of each match
		}
		_, fail := c.wrapped(cmd)
		c.items, c.p.w.cwd = saved, cwd
		if fail != nil {
			return fail.why
		}
	}
	if plain && list != nil {
		c.out = list
	}
	return ""
}

func checkFd(c *proofCtx, a *proofArgs) string {
	ops := a.ops
	a.ops = nil
	if len(ops) > 0 {
		ops = ops[1:] // the pattern
	}
	if a.has("--base-directory") {
		return ""
	}
	roots := fieldTexts(ops)
	if len(roots) == 0 {
		roots = []string{"."}
	}
	hidden := a.has("-H", "--hidden", "-u", "--unrestricted")
	for _, op := range ops {
		if !op.known() {
			return ""
		}
	}
	c.out = &listing{roots: roots, hidden: hidden}
	return ""
}

func checkTee(c *proofCtx, a *proofArgs) string {
	for _, op := range a.ops {
		if l := c.p.w.resolve(op.s); !op.known() || !ownStream(l.path) || l.path == "/dev/stdin" {
			return "tee writes " + display(op.s) + " (only /dev/null and the command's own output are on the list)"
		}
	}
	a.ops = nil
	return ""
}

func checkSevenZip(c *proofCtx, a *proofArgs) string {
	if len(a.ops) == 0 || a.ops[0].s != "l" {
		return "7z does more than list (only 7z l is on the list)"
	}
	if len(a.ops) < 2 {
		return "7z l without an archive"
	}
	if why := c.read(a.ops[1]); why != "" {
		return why
	}
	a.ops = nil
	return ""
}

func checkUudecode(c *proofCtx, a *proofArgs) string {
	if a.has("-p", "-c") {
		return ""
	}
	o, ok := a.value("-o", "--output-file")
	if !ok {
		return "uudecode writes the file named inside its input"
	}
	if l := c.p.w.resolve(o.s); !ownStream(l.path) {
		return "uudecode writes " + display(o.s)
	}
	return ""
}

func checkMktemp(c *proofCtx, a *proofArgs) string {
	if !a.has("-u", "--dry-run") {
		return "mktemp makes the file (only -u, which prints a name, is on the list)"
	}
	return ""
}

func checkKillList(c *proofCtx, a *proofArgs) string {
	if !a.has("-l", "-L", "--list", "--table") {
		return "kill sends signals (only -l and -L, which list them, are on the list)"
	}
	return ""
}

func checkSysctl(c *proofCtx, a *proofArgs) string {
	for _, op := range a.ops {
		if strings.Contains(op.s, "=") {
			return "sysctl " + display(op.s) + " changes a kernel setting"
		}
	}
	return ""
}

func checkAptCache(c *proofCtx, a *proofArgs) string {
	if len(a.ops) == 0 {
		return "apt-cache without a command"
	}
	switch a.ops[0].s {
	case "search", "show", "showpkg", "showsrc", "policy", "depends", "rdepends", "madison", "pkgnames", "stats", "dump", "dumpavail", "unmet":
		return ""
	}
	return "apt-cache " + display(a.ops[0].s) + " is not on the list"
}
