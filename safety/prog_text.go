package safety

import (
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
)

// hReadOnly is for programs that only read their operands and print.
func hReadOnly(p *part, name string, args []field) {
	p.readsFiles(getopt(args, optSpec{}).operands)
}

// hPlain is for programs that only print facts about the system.
func hPlain(p *part, name string, args []field) {}

// hCat prints its files, or what it reads when it has none: then the
// pipe's content flows through unchanged.
func hCat(p *part, name string, args []field) {
	ops := getopt(args, optSpec{}).operands
	p.readsFiles(ops)
	if len(ops) == 0 || (len(ops) == 1 && ops[0].s == "-") {
		p.out = p.stdin
		return
	}
	for _, o := range ops {
		p.out.taint |= o.taint
		if p.w.sh.downloaded[p.w.resolve(o.s).path] {
			p.out.taint |= taintDownload
		}
	}
	p.out.present = true
}

// hTransform is for filters whose output is their input rewritten (tr,
// rev, base64 -d): text piped from them into a shell is hidden from the user.
func hTransform(p *part, name string, args []field) {
	p.readsFiles(getopt(args, optSpec{}).operands)
	p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
}
func hEcho(p *part, name string, args []field) {
	i := 0
	escapes := false
	for i < len(args) && len(args[i].s) > 1 && args[i].s[0] == '-' && strings.Trim(args[i].s[1:], "neE") == "" {
		if strings.Contains(args[i].s, "e") {
			escapes = true
		}
		i++
	}
	text := joinFields(args[i:])
	if escapes {
		if s, _, err := expand.Format(nil, "%b", []string{text}); err == nil {
			text = s
		}
	}
	p.out = stream{literal: text + "\n", exact: !anyUnknown(args), present: true, taint: fieldsTaint(args)}
	p.secretVars()
}
func hPrintf(p *part, name string, args []field) {
	if len(args) > 1 && args[0].s == "-v" {
		p.evalName(args[1].s) // assigns a variable, prints nothing
		return
	}
	if len(args) > 0 && args[0].s == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	out := stream{present: true, taint: fieldsTaint(args)}
	if !anyUnknown(args) {
		if s, _, err := expand.Format(nil, args[0].s, words(args[1:])); err == nil {
			out.literal, out.exact = s, true
		}
	}
	p.out = out
	p.secretVars()
}

// secretVars raises when a printing command expands a variable named like
// a secret; the output would land in the transcript. The names are gone
// from the fields, so the command's text is read.
func (p *part) secretVars() {
	found := false
	if p.parsed {
		// Only the command's own words: reading the whole text would read
		// every nested substitution again at every level.
		for _, name := range p.params {
			found = found || secretNameRe().MatchString(name)
		}
	} else {
		found = secretVarRe().MatchString(p.text)
	}
	if found {
		p.raise(Confirm, "prints a variable that looks like a secret")
	}
}

// SecretVarName reports whether an environment variable's name looks
// like it holds a secret (a token, a password, an API or private key, a
// credential): commands that run without asking do not get those.
func SecretVarName(name string) bool { return secretNameRe().MatchString(name) }

var (
	secretVarRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\$\{?[A-Za-z_]*(?i:token|secret|passw|api_?key|private_?key|credential)[A-Za-z_0-9]*`)
	})
	secretNameRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)token|secret|passw|api_?key|private_?key|credential`)
	})
)

func hEnvPrint(p *part, name string, args []field) {
	if len(getopt(args, optSpec{}).operands) == 0 {
		p.raise(Confirm, "prints every environment variable, which often hold secrets")
		return
	}
	for _, a := range args {
		if secretVarRe().MatchString("$" + a.s) {
			p.raise(Confirm, "prints a variable that looks like a secret")
		}
	}
}
func hSort(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "oTSkt", longArg: []string{"output", "temporary-directory", "buffer-size", "key", "field-separator", "compress-program", "files0-from", "parallel", "random-source", "batch-size"}})
	if o, ok := ps.value("o", 3, "output"); ok {
		p.writes([]field{{s: o}})
	}
	if _, ok := ps.value("", 3, "compress-program"); ok {
		p.raise(Confirm, "runs a compression program")
	}
	p.readsFiles(ps.operands)
}
func hUniq(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "fsw", longArg: []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"}})
	if len(ps.operands) > 1 {
		p.writes(ps.operands[1:2])
	}
	p.readsFiles(ps.operands[:min(1, len(ps.operands))])
}
func hXxd(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "cgloOns", longArg: []string{"cols", "groupsize", "len", "seek", "offset", "name"}})
	if len(ps.operands) > 1 {
		p.writes(ps.operands[1:2])
	}
	p.readsFiles(ps.operands[:min(1, len(ps.operands))])
	if ps.has("r", 0, "revert") {
		p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
	}
}
func hBase64(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "wbio", longArg: []string{"wrap", "break", "input", "output"}})
	if o, ok := ps.value("o", 3, "output"); ok {
		p.writes([]field{{s: o}})
	}
	p.readsFiles(ps.operands)
	p.out = stream{present: true, taint: p.stdin.taint}
	if ps.has("dD", 3, "decode") {
		p.out.taint |= taintDecoded
	}
}
func hGrep(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "efmABCdDX", longArg: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "devices", "directories", "label", "include", "exclude", "exclude-dir", "exclude-from", "binary-files", "color", "colour", "group-separator"}})
	ops := ps.operands
	if !ps.has("ef", 3, "regexp", "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	p.readsFiles(ops)
}
func hRg(p *part, name string, args []field) {
	ps := getopt(args, optSpec{
		shortArg: "efgmABCEjMrtTd",
		longArg: []string{"regexp", "file", "glob", "iglob", "max-count", "after-context", "before-context", "context",
			"encoding", "threads", "max-columns", "replace", "type", "type-not", "max-depth", "pre", "pre-glob",
			"ignore-file", "type-add", "colors", "sort", "sortr", "path-separator", "context-separator", "field-match-separator",
			"max-filesize", "dfa-size-limit", "regex-size-limit", "engine", "hostname-bin", "hyperlink-format", "field-context-separator"},
	})
	if pre, ok := ps.value("", 3, "pre"); ok && pre != "" {
		p.raise(Confirm, "runs "+display(pre)+" on every file it searches")
		p.nestedCommand(field{s: pre}, scriptOpts{bulk: true})
	}
	if hb, ok := ps.value("", 3, "hostname-bin"); ok && hb != "" {
		p.raise(Confirm, "runs "+display(hb))
	}
	ops := ps.operands
	if !ps.has("ef", 3, "regexp", "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	p.readsFiles(ops)
}
func hAck(p *part, name string, args []field) {
	for _, a := range args {
		if strings.HasPrefix(a.s, "--pager") {
			p.raise(Confirm, "runs a pager program")
		}
	}
}
func hPager(p *part, name string, args []field) {
	for _, a := range args {
		if strings.HasPrefix(a.s, "+") && strings.ContainsAny(a.s, "!|") {
			p.raise(Confirm, "runs a command through the pager")
			if _, cmd, ok := strings.Cut(a.s, "!"); ok {
				p.nestedCommand(field{s: cmd, taint: a.taint}, scriptOpts{})
			}
		}
	}
	p.readsFiles(getopt(args, optSpec{}).operands)
}
func hMan(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "PHMC", longArg: []string{"pager", "html", "manpath", "config-file"}})
	if ps.has("C", 0, "config-file") {
		// man-db's configuration names the programs it runs (DEFINE pager,
		// tbl, nroff…), so a file the project chose runs what it says.
		p.raise(Confirm, "reads a configuration file that names the programs man runs")
	}
	for _, cmd := range ps.values("PH", "pager", "html") {
		p.raise(Confirm, "runs another program to show the page")
		p.nestedCommand(field{s: cmd}, scriptOpts{})
	}
}
func hBat(p *part, name string, args []field) {
	for _, a := range args {
		if strings.HasPrefix(a.s, "--pager") {
			p.raise(Confirm, "runs a pager program")
		}
	}
	p.readsFiles(getopt(args, optSpec{}).operands)
}
func hDate(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "dfrs", longArg: []string{"date", "file", "reference", "set", "iso-8601", "rfc-3339"}})
	if ps.has("s", 3, "set") {
		p.raise(Confirm, "sets the system clock")
	}
	for _, op := range ps.operands {
		if !strings.HasPrefix(op.s, "+") {
			p.raise(Confirm, "sets the system clock")
		}
	}
}
func hHostname(p *part, name string, args []field) {
	if len(getopt(args, optSpec{}).operands) > 0 {
		p.raise(Confirm, "changes the host name")
	}
}

// hFormatter handles tools that rewrite files only with a flag (gofmt -w).
func hFormatter(writeFlags ...string) handler {
	return func(p *part, name string, args []field) {
		for _, a := range args {
			for _, f := range writeFlags {
				if a.s == f || strings.HasPrefix(a.s, f+"=") {
					p.raise(Confirm, "rewrites files in place")
					return
				}
			}
		}
	}
}

// sedEffects scans a sed script for the commands that run programs (e,
// s///e) or write files (w, W, s///w). It reads the script the way sed
// does: addresses, then a command letter, with s and y arguments delimited.
// awkProgram raises for awk code that runs commands or writes files.
// stripParens removes parenthesised text, where > is a comparison in awk.
// runBulk runs a command once per item of a list (find -exec, xargs):
// deleting then means deleting everything the list names.
// hCompress handles gzip and friends: in place unless they write to stdout or only test or list.
// hJq handles jq: its filter may print the environment (env, $ENV), and
// --rawfile and --slurpfile read files like operands do.
func hJq(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "fL", longArg: []string{"arg", "argjson", "indent", "from-file", "seq", "tab"}})
	ops := ps.operands
	if !ps.has("f", 3, "from-file") && len(ops) > 0 {
		if jqEnvRe().MatchString(ops[0].s) {
			p.raise(Confirm, "prints environment variables, which often hold secrets")
		}
		ops = ops[1:]
	} else if f, ok := ps.value("f", 3, "from-file"); ok {
		p.readsFiles([]field{{s: f}})
	}
	// --rawfile NAME FILE and --slurpfile NAME FILE: the file is the
	// second word after the option.
	for i, a := range args {
		if (a.s == "--rawfile" || a.s == "--slurpfile") && i+2 < len(args) {
			p.readsFiles(args[i+2 : i+3])
			ops = removeField(ops, args[i+1], args[i+2])
		}
	}
	p.readsFiles(ops)
}

// removeField drops the given words from ops (the operands getopt saw in
// options it does not know take two values).
func removeField(ops []field, drop ...field) []field {
	out := ops[:0:0]
	for _, o := range ops {
		keep := true
		for _, d := range drop {
			if o.s == d.s {
				keep = false
			}
		}
		if keep {
			out = append(out, o)
		}
	}
	return out
}

// jqEnvRe finds jq's and yq's ways to read the environment.
var jqEnvRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[^.\w$])(env|\$ENV|\$__prog_env)\b|\$ENV\b|\b(str)?env\(`)
})

func hYq(p *part, name string, args []field) {
	for i, a := range args {
		if a.s == "-s" || a.s == "--split-exp" || strings.HasPrefix(a.s, "--split-exp=") {
			p.raise(Confirm, "writes a file for each document (--split-exp)")
		}
		if (a.s == "--from-file") && i+1 < len(args) {
			p.readsFiles(args[i+1 : i+2])
		}
	}
	ops := getopt(args, optSpec{}).operands
	if len(ops) > 1 && (ops[0].s == "e" || ops[0].s == "eval" || ops[0].s == "ea" || ops[0].s == "eval-all") {
		ops = ops[1:]
	}
	if len(ops) > 0 && jqEnvRe().MatchString(ops[0].s) {
		p.raise(Confirm, "prints environment variables, which often hold secrets")
	}
	for _, a := range args {
		if a.s == "-i" || strings.HasPrefix(a.s, "--inplace") || (strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "i") && len(a.s) <= 4) {
			p.raise(Confirm, "edits files in place")
			return
		}
	}
}
func hDiff(p *part, name string, args []field) {
	short := "CUDFISxX"
	if name == "sdiff" {
		short = "oIwW" // sdiff -o FILE merges into FILE
	}
	ps := getopt(args, optSpec{shortArg: short, longArg: []string{"output", "diff-program", "context", "unified", "ifdef", "show-function-line", "label", "ignore-matching-lines", "exclude", "exclude-from", "starting-file", "from-file", "to-file", "line-format", "old-line-format", "new-line-format", "unchanged-line-format", "old-group-format", "new-group-format", "changed-group-format", "unchanged-group-format", "horizon-lines", "width", "tabsize", "palette", "color"}})
	if name == "sdiff" {
		if o, ok := ps.value("o", 3, "output"); ok {
			p.writes([]field{{s: o}})
		}
	}
	if prog, ok := ps.value("", 6, "diff-program"); ok {
		p.raise(Confirm, "runs "+display(prog)+" to compare")
		p.nestedCommand(field{s: prog}, scriptOpts{})
	}
	p.readsFiles(ps.operands)
}
func hSplit(p *part, name string, args []field) {
	p.raise(Confirm, "writes files")
}
func hPatch(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "pioBdDrYzFgV", longArg: []string{"strip", "input", "output", "directory", "reject-file"}})
	if o, ok := ps.value("o", 3, "output"); ok {
		p.writes([]field{{s: o}})
	}
	p.writes(ps.operands[:min(1, len(ps.operands))])
	p.raise(Confirm, "patches files")
}
func hEditor(p *part, name string, args []field) {
	var targets []field
	for i, a := range args {
		cmd := ""
		switch {
		case (a.s == "-c" || a.s == "--cmd") && i+1 < len(args):
			cmd = args[i+1].s
		case strings.HasPrefix(a.s, "+"):
			cmd = a.s[1:]
		case !strings.HasPrefix(a.s, "-") && (i == 0 || (args[i-1].s != "-c" && args[i-1].s != "--cmd")):
			targets = append(targets, a)
		}
		// vim -c '!cmd' and +'!cmd' run shell commands.
		if _, sh, ok := strings.Cut(cmd, "!"); ok {
			p.raise(Confirm, "runs a shell command from the editor")
			p.nestedCommand(field{s: sh}, scriptOpts{})
		}
	}
	p.writes(targets)
	p.raise(Confirm, "opens an editor")
}
