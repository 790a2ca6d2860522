package safety

import (
	"regexp"
	"strings"
	"sync"
)

var (
	sqlDropRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bdrop\s+(database|schema|table|view|index|user|role|keyspace|collection|owned|tablespace)\b`)
	})
	sqlTruncRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\btruncate\s+(table\s+)?[\w."` + "`" + `\[]`) })
	sqlAlterDrop = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\balter\s+table\b[^;]*\bdrop\b`) })
	sqlNoSQLRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bflushall\b|\bflushdb\b|dropDatabase\s*\(|\.drop\s*\(\s*\)|deleteMany\s*\(\s*\{\s*\}\s*\)|\.remove\s*\(\s*\{\s*\}\s*\)`)
	})
	sqlStmtHeadRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^\s*(delete\s+from|update)\b`) })
	sqlWhereRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bwhere\b`) })
)

// sqlDanger names what makes a query destructive: dropping or emptying
// tables and databases, DELETE or UPDATE without WHERE, Redis FLUSHALL.
func sqlDanger(q string) string {
	switch {
	case sqlDropRe().MatchString(q):
		return "drops a database object (" + strings.ToUpper(sqlDropRe().FindString(q)) + ")"
	case sqlTruncRe().MatchString(q):
		return "empties a table (TRUNCATE)"
	case sqlAlterDrop().MatchString(q):
		return "drops a column or constraint"
	case sqlNoSQLRe().MatchString(q):
		return "erases a database"
	}
	for _, stmt := range strings.Split(q, ";") {
		if sqlStmtHeadRe().MatchString(stmt) && !sqlWhereRe().MatchString(stmt) {
			return "changes every row of a table (no WHERE)"
		}
	}
	return ""
}

// alwaysDangerous are programs whose use is dangerous whatever the
// arguments; even --help is not trusted to be a harmless query for them.
func alwaysDangerous(name string) bool {
	switch name {
	case "sudo", "sudoedit", "doas", "su", "pkexec", "run0", "runas", "gsudo", "shutdown", "reboot", "halt", "poweroff",
		"mkfs", "mke2fs", "mkswap", "mkntfs", "mkdosfs", "newfs", "format", "shred", "wipe", "srm", "init", "telinit",
		"diskpart", "bcdedit", "killall5", "chroot":
		return true
	}
	return false
}

func hDangerous(why string) handler {
	return func(p *part, name string, args []field) { p.raise(Dangerous, why) }
}

func hConfirm(why string) handler {
	return func(p *part, name string, args []field) { p.raise(Confirm, why) }
}

func hInit(p *part, name string, args []field) {
	p.raise(Dangerous, "changes the system run level (shutdown, reboot)")
}

func hKill(p *part, name string, args []field) {
	for i, a := range args {
		s := a.s
		if s == "-l" || s == "-L" || s == "--list" || s == "--table" {
			return
		}
		if i == 0 && strings.HasPrefix(s, "-") && s != "-1" {
			continue // the signal
		}
		if (s == "-s" || s == "-n") && i == 0 {
			continue
		}
		if s == "-1" || s == "1" {
			if i > 0 || len(args) == 1 {
				p.raise(Dangerous, "signals every process (or init)")
			}
		}
	}
	p.raise(Confirm, "stops processes")
}

func hPkill(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "sgGPtuUF", longArg: []string{"signal", "pgroup", "group", "parent", "terminal", "euid", "uid", "pidfile", "session", "ns", "nslist"}})
	for _, o := range ps.operands {
		if o.s == "." || o.s == ".*" || o.s == "" || o.s == "^" {
			p.raise(Dangerous, "matches every process")
		}
	}
	if u, ok := ps.value("uU", 3, "euid", "uid", "user"); ok {
		p.raise(Dangerous, "signals every process of the user "+display(u))
	}
	if name == "killall" && len(ps.operands) == 0 && !ps.has("lV", 3, "list", "version") {
		p.raise(Dangerous, "signals every process it may")
	}
	p.raise(Confirm, "stops processes")
}

// protective services keep the machine safe or keep its records: stopping
// or disabling them is dangerous.
var protective = map[string]bool{
	"firewalld": true, "ufw": true, "iptables": true, "ip6tables": true, "nftables": true, "netfilter-persistent": true,
	"apparmor": true, "auditd": true, "fail2ban": true, "selinux": true, "clamav-daemon": true, "clamav-freshclam": true,
	"crowdsec": true, "wazuh-agent": true, "osqueryd": true, "falco": true, "rsyslog": true, "syslog": true, "syslog-ng": true,
	"systemd-journald": true, "sshd": true, "ssh": true, "windefend": true, "mpssvc": true, "eventlog": true, "wscsvc": true,
	"sense": true, "wdnissvc": true, "bfe": true, "sysmon": true, "sysmon64": true,
}

func protectiveUnit(s string) bool {
	s = strings.ToLower(s)
	s = strings.TrimSuffix(strings.TrimSuffix(s, ".service"), ".socket")
	return protective[s]
}

// stopsProtective raises when a service command stops, disables or masks a
// protective service.
func (p *part) stopsProtective(verb string, units []field) {
	switch verb {
	case "stop", "disable", "mask", "kill", "freeze", "delete", "config":
	default:
		return
	}
	for _, u := range units {
		if protectiveUnit(u.s) {
			p.raise(Dangerous, "turns off "+display(u.s)+", which protects the machine or keeps its logs")
			return
		}
	}
}

func hCrontab(p *part, name string, args []field) {
	for _, a := range args {
		switch a.s {
		case "-l":
			return
		case "-r":
			p.raise(Dangerous, "deletes the crontab")
			return
		case "-e":
			p.raise(Dangerous, "edits the crontab (commands run on a schedule)")
			return
		}
	}
	p.raise(Dangerous, "replaces the crontab (commands run on a schedule)")
	if p.stdin.exact {
		for _, line := range strings.Split(p.stdin.literal, "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) > 1 && strings.HasPrefix(f[0], "@"):
				p.nestedProbe(strings.Join(f[1:], " "))
			case len(f) > 5 && !strings.HasPrefix(f[0], "#"):
				p.nestedProbe(strings.Join(f[5:], " "))
			}
		}
	}
}

func hAt(p *part, name string, args []field) {
	for _, a := range args {
		if a.s == "-l" || a.s == "-c" || a.s == "-V" {
			return
		}
	}
	p.raise(Confirm, "schedules commands to run later")
	if p.stdin.exact {
		p.nestedStdin("at", scriptOpts{})
	}
}

func hSystemctl(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	switch op.s {
	case "", "status", "show", "cat", "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies",
		"list-jobs", "list-machines", "list-automounts", "list-paths", "is-active", "is-enabled", "is-failed", "is-system-running",
		"help", "get-default", "show-environment":
		return
	case "poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate",
		"rescue", "emergency", "isolate", "default", "soft-reboot", "exit", "switch-root":
		p.raise(Dangerous, "shuts down, reboots or changes the system state")
		return
	}
	_, i := firstOperand(args)
	p.stopsProtective(op.s, args[i+1:])
	p.raise(Confirm, "changes system services")
}

func hService(p *part, name string, args []field) {
	for _, a := range args {
		if a.s == "status" || a.s == "--status-all" || a.s == "list" {
			return
		}
	}
	if len(args) > 1 {
		p.stopsProtective(args[1].s, args[:1])
	}
	p.raise(Confirm, "changes system services")
}

func hLaunchctl(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	switch op.s {
	case "", "list", "print", "blame", "version", "help", "print-disabled", "procinfo", "dumpstate", "managerpid", "manageruid", "managername":
		return
	case "reboot":
		p.raise(Dangerous, "reboots the system")
		return
	}
	p.raise(Confirm, "changes launchd services")
}

func hAccounts(p *part, name string, args []field) {
	if name == "dscl" {
		for _, a := range args {
			if strings.HasPrefix(a.s, "-read") || strings.HasPrefix(a.s, "-list") || strings.HasPrefix(a.s, "-search") {
				return
			}
		}
	}
	p.raise(Dangerous, "changes system accounts or passwords")
}

func hFirewall(p *part, name string, args []field) {
	for i, a := range args {
		s := strings.ToLower(a.s)
		switch s {
		case "-f", "--flush", "flush", "disable", "reset", "-x", "--delete-chain", "-d", "--panic-on", "stop":
			p.raise(Dangerous, "turns off or erases firewall rules")
			return
		case "-p", "--policy":
			if i+2 < len(args) && strings.EqualFold(args[i+2].s, "ACCEPT") {
				p.raise(Dangerous, "makes the firewall accept everything")
				return
			}
		}
	}
	for _, a := range args {
		s := a.s
		if s == "-L" || s == "--list" || s == "-S" || s == "--list-rules" || s == "list" || s == "status" || s == "-s" || s == "--state" ||
			strings.HasPrefix(s, "--list-") || strings.HasPrefix(s, "--get-") || s == "show" || s == "-nL" || s == "-vL" {
			return
		}
	}
	p.raise(Confirm, "changes firewall rules")
}

func hSecurityOff(p *part, name string, args []field) {
	for _, a := range args {
		s := strings.ToLower(a.s)
		if s == "0" || s == "disable" || s == "permissive" || s == "--master-disable" || s == "--global-disable" || strings.Contains(s, "disable") {
			p.raise(Dangerous, "turns off a system security protection")
			return
		}
		if s == "status" || s == "--status" || s == "getenforce" {
			return
		}
	}
	p.raise(Confirm, "changes a system security setting")
}

func hSysctl(p *part, name string, args []field) {
	for _, a := range args {
		if a.s == "-w" || a.s == "--write" || a.s == "-p" || a.s == "--load" || a.s == "--system" || (strings.Contains(a.s, "=") && !strings.HasPrefix(a.s, "-")) {
			p.raise(Dangerous, "changes kernel settings")
			return
		}
	}
}

func hMount(p *part, name string, args []field) {
	if len(args) == 0 || (len(args) == 1 && (args[0].s == "-l" || args[0].s == "--show" || args[0].s == "-s" || args[0].s == "--summary")) {
		return
	}
	p.raise(Confirm, "mounts or unmounts file systems")
}

func hHdparm(p *part, name string, args []field) {
	for _, a := range args {
		s := a.s
		if strings.HasPrefix(s, "--security-erase") || strings.HasPrefix(s, "--write-sector") || strings.HasPrefix(s, "--trim-sector") ||
			strings.HasPrefix(s, "--fwdownload") || s == "--yes-i-know-what-i-am-doing" || strings.HasPrefix(s, "--security-set-pass") || s == "-z" {
			p.raise(Dangerous, "erases or rewrites a disk")
			return
		}
	}
	p.raise(Confirm, "changes disk settings")
}

func hDiskutil(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	switch strings.ToLower(op.s) {
	case "", "list", "info", "information", "activity", "listfilesystems", "apfs":
		if strings.ToLower(op.s) != "apfs" {
			return
		}
		for _, a := range args {
			if strings.HasPrefix(strings.ToLower(a.s), "delete") || strings.HasPrefix(strings.ToLower(a.s), "erase") {
				p.raise(Dangerous, "erases a volume or container")
				return
			}
		}
		return
	case "erasedisk", "erasevolume", "partitiondisk", "zerodisk", "randomdisk", "secureerase", "reformat", "erasecd", "splitpartition", "mergepartitions", "resizevolume":
		p.raise(Dangerous, "erases or repartitions a disk")
		return
	}
	p.raise(Confirm, "changes disks or volumes")
}

func hReg(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	switch strings.ToLower(op.s) {
	case "query", "compare", "export":
		return
	case "delete":
		p.raise(Dangerous, "deletes registry keys")
		return
	}
	for _, a := range args {
		l := strings.ToLower(a.s)
		if strings.HasPrefix(l, "hklm") || strings.HasPrefix(l, "hkey_local_machine") {
			p.raise(Dangerous, "changes the machine-wide registry")
			return
		}
		if strings.Contains(l, `currentversion\run`) || strings.Contains(l, `currentversionrun`) || strings.Contains(l, `\winlogon`) || strings.Contains(l, "image file execution options") {
			p.raise(Dangerous, "makes a program run at login or start-up")
			return
		}
	}
	p.raise(Confirm, "changes the Windows registry")
}

func hWinList(safe ...string) handler {
	return func(p *part, name string, args []field) {
		if name == "sc" && len(args) > 1 {
			p.stopsProtective(strings.ToLower(args[0].s), args[1:2])
		}
		for _, a := range args {
			l := strings.ToLower(strings.TrimLeft(a.s, "/-"))
			if contains(safe, l) {
				return
			}
			if l == "delete" || strings.HasPrefix(l, "delete") {
				p.raise(Dangerous, "deletes system data ("+name+")")
				return
			}
		}
		p.raise(Confirm, "changes Windows system settings ("+name+")")
	}
}

func hNet(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	switch strings.ToLower(op.s) {
	case "user", "localgroup", "group":
		for _, a := range args {
			if strings.EqualFold(a.s, "/add") || strings.EqualFold(a.s, "/delete") || strings.EqualFold(a.s, "/del") || strings.EqualFold(a.s, "/active:yes") {
				p.raise(Dangerous, "changes user accounts or groups")
				return
			}
		}
		if len(args) <= 2 {
			return
		}
	case "view", "share", "session", "statistics", "config", "accounts":
		if len(args) <= 1 {
			return
		}
	}
	p.raise(Confirm, "changes Windows network or account settings")
}

// hNetsh handles netsh: showing is safe; turning the Windows firewall off
// or resetting it is dangerous.
func hNetsh(p *part, name string, args []field) {
	words := strings.ToLower(joinFields(args))
	switch {
	case strings.Contains(words, "advfirewall") && (strings.Contains(words, "state off") || strings.Contains(words, " reset") ||
		strings.Contains(words, "allowinbound,allowoutbound") || strings.Contains(words, "firewallpolicy allowinbound")),
		strings.Contains(words, "firewall") && (strings.Contains(words, "opmode disable") || strings.Contains(words, "mode=disable")):
		p.raise(Dangerous, "turns off the Windows firewall")
	case strings.Contains(words, " show") || strings.HasPrefix(words, "show") || strings.Contains(words, " dump"):
	default:
		p.raise(Confirm, "changes Windows network settings")
	}
}

// hWevtutil handles wevtutil: listing and querying logs is safe, clearing
// them is dangerous.
func hWevtutil(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	switch strings.ToLower(op.s) {
	case "cl", "clear-log", "um", "uninstall-manifest":
		p.raise(Dangerous, "clears the system event logs")
	case "el", "enum-logs", "gl", "get-log", "gli", "get-loginfo", "qe", "query-events", "ep", "enum-publishers", "gp", "get-publisher":
	default:
		p.raise(Confirm, "changes the system event logs")
	}
}

// hAuditctl handles auditctl: listing is safe; deleting the rules or
// switching auditing off hides what happens on the machine.
func hAuditctl(p *part, name string, args []field) {
	for i, a := range args {
		switch {
		case a.s == "-D", a.s == "-e" && i+1 < len(args) && args[i+1].s == "0", a.s == "-e0":
			p.raise(Dangerous, "turns system auditing off or deletes its rules")
			return
		case a.s == "-l" || a.s == "-s" || a.s == "-v":
			return
		}
	}
	p.raise(Confirm, "changes system auditing")
}

// hNetFirewall handles the PowerShell firewall cmdlets: switching a
// profile off, or disabling every rule, turns the firewall off.
func hNetFirewall(p *part, name string, args []field) {
	args = psLiterals(p, args)
	for i, a := range args {
		if psParam(a.s, "enabled", 2) {
			v := strings.ToLower(strings.TrimPrefix(a.s[strings.IndexByte(a.s+":", ':'):], ":"))
			if v == "" && i+1 < len(args) {
				v = strings.ToLower(args[i+1].s)
			}
			if v == "false" || v == "$false" || v == "0" {
				p.raise(Dangerous, "turns the Windows firewall off")
				return
			}
		}
		if psParam(a.s, "defaultinboundaction", 8) && i+1 < len(args) && strings.EqualFold(args[i+1].s, "allow") ||
			strings.EqualFold(a.s, "-defaultinboundaction:allow") {
			p.raise(Dangerous, "lets every inbound connection through the Windows firewall")
			return
		}
		if name == "disable-netfirewallrule" && psParam(a.s, "all", 2) {
			p.raise(Dangerous, "disables every firewall rule")
			return
		}
	}
	p.raise(Confirm, "changes the Windows firewall")
}

// hForEachObject handles ForEach-Object { … }: the block is PowerShell code
// run for every item.
func hForEachObject(p *part, name string, args []field) {
	code := strings.TrimSpace(joinFields(args))
	code = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(code, "{"), "}"))
	if code == "" {
		return
	}
	p.powerShellCode(field{s: code, taint: fieldsTaint(args)})
}

// hExecutionPolicy handles Set-ExecutionPolicy: Unrestricted and Bypass
// turn off the checks that stop unsigned and downloaded scripts.
func hExecutionPolicy(p *part, name string, args []field) {
	for _, a := range args {
		switch strings.ToLower(a.s) {
		case "unrestricted", "bypass":
			p.raise(Dangerous, "lets every script run, signed or not ("+a.s+")")
			return
		}
	}
	p.raise(Confirm, "changes the PowerShell execution policy")
}

// hMpPreference handles Add-MpPreference: excluding paths, processes or
// extensions from Windows Defender is turning it off for them.
func hMpPreference(p *part, name string, args []field) {
	for _, a := range args {
		if psParam(a.s, "exclusionpath", 10) || psParam(a.s, "exclusionprocess", 10) || psParam(a.s, "exclusionextension", 10) || psParam(a.s, "exclusionipaddress", 10) {
			p.raise(Dangerous, "excludes files or programs from virus scanning")
			return
		}
	}
	hSecurityOff(p, name, dropDefenderEnables(psLiterals(p, args)))
}

// psLiterals gives PowerShell arguments as typed: the shell parse reads
// $true and $false as variables only known at run time, but to PowerShell
// they are constants. The typed words are used only when they line up one
// to one with the parsed ones; otherwise args are returned unchanged.
func psLiterals(p *part, args []field) []field {
	raw := strings.Fields(p.text)
	if len(raw) != len(args)+1 {
		return args
	}
	out := make([]field, len(args))
	for i, a := range args {
		out[i] = a
		if a.dynamic() {
			switch w := strings.ToLower(raw[i+1]); {
			case w == "$true", w == "$false", strings.HasSuffix(w, ":$true"), strings.HasSuffix(w, ":$false"):
				out[i] = field{s: raw[i+1], taint: a.taint}
			}
		}
	}
	return out
}

// dropDefenderEnables removes Defender switches set to false
// (-DisableRealtimeMonitoring $false), which turn a protection back on:
// their names hold "disable", but they are what a user fixing the machine
// types, not an attack.
func dropDefenderEnables(args []field) []field {
	var out []field
	for i := 0; i < len(args); i++ {
		a := args[i]
		lower := strings.ToLower(a.s)
		if !strings.HasPrefix(lower, "-disable") {
			out = append(out, a)
			continue
		}
		_, v, inline := strings.Cut(lower, ":")
		if !inline && i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "-") {
			v = strings.ToLower(args[i+1].s)
			if v == "$false" || v == "false" || v == "0" {
				i++
				continue
			}
		}
		if inline && (v == "$false" || v == "false" || v == "0") {
			continue
		}
		out = append(out, a)
	}
	return out
}

// hServiceCmdlet handles Stop-Service and Set-Service.
func hServiceCmdlet(p *part, name string, args []field) {
	verb := "stop"
	if name == "set-service" {
		verb = ""
		for i, a := range args {
			if psParam(a.s, "startuptype", 2) && i+1 < len(args) && strings.EqualFold(args[i+1].s, "disabled") || psParam(a.s, "status", 2) && i+1 < len(args) && strings.EqualFold(args[i+1].s, "stopped") {
				verb = "disable"
			}
		}
	}
	var units []field
	for _, a := range args {
		if !strings.HasPrefix(a.s, "-") {
			units = append(units, a)
		}
	}
	p.stopsProtective(verb, units)
	p.raise(Confirm, "changes Windows services")
}

func hStartProcess(p *part, name string, args []field) {
	for i, a := range args {
		if psParam(a.s, "verb", 2) && i+1 < len(args) && strings.EqualFold(args[i+1].s, "runas") {
			p.raise(Dangerous, "elevates to administrator")
		}
	}
	p.raise(Confirm, "starts a program")
}

func hInvokeExpression(p *part, name string, args []field) {
	if len(args) == 0 {
		p.nestedStdin("PowerShell", scriptOpts{})
		return
	}
	code := field{s: joinFields(args), taint: fieldsTaint(args)}
	if anyUnknown(args) {
		// A variable in the text is code too: nobody can read what runs.
		p.raiseSticky(Dangerous, "runs PowerShell code built at run time, which pincer cannot read")
	}
	p.raise(Confirm, "runs PowerShell code built at run time")
	p.powerShellCode(code)
}

// hPSWrite handles Set-Content, Out-File and the other PowerShell cmdlets
// that write a path given by -Path, -FilePath, -Destination or position.
func hPSWrite(p *part, name string, args []field) {
	var targets []field
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if strings.HasPrefix(s, "-") {
			if (psParam(s, "path", 2) || psParam(s, "filepath", 2) || psParam(s, "destination", 2) || psParam(s, "literalpath", 2)) && i+1 < len(args) {
				targets = append(targets, args[i+1])
				i++
			} else if psParam(s, "value", 2) || psParam(s, "itemtype", 2) || psParam(s, "encoding", 2) || psParam(s, "name", 2) || psParam(s, "inputobject", 2) {
				i++
			}
			continue
		}
		if len(targets) == 0 {
			targets = append(targets, args[i])
		}
	}
	if strings.EqualFold(name, "move-item") || strings.EqualFold(name, "mi") || strings.EqualFold(name, "move") {
		p.deletes(targets[:min(1, len(targets))])
	}
	p.writes(targets)
	p.raise(Confirm, "writes files")
}

func hIfconfig(p *part, name string, args []field) {
	if len(args) <= 1 || (len(args) == 1 && args[0].s == "-a") {
		return
	}
	p.raise(Confirm, "changes network interfaces")
}

func hIP(p *part, name string, args []field) {
	for _, a := range args {
		switch a.s {
		case "add", "del", "delete", "set", "flush", "change", "replace", "append", "prepend", "exec", "up", "down":
			p.raise(Confirm, "changes network configuration")
			return
		}
	}
}

func hJournalctl(p *part, name string, args []field) {
	for _, a := range args {
		if strings.HasPrefix(a.s, "--vacuum") {
			p.raise(Dangerous, "deletes system logs")
			return
		}
		if strings.HasPrefix(a.s, "--vacuum") || a.s == "--rotate" || a.s == "--flush" || a.s == "--relinquish-var" || a.s == "--setup-keys" {
			p.raise(Confirm, "changes the system journal")
			return
		}
	}
}

func hDmesg(p *part, name string, args []field) {
	for _, a := range args {
		if a.s == "-c" || a.s == "-C" || a.s == "--clear" || a.s == "--read-clear" || strings.HasPrefix(a.s, "-n") || a.s == "-D" || a.s == "-E" {
			p.raise(Confirm, "changes the kernel log")
			return
		}
	}
}

func hSetOnlyWithArgs(why string, readWords ...string) handler {
	return func(p *part, name string, args []field) {
		op, _ := firstOperand(args)
		if op.s == "" || contains(readWords, op.s) {
			return
		}
		p.raise(Confirm, why)
	}
}

func hDefaults(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	switch op.s {
	case "read", "read-type", "domains", "find", "export", "help", "":
		return
	}
	p.raise(Confirm, "changes application preferences")
}

func hXattr(p *part, name string, args []field) {
	for _, a := range args {
		if strings.HasPrefix(a.s, "-") && strings.ContainsAny(a.s, "dwc") {
			p.raise(Confirm, "changes file attributes")
			return
		}
	}
}

func hFzf(p *part, name string, args []field) {
	for _, a := range args {
		if strings.HasPrefix(a.s, "--preview") || strings.HasPrefix(a.s, "--bind") || strings.HasPrefix(a.s, "--listen") {
			p.raise(Confirm, "runs commands from its key bindings or preview")
			return
		}
	}
}

func hCipher(p *part, name string, args []field) {
	for _, a := range args {
		if len(a.s) >= 2 && (a.s[:2] == "/w" || a.s[:2] == "/W") {
			p.raise(Dangerous, "wipes free disk space")
			return
		}
	}
	p.raise(Confirm, "encrypts or decrypts files")
}

func hSchtasks(p *part, name string, args []field) {
	for i, a := range args {
		switch strings.ToLower(a.s) {
		case "/create":
			p.raise(Dangerous, "schedules commands to run (a scheduled task)")
		case "/tr":
			if i+1 < len(args) {
				p.nestedCommand(args[i+1], scriptOpts{})
			}
		case "/query":
			return
		}
	}
	p.raise(Confirm, "changes scheduled tasks")
}
