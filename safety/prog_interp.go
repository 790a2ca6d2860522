package safety

import (
	"regexp"
	"strings"
	"sync"
)

// interp describes how an interpreter takes code on its command line.
type interp struct {
	lang     string
	code     string   // short options whose value is code: "c" for python, "e" for perl
	longCode []string // long options whose value is code: --eval, --print
	argOpts  string   // other short options that take a value (attached or next word)
	version  []string // lone arguments that only print the version
}

var interps = map[string]interp{
	"python":    {lang: "python", code: "c", argOpts: "WXQm", version: []string{"-V", "-VV", "--version"}},
	"pypy":      {lang: "python", code: "c", argOpts: "WXQm", version: []string{"-V", "--version"}},
	"perl":      {lang: "perl", code: "eE", argOpts: "MmIFCdDxil0", version: []string{"-v", "-V", "--version"}},
	"ruby":      {lang: "ruby", code: "e", argOpts: "rICEFxiK0W", version: []string{"-v", "--version"}},
	"irb":       {lang: "ruby", version: []string{"-v", "--version"}},
	"node":      {lang: "js", code: "ep", longCode: []string{"eval", "print"}, argOpts: "rC", version: []string{"-v", "--version"}},
	"nodejs":    {lang: "js", code: "ep", longCode: []string{"eval", "print"}, argOpts: "rC", version: []string{"-v", "--version"}},
	"php":       {lang: "php", code: "rRBE", argOpts: "cdfztS", version: []string{"-v", "--version"}},
	"lua":       {lang: "lua", code: "e", argOpts: "l", version: []string{"-v"}},
	"luajit":    {lang: "lua", code: "e", argOpts: "lbj", version: []string{"-v"}},
	"rscript":   {lang: "r", code: "e", version: []string{"--version"}},
	"r":         {lang: "r", code: "e", argOpts: "f", version: []string{"--version"}},
	"julia":     {lang: "julia", code: "eE", version: []string{"-v", "--version"}},
	"tclsh":     {lang: "tcl"},
	"wish":      {lang: "tcl"},
	"osascript": {lang: "applescript", code: "e", argOpts: "ls"},
	"groovy":    {lang: "groovy", code: "e", version: []string{"-v", "--version"}},
}

// hInterp handles interpreters: code on the command line is read for
// what it does, a script file needs approval, stdin code is judged by where
// it comes from.
func hInterp(p *part, name string, args []field) {
	// Whatever the program prints is generated at run time.
	p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
	base := strings.TrimRight(name, "0123456789.")
	spec, ok := interps[base]
	if !ok {
		spec = interps[name]
	}
	if len(args) == 1 && contains(spec.version, args[0].s) {
		return
	}
	var codes []field
	var operands []field
	module := ""
	inPlace := false
	i := 0
	for ; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			i++
			break
		}
		if s == "-" || len(s) < 2 || s[0] != '-' || args[i].dynamic() {
			break
		}
		if strings.HasPrefix(s, "--") {
			name, val, has := strings.Cut(s[2:], "=")
			if contains(spec.longCode, name) {
				if !has && i+1 < len(args) {
					i++
					codes = append(codes, args[i])
				} else {
					codes = append(codes, field{s: val})
				}
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			c := s[j]
			if strings.IndexByte(spec.code, c) >= 0 {
				if j+1 < len(s) {
					codes = append(codes, field{s: s[j+1:], taint: args[i].taint})
				} else if i+1 < len(args) {
					i++
					codes = append(codes, args[i])
				}
				break
			}
			if c == 'i' && (spec.lang == "perl" || spec.lang == "ruby") {
				inPlace = true
				break
			}
			if strings.IndexByte(spec.argOpts, c) >= 0 {
				val := s[j+1:]
				if val == "" && i+1 < len(args) && spec.lang != "perl" {
					i++
					val = args[i].s
				}
				if c == 'm' && spec.lang == "python" {
					module = val
					i++
					goto done
				}
				break
			}
		}
	}
done:
	if i < len(args) {
		operands = args[i:]
	}
	if module != "" {
		p.pythonModule(module, operands)
		return
	}
	if len(codes) > 0 {
		for _, c := range codes {
			p.interpCode(spec.lang, c)
		}
		if inPlace {
			p.writes(operands)
			p.raise(Confirm, "edits files in place")
		} else {
			p.readsFiles(operands)
		}
		return
	}
	if len(operands) == 0 || operands[0].s == "-" {
		if p.stdin.exact && !strings.Contains(p.stdin.literal, unknownMark) {
			p.interpCode(spec.lang, field{s: p.stdin.literal, taint: p.stdin.taint})
			return
		}
		p.nestedStdinCode(spec.lang)
		return
	}
	p.scriptFile(operands[0], spec.lang)
}

// nestedStdinCode handles an interpreter reading its program from stdin.
func (p *part) nestedStdinCode(lang string) {
	in := p.stdin
	switch {
	case in.taint&taintDownload != 0:
		p.raiseSticky(Dangerous, "pipes code downloaded from the network into "+lang)
	case in.taint&taintDecoded != 0:
		p.raiseSticky(Dangerous, "pipes decoded or rewritten text into "+lang)
	case in.exact && strings.TrimSpace(strings.ReplaceAll(in.literal, unknownMark, "")) != "":
		// Code written out in the command with a variable in it: what is
		// visible is judged, the rest needs approval.
		p.raiseSticky(Confirm, "runs "+langName(lang)+" code with parts only known at run time")
		p.interpCode(lang, field{s: in.literal, taint: in.taint})
	case in.present:
		p.raiseSticky(Dangerous, "runs "+langName(lang)+" code piped or redirected into it, which pincer cannot read")
	default:
		p.raise(Confirm, "starts an interactive "+lang+" session")
	}
}

func (p *part) pythonModule(module string, args []field) {
	switch module {
	case "pip", "pip3":
		hPip(p, "pip", args)
	case "json.tool":
		if len(args) > 1 {
			p.writes(args[1:2])
		}
	case "":
	default:
		p.raise(Confirm, "runs the Python module "+display(module))
	}
}

// interpCode classifies one-liner code in another language.
func (p *part) interpCode(lang string, code field) {
	p.raise(Confirm, "runs "+langName(lang)+" code")
	if code.taint&taintDownload != 0 {
		p.raiseSticky(Dangerous, "runs code downloaded from the network")
	}
	if code.taint&taintDecoded != 0 {
		p.raiseSticky(Dangerous, "runs code decoded at run time")
	}
	switch {
	case code.dynamic() && strings.TrimSpace(strings.ReplaceAll(code.s, unknownMark, "")) == "":
		p.raiseSticky(Dangerous, "runs "+langName(lang)+" code only known at run time, which pincer cannot read")
	case code.dynamic():
		p.raiseSticky(Confirm, "runs code only known at run time")
	}
	if p.stdin.taint&(taintDownload|taintDecoded) != 0 && evalRe().MatchString(code.s) {
		p.raiseSticky(Dangerous, "runs code it reads from a download or decoded text")
	}
	p.codeRules(lang, code.s)
}

// networkCodeRe finds code that talks to the network.
var networkCodeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(urlopen|urllib|requests\.|http\.client|socket|fetch\s*\(|https?\.request|net::http|lwp|io::socket|curl_|invoke-webrequest|invoke-restmethod|net\.webclient|uploadfile|uploadstring)`)
})
var evalRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(exec|eval|compile|system|source|load|require|Function|iex|invoke-expression)\b`)
})

func langName(lang string) string {
	switch lang {
	case "js":
		return "JavaScript"
	case "php":
		return "PHP"
	case "r":
		return "R"
	case "applescript":
		return "AppleScript"
	case "powershell":
		return "PowerShell"
	case "":
		return "interpreter"
	}
	return strings.ToUpper(lang[:1]) + lang[1:]
}

type codeRule struct {
	re  *regexp.Regexp
	why string
}

// codeRules are what makes a one-liner dangerous: deleting, changing
// permissions, writing files, forking or killing processes. Shell-outs are
// handled apart: their command strings are classified as shell.
var codeRules = sync.OnceValue(func() map[string][]codeRule {
	return map[string][]codeRule{
		"python": {
			{regexp.MustCompile(`\b(rmtree|removedirs)\s*\(|\.(remove|unlink|rmdir)\s*\(|\bos\.truncate\s*\(`), "deletes files"},
			{regexp.MustCompile(`\.(chmod|chown|lchown|fchmod|chflags)\s*\(`), "changes file permissions"},
			{regexp.MustCompile(`\bos\.(rename|replace|renames)\s*\(|shutil\.(move|copy|copy2|copyfile|copytree)\s*\(`), "moves or overwrites files"},
			{regexp.MustCompile(`\bopen\s*\([^)]*,\s*(mode\s*=\s*)?[rbuf]*["'][^"']*[wax+]|\.write_(text|bytes)\s*\(|\.(touch|mkdir|makedirs|symlink_to|hardlink_to|symlink|mknod|mkfifo)\s*\(`), "writes files"},
			{regexp.MustCompile(`\.(fork|forkpty)\s*\(`), "forks processes"},
			{regexp.MustCompile(`\.(kill|killpg)\s*\(`), "kills processes"},
			{regexp.MustCompile(`\bfrom\s+(os|shutil|pathlib)\s+import\b[^;\n]*\b(remove|unlink|rmdir|removedirs|rmtree|chmod|chown|kill|fork|rename|replace|truncate|move)\b`), "deletes or changes files"},
			{regexp.MustCompile(`(?s)\b(exec|eval|compile)\s*\(.*\b(urlopen|requests|urllib|http\.client|socket|b64decode|base64|codecs\.decode|fromhex|zlib|marshal)\b|(?s)\b(urlopen|requests|urllib|b64decode|base64|fromhex|zlib|marshal)\b.*\b(exec|eval|compile)\s*\(`), "runs code fetched or decoded at run time"},
			{regexp.MustCompile(`(?s)\bsocket\b.*\b(dup2|pty\.spawn)\b`), "connects a shell to the network"},
		},
		"perl": {
			{regexp.MustCompile(`\b(unlink|rmdir|rmtree|remove_tree)\b`), "deletes files"},
			{regexp.MustCompile(`\b(chmod|chown|utime)\b`), "changes file permissions"},
			{regexp.MustCompile(`\b(rename|truncate|symlink|mkdir|make_path)\b|\bopen\s*\(?[^;]*?["']\s*(\+?>|\||-\|)|\bopen\s*\(?\s*\w+\s*,\s*["']\s*[>|]`), "writes files"},
			{regexp.MustCompile(`\bfork\b`), "forks processes"},
			{regexp.MustCompile(`\bkill\b`), "kills processes"},
			{regexp.MustCompile(`\bsyscall\b`), "makes raw system calls"},
			{regexp.MustCompile(`(?s)\beval\b.*\b(LWP|HTTP::|IO::Socket|decode_base64|pack\s*\(\s*["']H)|(?s)\b(LWP|HTTP::|decode_base64)\b.*\beval\b`), "runs code fetched or decoded at run time"},
		},
		"ruby": {
			{regexp.MustCompile(`FileUtils\.|\bFile\.(delete|unlink|rename|chmod|chown|write|truncate|symlink|lchmod|lchown)\b|\bDir\.(delete|rmdir|unlink|mkdir)\b|\bIO\.write\b|\.(rm_rf|rm_r|rm_f|rmtree|remove_dir|remove_entry|remove_entry_secure)\b|File\.open\s*\([^)]*["'][wa+]`), "deletes or writes files"},
			{regexp.MustCompile(`\bfork\b|Process\.fork`), "forks processes"},
			{regexp.MustCompile(`Process\.kill`), "kills processes"},
			{regexp.MustCompile(`(?s)\beval\b.*\b(Net::HTTP|open-uri|URI\.open|Base64|unpack)|(?s)\b(Net::HTTP|open-uri|URI\.open|Base64)\b.*\beval\b`), "runs code fetched or decoded at run time"},
		},
		"js": {
			{regexp.MustCompile(`\b(rmSync|rmdirSync|unlinkSync|rimraf)\b|\.(rm|rmdir|unlink)\s*\(`), "deletes files"},
			{regexp.MustCompile(`\b(writeFileSync|appendFileSync|chmodSync|chownSync|renameSync|truncateSync|copyFileSync|cpSync|symlinkSync|mkdirSync|createWriteStream)\b|\.(writeFile|appendFile|chmod|chown|rename|truncate|copyFile|cp|symlink|mkdir)\s*\(`), "writes files"},
			{regexp.MustCompile(`process\.kill\b`), "kills processes"},
			{regexp.MustCompile(`(?s)\b(eval|Function)\s*\(.*\b(fetch|https?\.get|request|Buffer\.from|atob)\b|(?s)\b(fetch|https?\.get|atob)\b.*\b(eval|Function)\s*\(`), "runs code fetched or decoded at run time"},
		},
		"php": {
			{regexp.MustCompile(`\b(unlink|rmdir|file_put_contents|fwrite|fputs|chmod|chown|chgrp|rename|copy|touch|mkdir|symlink|link|ftruncate)\s*\(|\bfopen\s*\([^)]*["'][waxc+]`), "deletes or writes files"},
			{regexp.MustCompile(`\bpcntl_fork\s*\(`), "forks processes"},
			{regexp.MustCompile(`\bposix_kill\s*\(`), "kills processes"},
			{regexp.MustCompile(`(?s)\b(eval|assert)\s*\(.*\b(base64_decode|gzinflate|str_rot13|file_get_contents|curl_exec)\b`), "runs code fetched or decoded at run time"},
		},
		"lua": {
			{regexp.MustCompile(`\bos\.(remove|rename)\b|\bio\.open\s*\([^)]*["'][wa+]`), "deletes or writes files"},
		},
		"r": {
			{regexp.MustCompile(`\b(unlink|file\.remove|file\.rename|file\.copy|writeLines|saveRDS|Sys\.chmod|dir\.create|write\.(csv|table))\s*\(`), "deletes or writes files"},
		},
		"julia": {
			{regexp.MustCompile(`\b(rm|mv|cp|chmod|chown|write|mkdir|mkpath|touch)\s*\(`), "deletes or writes files"},
		},
		"applescript": {
			{regexp.MustCompile(`(?i)\bdelete\b|\bempty\s+(the\s+)?trash\b|\bshut\s*down\b|\brestart\b|with administrator privileges`), "deletes files or changes the system"},
		},
		"powershell": {
			{regexp.MustCompile(`(?i)\b(iex|invoke-expression)\b.*\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|net\.webclient|start-bitstransfer|curl|wget)\b|(?i)\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|net\.webclient)\b.*\b(iex|invoke-expression)\b`), "runs code downloaded from the network"},
			{regexp.MustCompile(`(?i)\b(remove-item|ri|rm|del|rd|rmdir|erase)\b[^|;\n]*\s-r`), "recursive delete"},
			{regexp.MustCompile(`(?i)\b(format-volume|clear-disk|initialize-disk|remove-partition|stop-computer|restart-computer|vssadmin|bcdedit|diskpart|cipher\s+/w|reg\s+delete|remove-itemproperty)\b|\[(system\.)?io\.(file|directory)\]::delete|set-mppreference[^;\n]*-disable`), "destroys data or changes the system"},
			{regexp.MustCompile(`(?i)-verb\s+runas\b`), "elevates to administrator"},
			{regexp.MustCompile(`(?i)(^|[\s|;(&{])(iex|invoke-expression)\s*($|[($|;)}\n\x00])`), "runs PowerShell code built at run time, which pincer cannot read"},
			{regexp.MustCompile(`(?i)\b(invoke-webrequest|iwr|invoke-restmethod|irm|uploadfile|uploadstring|uploaddata)\b[^\n]*(\.ssh|\.aws|\.azure|\.kube|\.gnupg|\.netrc|\.git-credentials|id_rsa|id_ed25519|credentials|\.env\b)|(?i)(\.ssh|\.aws|\.netrc|id_rsa|\.env\b)[^\n]*\|\s*(invoke-webrequest|iwr|invoke-restmethod|irm)\b`), "sends secrets to another machine"},
			{regexp.MustCompile(`(?i)\bclear-history\b|historysavepath|consolehost_history|historysavestyle\s+savenothing`), "clears or hides the command history"},
			{regexp.MustCompile(`(?i)\b(clear-eventlog|remove-eventlog)\b|\bwevtutil(\.exe)?\s+(cl|clear-log)\b`), "clears the system event logs"},
			{regexp.MustCompile(`(?i)\bset-executionpolicy\s+(-executionpolicy\s+)?(unrestricted|bypass)\b`), "turns off PowerShell's script signing checks"},
		},
	}
})

// shellOut finds calls that run shell commands, per language.
var shellOut = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"python":      regexp.MustCompile(`\.(system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)\s*\(|\bsubprocess\b|\bpty\.spawn\b|\bcommands\.getoutput\b`),
		"perl":        regexp.MustCompile("\\b(system|exec|qx)\\b|`"),
		"ruby":        regexp.MustCompile("\\b(system|exec|spawn)\\b|%x|`|IO\\.popen|Open3"),
		"js":          regexp.MustCompile(`child_process|\b(execSync|spawnSync|execFileSync|exec|spawn|execFile)\s*\(`),
		"php":         regexp.MustCompile("\\b(system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\\s*\\(|`"),
		"lua":         regexp.MustCompile(`\bos\.execute\b|\bio\.popen\b`),
		"r":           regexp.MustCompile(`\bsystem2?\s*\(`),
		"julia":       regexp.MustCompile(`\brun\s*\(`),
		"applescript": regexp.MustCompile(`do shell script`),
		"tcl":         regexp.MustCompile(`\bexec\b`),
		"groovy":      regexp.MustCompile(`\.execute\s*\(`),
		"powershell":  regexp.MustCompile(`(?i)\b(start-process|invoke-item|saps)\b`),
	}
})

var (
	literalRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("'((?:[^'\\\\]|\\\\.)*)'|\"((?:[^\"\\\\]|\\\\.)*)\"|`([^`]*)`|\\bq[qxw]?\\{([^}]*)\\}|%x\\(([^)]*)\\)")
	})
	concatRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(['"])\s*[+.]\s*(['"])`) })
)

// reverseShellRe finds code that wires a shell to a network socket.
var reverseShellRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)(socket|fsockopen|tcpsocket|net\.connect|/dev/tcp|/inet/tcp).*(exec|system|spawn|popen|dup2|/bin/sh|/bin/bash|cmd\.exe|sh -i|pty)|(?is)(dup2|pty\.spawn).*(socket|fsockopen|tcpsocket)`)
})

// codeRules raises for dangerous operations in code, and classifies the
// string literals of the code as shell commands: a one-liner that carries
// "rm -rf /" in a string most likely runs it.
func (p *part) codeRules(lang, code string) {
	for _, r := range codeRules()[lang] {
		if r.re.MatchString(code) {
			p.raise(Dangerous, r.why)
			break
		}
	}
	if reverseShellRe().MatchString(code) {
		p.raise(Dangerous, "connects a shell to the network (a remote shell)")
	}
	// 'r' + 'm -rf /' and "r"."m" are one string to the program.
	joined := concatRe().ReplaceAllStringFunc(code, func(m string) string {
		if m[0] == m[len(m)-1] {
			return ""
		}
		return m
	})
	var lits []string
	for _, m := range literalRe().FindAllStringSubmatch(joined, 64) {
		for _, g := range m[1:] {
			if g != "" {
				lits = append(lits, g)
				break
			}
		}
	}
	if networkCodeRe().MatchString(code) {
		for _, l := range lits {
			if t, why := exfilLoc(placePath(l, p.w.cwd)); t != 0 && !strings.ContainsAny(l, " \n") {
				p.raise(Dangerous, "reads "+display(l)+" ("+why+") in code that talks to the network")
				break
			}
		}
	}
	before := p.tier()
	for _, l := range lits {
		p.nestedProbe(l)
	}
	if len(lits) > 1 {
		p.nestedProbe(strings.Join(lits, " "))
	}
	if re := shellOut()[lang]; re != nil && re.MatchString(code) && len(lits) == 0 && before < Dangerous {
		p.raise(Dangerous, "runs a shell command built at run time")
	}
}
