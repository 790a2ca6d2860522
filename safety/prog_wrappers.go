package safety

import (
	"regexp"
	"strings"
	"sync"
)

// wrapper returns a handler for programs that run the command that
// follows their options (nice, nohup, timeout, stdbuf, …): the wrapper
// itself is harmless and the command is classified as the next level.
// operands is the number of operands before the command (timeout's duration).
func wrapper(spec optSpec, operands int) handler {
	spec.posix = true
	return func(p *part, name string, args []field) {
		ps := getopt(args, spec)
		rest := args[ps.rest:]
		if len(rest) > 0 && rest[0].s == "--" {
			rest = rest[1:]
		}
		if len(rest) < operands {
			return
		}
		p.run(rest[operands:])
	}
}

func hSudo(p *part, name string, args []field) {
	p.raise(Dangerous, "runs as another user (usually root)")
	spec := optSpec{shortArg: "ugCDprtTUR", longArg: []string{"user", "group", "close-from", "chdir", "prompt", "role", "type", "command-timeout", "other-user", "chroot", "host"}, posix: true}
	switch name {
	case "doas":
		spec = optSpec{shortArg: "uC", posix: true}
	case "pkexec", "run0":
		spec = optSpec{longArg: []string{"user", "description", "slice", "property", "unit", "setenv", "chdir", "nice", "machine"}, shortArg: "uD", posix: true}
	}
	ps := getopt(args, spec)
	rest := args[ps.rest:]
	if name == "sudoedit" || ps.has("e", 0, "edit") {
		p.writes(rest)
		return
	}
	if ps.has("l", 0, "list") || ps.has("vkK", 0, "validate", "reset-timestamp", "remove-timestamp") {
		return
	}
	if len(rest) > 0 && (ps.has("si", 0, "shell", "login")) {
		p.nestedCommand(field{s: joinFields(rest), taint: fieldsTaint(rest)}, scriptOpts{stdin: p.stdin})
		return
	}
	if len(rest) == 0 && ps.has("si", 0, "shell", "login") {
		return
	}
	p.run(rest)
}

func hSu(p *part, name string, args []field) {
	p.raise(Dangerous, "runs as another user (usually root)")
	ps := getopt(args, optSpec{shortArg: "csgGuw", longArg: []string{"command", "session-command", "shell", "group", "supp-group", "user", "whitelist-environment"}})
	for _, code := range ps.values("c", "command", "session-command") {
		p.nestedCommand(field{s: code}, scriptOpts{})
	}
	if name == "runuser" {
		if i := indexOf(args, "--"); i >= 0 && i+1 < len(args) && !ps.has("c", 0, "command") {
			p.run(args[i+1:])
		}
	}
}

func hChroot(p *part, name string, args []field) {
	p.raise(Dangerous, "runs a command inside another root directory (needs root)")
	ps := getopt(args, optSpec{longArg: []string{"userspec", "groups"}, posix: true})
	if len(ps.operands) > 1 {
		p.run(ps.operands[1:])
	}
}

func indexOf(args []field, s string) int {
	for i, a := range args {
		if a.s == s {
			return i
		}
	}
	return -1
}

func hEnv(p *part, name string, args []field) {
	i := 0
	for i < len(args) {
		s := args[i].s
		switch {
		case s == "--":
			i++
			goto command
		case s == "-u" || s == "--unset" || s == "-C" || s == "--chdir":
			i += 2
		case s == "-S" || s == "--split-string" || strings.HasPrefix(s, "--split-string=") || (strings.HasPrefix(s, "-S") && len(s) > 2):
			str := ""
			switch {
			case s == "-S" || s == "--split-string":
				if i+1 < len(args) {
					str = args[i+1].s
				}
				i += 2
			case strings.HasPrefix(s, "--split-string="):
				str = strings.TrimPrefix(s, "--split-string=")
				i++
			default:
				str = s[2:]
				i++
			}
			var fs []field
			for _, w := range strings.Fields(str) {
				fs = append(fs, field{s: w})
			}
			p.run(append(fs, args[min(i, len(args)):]...))
			return
		case strings.HasPrefix(s, "-") && !strings.Contains(s, "="):
			i++
		case strings.Contains(s, "=") && !strings.HasPrefix(s, "=") && !args[i].split:
			k, v, _ := strings.Cut(s, "=")
			p.envAssign(k, v)
			i++
		default:
			goto command
		}
	}
command:
	if i >= len(args) {
		p.raise(Confirm, "prints every environment variable, which often hold secrets")
		return
	}
	p.run(args[i:])
}

func hCommand(p *part, name string, args []field) {
	ps := getopt(args, optSpec{posix: true})
	if ps.has("vV", 0) {
		return
	}
	p.run(args[ps.rest:])
}

func hExec(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "a", posix: true})
	p.run(args[ps.rest:])
}

func hNice(p *part, name string, args []field) {
	i := 0
	for i < len(args) {
		s := args[i].s
		switch {
		case s == "-n" || s == "--adjustment":
			i += 2
		case strings.HasPrefix(s, "-n") || strings.HasPrefix(s, "--adjustment=") || (len(s) > 1 && s[0] == '-' && isDigits(strings.TrimLeft(s[1:], "-+"))):
			i++
		case s == "--":
			i++
			p.run(args[i:])
			return
		default:
			p.run(args[i:])
			return
		}
	}
}

func hTime(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "of", longArg: []string{"output", "format"}, posix: true})
	if o, ok := ps.value("o", 3, "output"); ok {
		p.writes([]field{{s: o}})
	}
	p.run(args[ps.rest:])
}

func hStrace(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "oepPsuSIbEaXU", longArg: []string{"output", "expr", "attach", "trace-path", "string-limit", "user", "summary-sort-by", "env", "columns", "const-print-style", "decode-fds"}, posix: true})
	if o, ok := ps.value("o", 3, "output"); ok {
		p.writes([]field{{s: o}})
	}
	p.raise(Confirm, "traces a program")
	p.run(args[ps.rest:])
}

func hFlock(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "wEc", longArg: []string{"timeout", "conflict-exit-code", "command"}, posix: true})
	rest := args[ps.rest:]
	for _, code := range ps.values("c", "command") {
		p.nestedCommand(field{s: code}, scriptOpts{})
	}
	if len(rest) < 2 {
		return
	}
	if rest[1].s == "-c" || rest[1].s == "--command" {
		if len(rest) > 2 {
			p.nestedCommand(rest[2], scriptOpts{})
		}
		return
	}
	p.run(rest[1:])
}

func hWatch(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "nq", longArg: []string{"interval", "equexit"}, posix: true})
	rest := args[ps.rest:]
	if len(rest) == 0 {
		return
	}
	if ps.has("x", 3, "exec") {
		p.run(rest)
		return
	}
	p.nestedCommand(field{s: joinFields(rest), taint: fieldsTaint(rest)}, scriptOpts{})
}

func hXargs(p *part, name string, args []field) {
	spec := optSpec{shortArg: "adEILnPs", longArg: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var", "max-lines"}, posix: true}
	ps := getopt(args, spec)
	repl := ""
	for _, o := range ps.opts {
		switch {
		case o.name == "I":
			repl = o.val
		case o.name == "i" || (o.long && strings.HasPrefix(o.name, "replace")):
			repl = "{}"
			if o.val != "" {
				repl = o.val
			}
		}
	}
	cmd := args[ps.rest:]
	if len(cmd) == 0 {
		p.out = stream{present: true, taint: p.stdin.taint}
		return
	}
	// The items xargs reads: known when its input is literal text, else one
	// unknown item that may be several words.
	items := []string{unknownMark}
	if p.stdin.exact && !strings.Contains(p.stdin.literal, unknownMark) {
		if repl != "" {
			items = strings.Split(strings.TrimRight(p.stdin.literal, "\n"), "\n")
		} else {
			items = []string{strings.Join(strings.Fields(p.stdin.literal), " ")}
		}
	}
	for i, item := range items {
		if i == 4 {
			break
		}
		var argv []field
		for _, f := range cmd {
			if repl != "" && strings.Contains(f.s, repl) {
				f = field{s: strings.ReplaceAll(f.s, repl, item), taint: f.taint | p.stdin.taint}
			}
			argv = append(argv, f)
		}
		if repl == "" {
			if item == unknownMark {
				argv = append(argv, field{s: unknownMark, split: true, taint: p.stdin.taint})
			} else {
				for _, w := range strings.Fields(item) {
					argv = append(argv, field{s: w})
				}
			}
		}
		p.runBulk(argv)
	}
}

func hParallel(p *part, name string, args []field) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		switch args[i].s {
		case "-j", "-P", "-S", "--jobs", "-a", "--arg-file", "--colsep", "-d", "--delimiter", "-E", "-I", "-n", "-N", "--max-args", "--sshlogin", "--workdir", "--tmpdir", "--results", "--joblog", "--timeout", "--delay", "--halt":
			i += 2
		default:
			i++
		}
	}
	i = min(i, len(args))
	j := i
	for j < len(args) && !strings.HasPrefix(args[j].s, ":::") {
		j++
	}
	cmd := args[i:j]
	if len(cmd) == 0 {
		p.raise(Confirm, "runs commands read from its input")
		return
	}
	if len(cmd) == 1 && strings.ContainsAny(cmd[0].s, " ;|&") {
		p.nestedCommand(cmd[0], scriptOpts{bulk: true})
		return
	}
	var argv []field
	for _, f := range cmd {
		if strings.Contains(f.s, "{") {
			f = field{s: unknownMark, taint: f.taint}
		}
		argv = append(argv, f)
	}
	p.runBulk(append(argv, field{s: unknownMark, split: true}))
}

func hBusybox(p *part, name string, args []field) {
	if len(args) == 0 || strings.HasPrefix(args[0].s, "-") {
		return
	}
	p.run(args)
}

func hScript(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "cEIOBTm", longArg: []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format"}})
	for _, code := range ps.values("c", "command") {
		p.nestedCommand(field{s: code}, scriptOpts{})
	}
	p.writes(ps.operands)
	p.raise(Confirm, "records a terminal session")
}

func hSshpass(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "pfdP", posix: true})
	p.run(args[ps.rest:])
}

// hDebugger handles gdb and lldb: --args (gdb) or -- (lldb) names the
// program it runs.
func hDebugger(p *part, name string, args []field) {
	p.raise(Confirm, "runs a program under a debugger")
	for i, a := range args {
		if a.s == "--args" || a.s == "--" {
			p.run(args[i+1:])
			return
		}
	}
}

// hUnshare runs a command in new namespaces; the command is classified.
func hUnshare(p *part, name string, args []field) {
	p.raise(Confirm, "runs a command in new namespaces")
	ps := getopt(args, optSpec{shortArg: "SGRwl", longArg: []string{"setuid", "setgid", "root", "wd", "propagation", "setgroups", "map-user", "map-group", "map-users", "map-groups", "load-interp"}, posix: true})
	p.run(args[ps.rest:])
}

// hNsenter enters another process's namespaces (which needs root) and runs
// a command there.
func hNsenter(p *part, name string, args []field) {
	p.raise(Dangerous, "enters another process's namespaces")
	ps := getopt(args, optSpec{shortArg: "tSG", longArg: []string{"target", "setuid", "setgid", "env"}, posix: true})
	p.run(args[ps.rest:])
}

// hSetpriv runs a command with other credentials or privileges.
func hSetpriv(p *part, name string, args []field) {
	p.raise(Confirm, "runs a command with other privileges")
	ps := getopt(args, optSpec{longArg: []string{"reuid", "regid", "ruid", "rgid", "euid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule"}, posix: true})
	p.run(args[ps.rest:])
}

// hSystemdRun starts a command as a transient service.
func hSystemdRun(p *part, name string, args []field) {
	p.raise(Confirm, "starts a command as a service")
	ps := getopt(args, optSpec{shortArg: "pEuMHsd", longArg: []string{"property", "setenv", "unit", "machine", "host", "description", "slice", "uid", "gid", "nice", "working-directory", "on-active", "on-boot", "on-startup", "on-unit-active", "on-unit-inactive", "on-calendar", "timer-property", "path-property", "socket-property", "service-type", "expand-environment"}, posix: true})
	if !ps.has("", 0, "user") {
		// The system service manager runs it as root (or --uid), like sudo.
		p.raise(Dangerous, "runs a command through the system service manager, as root or another user")
	}
	p.run(args[ps.rest:])
}

// hSg runs a command with another group: sg group -c 'cmd' or sg group cmd.
func hSg(p *part, name string, args []field) {
	p.raise(Confirm, "runs a command with another group")
	if len(args) < 2 {
		return
	}
	rest := args[1:]
	if rest[0].s == "-c" && len(rest) > 1 {
		p.nestedCommand(rest[1], scriptOpts{})
		return
	}
	p.nestedCommand(field{s: joinFields(rest), taint: fieldsTaint(rest)}, scriptOpts{})
}

// hEntr runs a command whenever files change; -s hands it to the shell.
func hEntr(p *part, name string, args []field) {
	ps := getopt(args, optSpec{posix: true})
	rest := args[ps.rest:]
	if len(rest) == 0 {
		return
	}
	if ps.has("s", 0) {
		p.nestedCommand(rest[0], scriptOpts{})
		return
	}
	p.run(rest)
}

// hPerf runs the command it profiles (perf stat/record/trace CMD).
func hPerf(p *part, name string, args []field) {
	p.raise(Confirm, "profiles a program")
	op, i := firstOperand(args)
	switch op.s {
	case "stat", "record", "trace", "mem", "c2c", "kmem", "lock", "sched", "kvm":
	default:
		return
	}
	ps := getopt(args[i+1:], optSpec{shortArg: "eoCGpatFcrI", longArg: []string{"event", "output", "cpu", "cgroup", "pid", "tid", "freq", "count", "repeat", "call-graph"}, posix: true})
	p.run(args[i+1+ps.rest:])
}

// hRemoteExec handles tools that run a command on another machine or in a
// container after their own words: lxc exec NAME -- CMD, distrobox enter
// NAME -- CMD, toolbox run CMD, vagrant ssh -c CMD.
func hRemoteExec(p *part, name string, args []field) {
	p.raise(Confirm, "runs "+name+", which runs commands in a container or on another machine")
	switch op, _ := firstOperand(args); {
	case name == "vagrant" && op.s == "destroy", name == "lxc" && op.s == "delete":
		p.raise(Dangerous, "deletes a virtual machine or container with its disk, for good")
	}
	if name == "vagrant" {
		for i, a := range args {
			if (a.s == "-c" || a.s == "--command") && i+1 < len(args) {
				p.nestedCommand(args[i+1], scriptOpts{})
			}
		}
		return
	}
	if i := indexOf(args, "--"); i >= 0 {
		p.run(args[i+1:])
		return
	}
	if name == "toolbox" && len(args) > 1 && args[0].s == "run" {
		ps := getopt(args[1:], optSpec{shortArg: "cdr", longArg: []string{"container", "distro", "release"}, posix: true})
		p.run(args[1+ps.rest:])
	}
}

// containerRunSpec lists the options of docker/podman run and create, so
// that the image and the command after it are found.
var containerRunSpec = optSpec{
	shortArg: "acehlmpuvw",
	longArg: []string{"add-host", "annotation", "attach", "blkio-weight", "blkio-weight-device", "cap-add", "cap-drop", "cgroup-parent",
		"cgroupns", "cgroups", "cidfile", "cpu-count", "cpu-percent", "cpu-period", "cpu-quota", "cpu-rt-period", "cpu-rt-runtime",
		"cpu-shares", "cpus", "cpuset-cpus", "cpuset-mems", "device", "device-cgroup-rule", "device-read-bps", "device-read-iops",
		"device-write-bps", "device-write-iops", "dns", "dns-option", "dns-search", "domainname", "entrypoint", "env", "env-file",
		"expose", "gpus", "group-add", "health-cmd", "health-interval", "health-retries", "health-start-interval",
		"health-start-period", "health-timeout", "hostname", "ip", "ip6", "ipc", "isolation", "kernel-memory", "label",
		"label-file", "link", "link-local-ip", "log-driver", "log-opt", "mac-address", "memory", "memory-reservation",
		"memory-swap", "memory-swappiness", "mount", "name", "network", "net", "network-alias", "net-alias", "oom-score-adj",
		"pid", "pids-limit", "platform", "publish", "pull", "restart", "runtime", "security-opt", "shm-size", "stop-signal",
		"stop-timeout", "storage-opt", "sysctl", "tmpfs", "ulimit", "user", "userns", "uts", "volume", "volume-driver",
		"volumes-from", "workdir", "detach-keys", "pod", "secret", "arch", "os", "variant", "systemd", "seccomp-policy",
		"image-volume", "hooks-dir", "timezone", "umask", "init-path", "cgroup-conf", "personality", "requires", "sdnotify",
		"chrootdirs", "conmon-pidfile", "preserve-fds", "passwd-entry", "group-entry", "uidmap", "gidmap", "subuidname", "subgidname"},
	posix: true,
}

// hContainer adds to the docker handler what the command inside a
// container and mass removals do: the command given to docker run/create
// or docker compose exec/run is classified like any other, and forced
// removal of a list of containers, or pruning everything, is dangerous.
func hContainer(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "cHl", longArg: []string{"context", "host", "log-level", "config", "tlscacert", "tlscert", "tlskey"}, posix: true})
	ops := args[ps.rest:]
	if len(ops) > 0 && ops[0].s == "compose" && p.composeCommand(ops[1:]) {
		return
	}
	hDocker(p, name, args)
	if len(ops) < 2 {
		return
	}
	sub, rest := ops[0].s, ops[1:]
	if (sub == "container" || sub == "image" || sub == "system") && len(rest) > 0 {
		sub, rest = sub+" "+rest[0].s, rest[1:]
	}
	switch sub {
	case "run", "create", "container run", "container create":
		run := getopt(rest, containerRunSpec)
		for _, hc := range run.values("", "health-cmd") {
			p.nestedCommand(field{s: hc}, scriptOpts{})
		}
		if len(run.operands) == 0 {
			return
		}
		cmd := run.operands[1:]
		if ep, ok := run.value("", 0, "entrypoint"); ok && ep != "" {
			cmd = append([]field{{s: ep}}, cmd...)
		}
		p.run(cmd)
	case "rm", "container rm":
		rm := getopt(rest, optSpec{})
		if rm.has("v", 0, "volumes") {
			p.raise(Dangerous, "removes containers and their volumes (data)")
		}
		if rm.has("f", 0, "force") && anyComputed(rm.operands) {
			p.raise(Dangerous, "forcibly removes every container a substitution lists, running ones too")
		}
	case "rmi", "image rm":
		if getopt(rest, optSpec{}).has("f", 0, "force") && anyComputed(getopt(rest, optSpec{}).operands) {
			p.raise(Dangerous, "forcibly removes every image a substitution lists")
		}
	case "system prune":
		if getopt(rest, optSpec{}).has("a", 0, "all") {
			p.raise(Dangerous, "deletes every unused container, image, network and build cache")
		}
	}
}

// composeCommand handles docker compose exec/run SERVICE CMD, which run CMD
// in the service's container. It reports whether it handled the words.
func (p *part) composeCommand(args []field) bool {
	ps := getopt(args, optSpec{shortArg: "fp", longArg: []string{"file", "project-name", "profile", "env-file", "project-directory", "ansi", "parallel"}, posix: true})
	ops := args[ps.rest:]
	if len(ops) == 0 || (ops[0].s != "exec" && ops[0].s != "run") {
		return false
	}
	p.raise(Confirm, "runs a command in a container")
	sub := getopt(ops[1:], optSpec{shortArg: "euwpvl", longArg: []string{"env", "user", "workdir", "index", "name", "publish", "volume", "label", "entrypoint", "cap-add", "cap-drop", "pull", "env-from-file"}, posix: true})
	if len(sub.operands) > 1 {
		p.run(sub.operands[1:])
	}
	return true
}

func hDockerCompose(p *part, name string, args []field) {
	if !p.composeCommand(args) {
		subcommands(composeSpec)(p, name, args)
	}
}

// anyComputed reports a field whose text comes from a substitution or a
// variable, such as the container ids of $(docker ps -aq).
func anyComputed(fs []field) bool {
	for _, f := range fs {
		if f.computed || f.dynamic() {
			return true
		}
	}
	return false
}

// hKube adds to the kubectl handler the command of kubectl run and debug
// (after --), which runs in a new pod.
func hKube(p *part, name string, args []field) {
	hKubectl(p, name, args)
	op, _ := firstOperand(args)
	if ps := getopt(args, kubectlGlobal); ps.rest < len(args) {
		op = args[ps.rest]
	}
	if op.s == "run" || op.s == "debug" {
		if i := indexOf(args, "--"); i >= 0 && i+1 < len(args) {
			p.run(args[i+1:])
		}
	}
}

// hCloudShell adds to the cloud CLI handler the command of gcloud compute
// ssh --command, which runs on the instance, and what aws s3 and gsutil
// copy up from this machine.
func hCloudShell(p *part, name string, args []field) {
	hCloud(p, name, args)
	var ops []field
	for _, a := range args {
		if !strings.HasPrefix(a.s, "-") {
			ops = append(ops, a)
		}
	}
	if len(ops) > 3 && (ops[0].s == "s3" || ops[0].s == "storage") && (ops[1].s == "cp" || ops[1].s == "sync" || ops[1].s == "mv") {
		dest := ops[len(ops)-1].s
		if strings.Contains(dest, "://") {
			for _, src := range ops[2 : len(ops)-1] {
				if !strings.Contains(src.s, "://") {
					p.uploads(src.s)
				}
			}
		}
	}
	for i, a := range args {
		switch {
		case a.s == "--command" && i+1 < len(args):
			p.raise(Confirm, "runs commands on another machine")
			p.nestedCommand(args[i+1], scriptOpts{})
		case strings.HasPrefix(a.s, "--command="):
			p.raise(Confirm, "runs commands on another machine")
			p.nestedCommand(field{s: strings.TrimPrefix(a.s, "--command="), taint: a.taint}, scriptOpts{})
		}
	}
}

// hMake handles make: it runs the recipes of a Makefile, so it is at least
// Confirm; when the Makefile (or --eval text) is written out in the same
// command, its recipes are classified as the commands they are.
func hMake(p *part, name string, args []field) {
	p.raise(Confirm, "runs the project's code or build")
	ps := getopt(args, optSpec{shortArg: "CfIoWE", longArg: []string{"directory", "file", "makefile", "include-dir", "old-file", "assume-old", "what-if", "new-file", "assume-new", "eval"}})
	dir := ""
	if d, ok := ps.value("C", 3, "directory"); ok {
		dir = d + "/"
	}
	files := ps.values("f", "file", "makefile")
	if len(files) == 0 {
		files = []string{"GNUmakefile", "makefile", "Makefile"}
	}
	for _, f := range files {
		if !strings.HasPrefix(f, "/") && !strings.HasPrefix(f, "~") {
			f = dir + f
		}
		if text, ok := p.w.sh.wrote[p.w.resolve(f).path]; ok {
			p.makeRecipes(text)
			break
		}
	}
	for _, e := range ps.values("E", "eval") {
		p.makeRecipes(e)
	}
	// A makefile, an include directory or a directory to run in outside
	// the project is code the person's rule for make did not mean.
	for _, o := range []struct{ short, long, alt string }{{"f", "file", "makefile"}, {"I", "include-dir", ""}, {"C", "directory", ""}} {
		for _, v := range ps.values(o.short, o.long, o.alt) {
			if l := p.w.resolve(v); !l.project || l.unknown {
				p.raiseSticky(Confirm, "runs make with "+display(v)+" (-"+o.short+"), outside the project")
			}
		}
	}
	// NAME=value on make's command line overrides the Makefile: SHELL is
	// the program every recipe runs with, MAKE the one $(MAKE) runs, and
	// CC, GOFLAGS and the rest what the build runs, as in the environment.
	for _, op := range ps.operands {
		name, val, ok := strings.Cut(op.s, "=")
		name = strings.TrimRight(name, ":+?")
		if !ok || name == "" || strings.ContainsAny(name, " \t/$") {
			continue
		}
		switch {
		case name == "SHELL" || name == "MAKE" || name == "MAKESHELL":
			p.raiseSticky(Confirm, "sets "+name+", a program make runs")
			p.nestedCommand(field{s: val, taint: op.taint}, scriptOpts{program: true})
		case name == "MAKEFLAGS" || name == "MFLAGS" || name == "MAKEFILES" || name == "GNUMAKEFLAGS":
			p.raiseSticky(Confirm, "sets "+name+", which adds options or makefiles make reads")
		case name == ".SHELLFLAGS":
			p.raiseSticky(Confirm, "sets .SHELLFLAGS, the options every recipe's shell runs with")
		case toolEnvVar(name):
			p.toolEnv(name, val)
		}
	}
}

var (
	makeShellRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$[({]shell\s+([^(){}]*)[)}]`) })
	makeRefRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\([^()]*\)|\$\{[^{}]*\}|\$[@<^*?%+|a-zA-Z]`) })
)

// makeRecipes classifies the shell commands of Makefile text: recipe
// lines, inline recipes (target: ; cmd) and $(shell …) calls. Make
// variables become text only known at run time.
func (p *part) makeRecipes(text string) {
	text = strings.ReplaceAll(text, "\\\n", " ")
	lines := strings.Split(text, "\n")
	if len(lines) > 500 {
		lines = lines[:500]
	}
	for _, line := range lines {
		var cmds []string
		for _, m := range makeShellRe().FindAllStringSubmatch(line, 8) {
			cmds = append(cmds, m[1])
		}
		switch {
		case strings.HasPrefix(line, "\t"):
			cmds = append(cmds, line[1:])
		case strings.Contains(line, ":") && strings.Contains(line, ";") && !strings.Contains(line, "=") && !strings.HasPrefix(strings.TrimSpace(line), "#"):
			cmds = append(cmds, line[strings.IndexByte(line, ';')+1:])
		}
		for _, c := range cmds {
			c = strings.TrimLeft(c, "@-+ \t")
			c = strings.ReplaceAll(c, "$$", "\x01")
			c = makeShellRe().ReplaceAllString(c, "$$($1)")
			c = makeRefRe().ReplaceAllStringFunc(c, func(ref string) string {
				if strings.HasPrefix(ref, "$(") && !strings.Contains(ref, " ") {
					return unknownParam
				}
				if strings.HasPrefix(ref, "$(") {
					return ref // a $(shell …) turned back into a substitution
				}
				return unknownParam
			})
			c = strings.ReplaceAll(c, "\x01", "$")
			if strings.TrimSpace(c) != "" {
				p.nestedCommand(field{s: c}, scriptOpts{})
			}
		}
	}
}
