package safety

import "strings"

// subSpec describes a program with subcommands (npm install, docker ps).
type subSpec struct {
	safe      []string          // read-only subcommands; "config get" names two words
	change    []string          // two-word forms that need approval although their first word is safe (audit fix)
	dangerous map[string]string // subcommand (or two words) → why it is dangerous
	run       []string          // subcommands followed by a command they run (poetry run CMD)
	why       string            // reason for any other subcommand
	global    optSpec           // options that may come before the subcommand
	noArgs    bool              // the program alone does something (not just print help)
	runs      []string          // long options whose value is a program the tool runs (pip --python)
	configs   []string          // long options whose value is configuration that can name programs (cargo --config)
	writes    []string          // long options whose value is a file the tool writes (pip --log)
}

// toolOptions looks for the options of a subSpec that name a program, a
// configuration or a file to write, wherever they are on the command line.
func (p *part) toolOptions(args []field, s subSpec) {
	for i, a := range args {
		name, val, has := strings.Cut(strings.TrimPrefix(a.s, "--"), "=")
		if !strings.HasPrefix(a.s, "--") {
			continue
		}
		if !has && i+1 < len(args) {
			val = args[i+1].s
		}
		switch {
		case contains(s.runs, name):
			// A version request (3.12, pypy) names no file; a path does.
			if strings.ContainsAny(val, "/\\"+unknownMark) {
				p.raiseSticky(Confirm, "runs "+display(val)+" (--"+name+")")
				p.nestedCommand(field{s: val}, scriptOpts{program: true})
			}
		case contains(s.configs, name):
			p.raiseSticky(Confirm, "uses the configuration "+display(val)+", which can name programs to run")
		case contains(s.writes, name):
			p.writes([]field{{s: val}})
		}
	}
}

func subcommands(s subSpec) handler {
	s.global.posix = true
	return func(p *part, name string, args []field) {
		p.toolOptions(args, s)
		ps := getopt(args, s.global)
		ops := args[ps.rest:]
		if len(ops) == 0 {
			if s.noArgs {
				p.raise(Confirm, s.why)
			}
			return
		}
		if !ops[0].known() {
			p.raise(Confirm, "runs a "+name+" subcommand only known at run time")
			return
		}
		one := ops[0].s
		two := one
		if len(ops) > 1 {
			two = one + " " + ops[1].s
		}
		if why, ok := s.dangerous[two]; ok {
			p.raise(Dangerous, why)
			return
		}
		if why, ok := s.dangerous[one]; ok {
			p.raise(Dangerous, why)
			return
		}
		if contains(s.change, two) {
			p.raise(Confirm, s.why)
			return
		}
		if contains(s.safe, two) || contains(s.safe, one) {
			return
		}
		if contains(s.run, one) {
			rest := ops[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") && rest[0].s != "--" {
				rest = rest[1:]
			}
			if len(rest) > 0 && rest[0].s == "--" {
				rest = rest[1:]
			}
			if len(rest) == 0 {
				p.raise(Confirm, s.why)
				return
			}
			p.run(rest)
			return
		}
		p.raise(Confirm, s.why)
	}
}

func hGo(p *part, name string, args []field) {
	// go -C dir, first of all, runs in another directory (and module).
	if len(args) > 0 && (args[0].s == "-C" || strings.HasPrefix(args[0].s, "-C=")) {
		dir, _ := strings.CutPrefix(args[0].s, "-C=")
		n := 1
		if args[0].s == "-C" {
			if len(args) > 1 {
				dir = args[1].s
			}
			n = 2
		}
		if l := p.w.resolve(dir); !l.project || l.unknown {
			p.raiseSticky(Confirm, "runs go in "+display(dir)+", another module whose files decide what it runs")
		}
		args = args[min(n, len(args)):]
	}
	op, i := firstOperand(args)
	rest := args[i+1:]
	tuned := p.goFlags(rest)
	switch op.s {
	case "", "version", "help", "list", "vet":
		if tuned != "" {
			p.raise(Confirm, "passes "+tuned+" to the Go toolchain")
		}
		return
	case "doc":
		for _, a := range rest {
			if a.s == "-http" || strings.HasPrefix(a.s, "-http=") || a.s == "--http" {
				p.raise(Confirm, "starts a documentation server and opens a browser")
			}
		}
		return
	case "env":
		for _, a := range rest {
			if a.s == "-w" || a.s == "-u" {
				p.raise(Confirm, "changes Go's settings")
			}
		}
		return
	case "mod":
		sub, _ := firstOperand(rest)
		switch sub.s {
		case "graph", "why", "verify", "":
			return
		case "edit":
			for _, a := range rest {
				if a.s == "-json" || a.s == "-print" {
					return
				}
			}
		}
		p.raise(Confirm, "changes module files")
		return
	case "test":
		p.raise(Confirm, "builds and runs tests")
		return
	case "run":
		p.raise(Confirm, "builds and runs a program")
		return
	case "generate":
		p.raise(Confirm, "runs the commands in //go:generate lines")
		return
	}
	p.raise(Confirm, "runs go "+display(op.s))
}

// goValueFlags are the go command's flags that take a value.
var goValueFlags = map[string]bool{
	"o": true, "p": true, "asmflags": true, "buildmode": true, "buildvcs": true, "compiler": true, "gccgoflags": true,
	"gcflags": true, "installsuffix": true, "ldflags": true, "mod": true, "modfile": true, "overlay": true, "pgo": true,
	"pkgdir": true, "tags": true, "toolexec": true, "exec": true, "vettool": true, "run": true, "bench": true,
	"count": true, "timeout": true, "cpu": true, "parallel": true, "coverprofile": true, "cpuprofile": true,
	"memprofile": true, "blockprofile": true, "mutexprofile": true, "trace": true, "outputdir": true, "f": true,
	"covermode": true, "coverpkg": true, "fuzz": true, "fuzztime": true, "skip": true, "shuffle": true, "benchtime": true,
	"memprofilerate": true, "blockprofilerate": true, "mutexprofilefraction": true, "fuzzminimizetime": true,
	"reuse": true, "C": true, "debug-trace": true, "fmt": true,
}

// goFlags looks at the go command's flags: those that name a program
// (-toolexec, -exec, -vettool) are classified as commands, those that name
// an output file are writes. It returns the first flag that changes how
// the toolchain builds (compiler or linker flags, another go.mod, a
// package directory, -mod=mod), which a read-only subcommand must not take.
func (p *part) goFlags(args []field) string {
	tuned := ""
	for j := 0; j < len(args); j++ {
		s := args[j].s
		if !strings.HasPrefix(s, "-") || s == "-" {
			continue
		}
		if s == "--" || s == "-args" || s == "--args" {
			break
		}
		name, val, has := strings.Cut(strings.TrimLeft(s, "-"), "=")
		if !has && goValueFlags[name] && j+1 < len(args) {
			j++
			val = args[j].s
		}
		switch name {
		case "toolexec", "exec", "vettool":
			p.raiseSticky(Confirm, "runs "+display(val)+" (-"+name+")")
			p.nestedCommand(field{s: val, taint: args[j].taint}, scriptOpts{program: true})
		case "o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir", "debug-trace":
			if val != "" && val != "-" {
				p.writes([]field{{s: val}})
			}
		case "ldflags", "gcflags", "asmflags", "gccgoflags", "compiler", "modfile", "pkgdir", "overlay", "pgo":
			if tuned == "" {
				tuned = "-" + name
			}
		case "mod":
			if val != "readonly" && val != "vendor" && tuned == "" {
				tuned = "-mod=" + val
			}
		}
	}
	return tuned
}

// goHarmlessFlags reports GOFLAGS that only select what is built and how
// it is reported, never another program, file or module mode.
func goHarmlessFlags(flags []string) bool {
	for _, f := range flags {
		name, val, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		switch name {
		case "v", "x", "race", "msan", "asan", "count", "tags", "trimpath", "buildvcs", "p", "cover", "covermode",
			"short", "timeout", "failfast", "json", "a", "n", "work", "buildmode", "cpu", "parallel", "shuffle":
		case "mod":
			if val != "readonly" && val != "vendor" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Subcommand tables of common tools.
var (
	npmSpec = subSpec{
		safe: []string{"ls", "list", "ll", "la", "view", "v", "info", "show", "outdated", "version", "help", "root", "prefix",
			"bin", "explain", "why", "search", "config get", "config list", "config ls", "get", "doctor", "fund", "query", "pkg get",
			"audit", "help-search", "whoami", "ping", "-v", "--version", "owner ls"},
		change: []string{"audit fix", "config set", "config delete", "config edit", "pkg set", "pkg delete", "owner add", "owner rm"},
		run:    []string{"exec", "x"},
		why:    "runs npm, which may run package scripts",
		global: optSpec{shortArg: "C", longArg: []string{"prefix", "workspace", "userconfig"}},
	}
	yarnSpec = subSpec{
		safe: []string{"list", "why", "info", "versions", "config get", "config list", "bin", "outdated", "audit", "licenses list", "workspaces info", "-v", "--version", "help"},
		run:  []string{"exec"},
		why:  "runs yarn, which may run package scripts", noArgs: true,
		global: optSpec{longArg: []string{"cwd"}},
	}
	pnpmSpec = subSpec{
		safe:   []string{"ls", "list", "ll", "why", "outdated", "root", "bin", "config get", "config list", "audit", "licenses list", "-v", "--version", "help", "view", "info"},
		run:    []string{"exec"},
		why:    "runs pnpm, which may run package scripts",
		global: optSpec{shortArg: "C", longArg: []string{"dir", "filter"}},
	}
	pipxSpec = subSpec{safe: []string{"list", "environment", "--version"}, why: "installs or runs Python applications"}
	uvSpec   = subSpec{
		runs: []string{"python"}, configs: []string{"config-file"},
		safe: []string{"pip list", "pip show", "pip freeze", "pip tree", "pip check", "tree", "python list", "python find", "version", "--version", "help", "tool list", "cache dir"},
		run:  []string{"run"},
		why:  "runs uv, which may install packages", global: optSpec{longArg: []string{"directory", "project", "cache-dir", "python"}},
	}
	poetrySpec = subSpec{
		safe: []string{"show", "--version", "-V", "env info", "env list", "check", "config --list", "version", "about", "help", "search"},
		run:  []string{"run"}, why: "runs poetry, which may install packages",
		global: optSpec{shortArg: "C", longArg: []string{"directory", "project"}},
	}
	runToolSpec = subSpec{
		safe: []string{"--version", "version", "list", "help", "info", "show", "env list"},
		run:  []string{"run", "exec", "x"}, why: "runs a project tool",
	}
	// Every bundle command but version and help evaluates the Gemfile,
	// which is Ruby code.
	bundleSpec = subSpec{safe: []string{"version", "--version", "help"}, run: []string{"exec"}, why: "evaluates the Gemfile (Ruby code), installs gems or runs a command"}
	gemSpec    = subSpec{safe: []string{"list", "search", "info", "env", "contents", "which", "specification", "--version", "help", "query", "dependency"}, why: "installs or removes gems"}
	cargoSpec  = subSpec{
		configs: []string{"config"},
		safe:    []string{"tree", "metadata", "--version", "-V", "version", "help", "search", "pkgid", "locate-project", "verify-project", "read-manifest", "--list", "info"},
		why:     "builds or runs Rust code (build scripts run too)", global: optSpec{shortArg: "Z", longArg: []string{"config", "color"}},
	}
	brewSpec = subSpec{
		safe: []string{"list", "ls", "info", "search", "--version", "config", "deps", "uses", "leaves", "outdated", "--prefix", "--cellar",
			"--repository", "--cache", "desc", "doctor", "commands", "--env", "shellenv", "tap-info", "services list", "formulae", "casks"},
		why: "installs, removes or updates software",
	}
	aptSpec     = subSpec{safe: []string{"list", "search", "show", "policy", "depends", "rdepends", "madison", "showsrc", "--version", "help", "changelog"}, why: "installs, removes or updates system packages", global: optSpec{shortArg: "oct"}}
	dnfSpec     = subSpec{safe: []string{"list", "info", "search", "repolist", "provides", "whatprovides", "history", "check-update", "deplist", "repoquery", "--version", "help"}, why: "installs, removes or updates system packages"}
	apkSpec     = subSpec{safe: []string{"info", "search", "list", "policy", "dot", "stats", "--version"}, why: "installs, removes or updates system packages"}
	snapSpec    = subSpec{safe: []string{"list", "info", "find", "version", "connections", "services", "changes", "--version"}, why: "installs, removes or updates system packages"}
	portSpec    = subSpec{safe: []string{"installed", "info", "search", "list", "outdated", "deps", "contents", "version", "echo"}, why: "installs, removes or updates system packages"}
	composeSpec = subSpec{
		safe:      []string{"ps", "logs", "config", "ls", "images", "top", "version", "events", "port"},
		dangerous: map[string]string{"down -v": "removes the project's containers and their volumes (data)", "down --volumes": "removes the project's containers and their volumes (data)", "rm -v": "removes containers and their volumes"},
		run:       []string{"exec", "run"}, why: "changes containers",
		global: optSpec{shortArg: "fp", longArg: []string{"file", "project-name", "profile", "env-file", "project-directory", "ansi", "parallel"}},
	}
	kubectlSpec = subSpec{
		configs: []string{"kubeconfig"},
		safe: []string{"get", "describe", "logs", "top", "version", "explain", "api-resources", "api-versions", "cluster-info",
			"config view", "config get-contexts", "config current-context", "config get-clusters", "config get-users", "auth can-i", "auth whoami", "events", "diff", "wait",
			"rollout status", "rollout history"},
		dangerous: map[string]string{"delete namespace": "deletes a namespace and everything in it", "delete ns": "deletes a namespace and everything in it", "delete all": "deletes every resource of a namespace"},
		why:       "changes the cluster", global: optSpec{shortArg: "ns", longArg: []string{"namespace", "context", "kubeconfig", "cluster", "user", "server", "token"}},
	}
	helmSpec = subSpec{
		configs: []string{"kubeconfig"},
		safe:    []string{"list", "ls", "status", "get", "show", "search", "version", "history", "template", "lint", "env", "repo list", "dependency list", "plugin list"},
		why:     "changes releases in the cluster", global: optSpec{shortArg: "n", longArg: []string{"namespace", "kube-context", "kubeconfig"}},
	}
	terraformSpec = subSpec{
		safe:      []string{"version", "show", "output", "validate", "providers", "graph", "state list", "state show", "workspace list", "workspace show", "fmt -check", "-version", "--version", "help", "console"},
		dangerous: map[string]string{"destroy": "destroys the managed infrastructure", "apply -destroy": "destroys the managed infrastructure", "state rm": "stops managing resources", "workspace delete": "deletes a workspace"},
		why:       "plans or changes infrastructure",
		global:    optSpec{longArg: []string{"chdir"}},
	}
)

var pipSpec = subSpec{
	runs:   []string{"python"},
	writes: []string{"log", "log-file", "log-explicit-levels"},
	safe:   []string{"list", "show", "freeze", "check", "--version", "-V", "help", "config list", "config get", "index versions", "inspect", "debug", "cache list", "cache dir", "cache info", "search", "hash"},
	why:    "installs or removes Python packages",
	global: optSpec{longArg: []string{"python", "log", "proxy", "retries", "timeout", "exists-action", "trusted-host", "cert", "client-cert", "cache-dir"}},
}

func hPip(p *part, name string, args []field) { subcommands(pipSpec)(p, name, args) }

func hDocker(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "cHl", longArg: []string{"context", "host", "log-level", "config", "tlscacert", "tlscert", "tlskey"}, posix: true})
	ops := args[ps.rest:]
	if len(ops) == 0 {
		return
	}
	sub := ops[0].s
	rest := ops[1:]
	obj := ""
	if len(rest) > 0 {
		obj = rest[0].s
	}
	switch sub {
	case "ps", "images", "inspect", "logs", "version", "info", "top", "port", "diff", "history", "search", "events", "stats", "--version", "help":
		return
	case "image", "container", "network", "volume", "system", "context", "buildx", "manifest", "node", "service", "secret", "config", "plugin", "trust", "builder":
		switch obj {
		case "ls", "list", "inspect", "history", "logs", "top", "port", "diff", "stats", "df", "info", "events", "show", "version", "ps":
			return
		}
		if (sub == "volume" && (obj == "rm" || obj == "remove" || obj == "prune")) ||
			(sub == "system" && obj == "prune" && hasWord(rest, "--volumes")) {
			p.raise(Dangerous, "deletes volumes and the data in them")
			return
		}
		if sub == "container" && (obj == "run" || obj == "create") {
			p.dockerRun(rest[1:])
		}
		p.raise(Confirm, "changes Docker "+sub+"s")
		return
	case "compose":
		subcommands(composeSpec)(p, "docker compose", rest)
		return
	case "run", "create":
		p.dockerRun(rest)
		p.raise(Confirm, "runs a container")
		return
	case "exec":
		p.raise(Confirm, "runs a command in a container")
		ps := getopt(rest, optSpec{shortArg: "euwd", longArg: []string{"env", "user", "workdir", "detach-keys", "env-file"}, posix: true})
		if len(ps.operands) > 1 {
			p.run(ps.operands[1:])
		}
		return
	}
	p.raise(Confirm, "runs docker "+display(sub))
}

func hasWord(fs []field, w string) bool {
	for _, f := range fs {
		if f.s == w {
			return true
		}
	}
	return false
}

// dockerRun raises for containers given control of the host.
func (p *part) dockerRun(args []field) {
	ps := getopt(args, optSpec{shortArg: "vepwuhlmc", longArg: []string{"volume", "mount", "env", "publish", "workdir", "user", "hostname", "label", "memory", "name", "network", "net", "pid", "ipc", "userns", "cap-add", "security-opt", "device", "entrypoint", "platform", "env-file", "uts", "cgroupns"}, posix: true})
	if ps.has("", 0, "privileged") {
		p.raise(Dangerous, "runs a privileged container, which controls the host")
	}
	for _, v := range append(ps.values("v", "volume"), ps.values("", "mount")...) {
		src := v
		if strings.Contains(v, "source=") || strings.Contains(v, "src=") {
			for _, kv := range strings.Split(v, ",") {
				if k, val, ok := strings.Cut(kv, "="); ok && (k == "source" || k == "src") {
					src = val
				}
			}
		} else {
			src, _, _ = strings.Cut(v, ":")
		}
		l := placePath(src, "")
		if l.path == "/" || l.path == "/var/run/docker.sock" || l.path == "/run/docker.sock" || sensitiveLoc(l) != "" || l.path == "~" {
			p.raise(Dangerous, "mounts "+display(src)+" from the host into the container")
		}
	}
	for _, k := range []string{"pid", "userns", "ipc", "uts", "cgroupns"} {
		if v, ok := ps.value("", 0, k); ok && v == "host" {
			p.raise(Dangerous, "shares the host's "+k+" namespace with the container")
		}
	}
	for _, c := range ps.values("", "cap-add") {
		if strings.EqualFold(c, "ALL") || strings.EqualFold(c, "SYS_ADMIN") || strings.EqualFold(c, "SYS_PTRACE") || strings.EqualFold(c, "SYS_MODULE") {
			p.raise(Dangerous, "gives the container the "+c+" capability")
		}
	}
	if len(ps.values("", "device")) > 0 {
		p.raise(Dangerous, "gives the container a host device")
	}
}

// hCloud handles aws, gcloud and az: listing and describing are safe,
// deleting or terminating resources is dangerous.
func hCloud(p *part, name string, args []field) {
	var ops []string
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if strings.HasPrefix(s, "-") {
			if s == "--version" || s == "--help" || s == "help" {
				return
			}
			continue
		}
		ops = append(ops, s)
	}
	joined := strings.Join(ops, " ")
	for _, a := range args {
		if a.s == "--recursive" && strings.Contains(joined, "s3 rm") {
			p.raise(Dangerous, "deletes every object under a prefix")
			return
		}
		if (a.s == "--force" && strings.Contains(joined, "s3 rb")) || (a.s == "--delete" && strings.Contains(joined, "s3 sync")) {
			p.raise(Dangerous, "deletes cloud storage")
			return
		}
	}
	for _, op := range ops {
		if op == "delete" || strings.HasPrefix(op, "delete-") || strings.HasPrefix(op, "terminate") || op == "destroy" || op == "purge" {
			p.raise(Dangerous, "deletes cloud resources")
			return
		}
	}
	if len(ops) == 0 || cloudRead(name, ops) {
		return
	}
	p.raise(Confirm, "changes cloud resources, or reads secrets")
}

// cloudRead reports a cloud command that only lists or describes. The
// operation must be in its place: aws SERVICE OPERATION, and for gcloud and
// az the first verb after the command groups. A word that only names a
// file or an object elsewhere in the command (aws s3 cp ./list s3://x)
// does not count.
func cloudRead(name string, ops []string) bool {
	readVerb := func(op string) bool {
		return op == "ls" || op == "list" || op == "describe" || op == "show" || op == "get-caller-identity" ||
			strings.HasPrefix(op, "describe-") || strings.HasPrefix(op, "list-") || op == "info" || op == "version" ||
			op == "get-value" || op == "list-profiles"
	}
	if name == "aws" {
		switch {
		case len(ops) == 1:
			return ops[0] == "help"
		case ops[0] == "configure":
			return ops[1] == "list" || ops[1] == "list-profiles"
		}
		return readVerb(ops[1])
	}
	for i, op := range ops {
		if i == 0 && (op == "info" || op == "version") {
			return true
		}
		if readVerb(op) {
			if name == "az" && op == "show" && (contains(ops[:i], "secret") || contains(ops[:i], "secrets")) {
				return false // az keyvault secret show prints the secret
			}
			return i > 0
		}
		// Command groups are plain lower-case words; anything else is an
		// operation or an argument, and it came first.
		for _, c := range op {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
		if cloudVerb(op) {
			return false
		}
	}
	return false
}

// cloudVerb lists operations of gcloud and az that change resources or
// print credentials; a group of that name does not exist.
func cloudVerb(op string) bool {
	switch op {
	case "cp", "mv", "rm", "rsync", "sync", "create", "delete", "update", "set", "unset", "deploy", "ssh", "scp",
		"start", "stop", "restart", "reset", "resize", "import", "export", "run", "submit", "apply", "patch", "enable",
		"disable", "login", "logout", "activate", "access", "upload", "download", "copy", "move", "purge", "invoke",
		"print-access-token", "print-identity-token", "get-access-token", "get-credentials", "add", "remove":
		return true
	}
	return strings.HasPrefix(op, "add-") || strings.HasPrefix(op, "remove-") || strings.HasPrefix(op, "get-") ||
		strings.HasPrefix(op, "set-") || strings.HasPrefix(op, "create-") || strings.HasPrefix(op, "delete-")
}

func hGh(p *part, name string, args []field) {
	var ops []string
	for _, a := range args {
		if !strings.HasPrefix(a.s, "-") {
			ops = append(ops, a.s)
		}
	}
	if len(ops) == 0 {
		return
	}
	two := ops[0]
	if len(ops) > 1 {
		two += " " + ops[1]
	}
	switch two {
	case "repo delete", "repo archive":
		p.raise(Dangerous, "deletes or archives a repository")
		return
	}
	if ops[0] == "api" {
		for _, a := range args {
			s := a.s
			if s == "-X" || s == "--method" || strings.HasPrefix(s, "--method=") || strings.HasPrefix(s, "-X") && len(s) > 2 ||
				s == "-f" || s == "-F" || s == "--field" || s == "--raw-field" || s == "--input" {
				p.raise(Confirm, "sends a request that may change GitHub data")
				return
			}
		}
		return
	}
	if ops[0] == "status" || ops[0] == "search" || ops[0] == "version" || ops[0] == "help" {
		return
	}
	if len(ops) > 1 {
		switch ops[1] {
		case "list", "view", "status", "diff", "checks", "watch", "ls":
			return
		}
		if two == "auth status" {
			return
		}
	}
	p.raise(Confirm, "changes GitHub data")
}

// hRunner handles tools that run the project's own code (tests, builds,
// linters that load config files written in code).
func hRunner(p *part, name string, args []field) {
	p.raise(Confirm, "runs the project's code or build")
}

func hCompiler(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "oIDLlx", longArg: []string{"output"}})
	if o, ok := ps.value("o", 0, "output"); ok {
		p.writes([]field{{s: o}})
	}
	p.raise(Confirm, "compiles code")
}

func hDpkg(p *part, name string, args []field) {
	for _, a := range args {
		switch a.s {
		case "-l", "--list", "-L", "--listfiles", "-s", "--status", "-S", "--search", "-p", "--print-avail", "--get-selections",
			"-c", "--contents", "-I", "--info", "--print-architecture", "-q", "--query", "-qa", "-qi", "-ql", "-qf", "-V", "--verify":
			return
		}
		if strings.HasPrefix(a.s, "-q") && name == "rpm" {
			return
		}
	}
	p.raise(Confirm, "installs or removes system packages")
}

func hPacman(p *part, name string, args []field) {
	for _, a := range args {
		s := a.s
		if strings.HasPrefix(s, "-Q") || strings.HasPrefix(s, "-F") || s == "-Ss" || s == "-Si" || s == "-Sl" || s == "-Sg" || s == "--version" || s == "-V" {
			return
		}
	}
	p.raise(Confirm, "installs or removes system packages")
}

func hDeno(p *part, name string, args []field) {
	op, i := firstOperand(args)
	switch op.s {
	case "", "--version", "info", "doc", "help", "types", "check":
		return
	case "eval":
		if i+1 < len(args) {
			p.interpCode("js", args[len(args)-1])
		}
		return
	case "run":
		for _, a := range args[i+1:] {
			if strings.HasPrefix(a.s, "http://") || strings.HasPrefix(a.s, "https://") {
				p.raise(Dangerous, "runs code downloaded from the network")
			}
		}
	}
	p.raise(Confirm, "runs JavaScript or TypeScript code")
}

func hBun(p *part, name string, args []field) {
	for i, a := range args {
		if (a.s == "-e" || a.s == "--eval" || a.s == "-p" || a.s == "--print") && i+1 < len(args) {
			p.interpCode("js", args[i+1])
			return
		}
	}
	op, _ := firstOperand(args)
	switch op.s {
	case "--version", "-v", "pm":
		return
	}
	p.raise(Confirm, "runs JavaScript code or installs packages")
}

func hRunPrefix(p *part, name string, args []field) {
	if pkg, _ := firstOperand(args); pkg.s == "rimraf" || pkg.s == "del-cli" || strings.HasPrefix(pkg.s, "rimraf@") {
		p.raise(Dangerous, "recursive delete ("+pkg.s+")")
	}
	p.raise(Confirm, "downloads and runs a package")
}

// hSQL handles database clients: queries are read for statements that
// drop or empty data.
func hSQL(p *part, name string, args []field) {
	p.raise(Confirm, "runs database commands")
	var queries []string
	flags := map[string]string{
		"mysql": "e", "mariadb": "e", "psql": "c", "sqlcmd": "Qq", "clickhouse-client": "q", "clickhouse": "q",
		"cqlsh": "e", "snowsql": "q", "duckdb": "c", "cockroach": "e", "mongo": "", "mongosh": "", "sqlite3": "",
	}[name]
	longs := []string{"execute", "command", "query", "eval", "cmd"}
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case strings.HasPrefix(s, "--"):
			k, v, ok := strings.Cut(s[2:], "=")
			if contains(longs, k) {
				if !ok && i+1 < len(args) {
					i++
					v = args[i].s
				}
				queries = append(queries, v)
			}
		case len(s) == 2 && s[0] == '-' && strings.IndexByte(flags, s[1]) >= 0 && i+1 < len(args):
			i++
			queries = append(queries, args[i].s)
		case len(s) > 2 && s[0] == '-' && strings.IndexByte(flags, s[1]) >= 0:
			queries = append(queries, s[2:])
		case s == "-cmd" && i+1 < len(args):
			i++
			queries = append(queries, args[i].s)
		}
	}
	if name == "sqlite3" || name == "duckdb" || name == "redis-cli" || name == "bq" {
		ops := getopt(args, optSpec{shortArg: "hpansu", longArg: []string{"cmd", "separator", "nullvalue"}}).operands
		if name == "sqlite3" || name == "duckdb" {
			if len(ops) > 1 {
				queries = append(queries, joinFields(ops[1:]))
			}
		} else {
			queries = append(queries, joinFields(ops))
		}
	}
	if p.stdin.exact {
		queries = append(queries, p.stdin.literal)
	}
	for _, q := range queries {
		if why := sqlDanger(q); why != "" {
			p.raise(Dangerous, why)
			return
		}
	}
}

func hDropDB(p *part, name string, args []field) {
	if name == "mysqladmin" {
		for _, a := range args {
			if a.s == "drop" {
				p.raise(Dangerous, "drops a database")
				return
			}
		}
		p.raise(Confirm, "administers a database server")
		return
	}
	p.raise(Dangerous, "drops a database")
}

// hRunnerUnless is a formatter or linter that rewrites files unless given
// one of the check-only flags.
func hRunnerUnless(checkFlags ...string) handler {
	return func(p *part, name string, args []field) {
		for _, a := range args {
			if contains(checkFlags, a.s) {
				return
			}
		}
		p.raise(Confirm, "rewrites files")
	}
}

func hRuff(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	fix := false
	for _, a := range args {
		if a.s == "--fix" || a.s == "--unsafe-fixes" {
			fix = true
		}
	}
	switch op.s {
	case "check", "":
		if !fix {
			return
		}
	case "format":
		if hasWord(args, "--check") || hasWord(args, "--diff") {
			return
		}
	case "version", "rule", "config", "linter":
		return
	}
	p.raise(Confirm, "rewrites files")
}

func h7z(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	if op.s == "l" || op.s == "t" || op.s == "i" || op.s == "h" {
		return
	}
	p.raise(Confirm, "writes or extracts an archive")
}

func hNixShell(p *part, name string, args []field) {
	for i, a := range args {
		if (a.s == "--run" || a.s == "--command") && i+1 < len(args) {
			p.nestedCommand(args[i+1], scriptOpts{})
		}
	}
	p.raise(Confirm, "builds and enters a Nix environment")
}

// kubectlGlobal lists kubectl's (and oc's) global options, which may come
// before the subcommand: kubectl -n prod exec … is an exec.
var kubectlGlobal = optSpec{
	shortArg: "nsv",
	longArg: []string{"namespace", "context", "cluster", "kubeconfig", "server", "user", "token", "as", "as-group", "as-uid",
		"certificate-authority", "client-certificate", "client-key", "cache-dir", "request-timeout", "v", "vmodule",
		"log-dir", "log-file", "profile", "profile-output", "tls-server-name", "password", "username", "match-server-version"},
	posix: true,
}

func hKubectl(p *part, name string, args []field) {
	op, i := firstOperand(args)
	if ps := getopt(args, kubectlGlobal); ps.rest < len(args) {
		op, i = args[ps.rest], ps.rest
	}
	switch op.s {
	case "delete":
		for _, a := range args[i+1:] {
			if a.s == "--all" || a.s == "-A" || a.s == "--all-namespaces" {
				p.raise(Dangerous, "deletes every resource of a kind")
				return
			}
		}
	case "config":
		if hasWord(args, "--raw") || hasWord(args, "--flatten") {
			p.raise(Confirm, "shows credentials from the kubeconfig")
		}
	case "get", "describe":
		for _, a := range args[i+1:] {
			if a.s == "secret" || a.s == "secrets" || strings.HasPrefix(a.s, "secret/") || strings.HasPrefix(a.s, "secrets/") {
				p.raise(Confirm, "shows secrets")
				return
			}
		}
	case "exec":
		p.raise(Confirm, "runs a command in a container")
		if j := indexOf(args, "--"); j >= 0 && j+1 < len(args) {
			p.run(args[j+1:])
		}
		return
	}
	subcommands(kubectlSpec)(p, name, args)
}

// toolEnvVar reports variables that point git, Go or Cargo at another
// repository, other configuration or other programs. Set on a command,
// they change what it runs, so the command is not safe.
func toolEnvVar(name string) bool {
	switch name {
	case "CC", "CXX", "FC", "AR", "PKG_CONFIG", "GOCACHEPROG", "RUSTC", "RUSTDOC", "RUSTC_WORKSPACE_WRAPPER", "CARGO",
		"CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTDOC", "CARGO_HOME", "GOFLAGS", "GOENV", "GOTOOLCHAIN", "GOROOT", "GOWORK",
		"GOSUMDB", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE", "GOPRIVATE", "GOVCS":
		return true
	}
	switch {
	case strings.HasPrefix(name, "CGO_") && name != "CGO_ENABLED",
		strings.HasPrefix(name, "CARGO_TARGET_") && (strings.HasSuffix(name, "_RUNNER") || strings.HasSuffix(name, "_LINKER")):
		return true
	case strings.HasPrefix(name, "GIT_"):
		return !gitHarmlessVar(name)
	}
	return false
}

// gitHarmlessVar lists git's variables that change names, dates, output
// and locking, never which repository, configuration or programs it uses.
func gitHarmlessVar(name string) bool {
	switch name {
	case "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
		"GIT_COMMITTER_DATE", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS", "GIT_FLUSH", "GIT_LITERAL_PATHSPECS",
		"GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS", "GIT_MERGE_VERBOSITY", "GIT_ADVICE",
		"GIT_PROGRESS_DELAY", "GIT_REDACT_COOKIES", "GIT_NAMESPACE", "GIT_DEFAULT_HASH", "GIT_MERGE_AUTOEDIT",
		"GIT_REFLOG_ACTION", "GIT_CEILING_DIRECTORIES", "GIT_NO_REPLACE_OBJECTS":
		return true
	}
	return false
}

// toolEnv checks one of the variables toolEnvVar lists.
func (p *part) toolEnv(name, value string) {
	switch {
	case strings.HasPrefix(name, "GIT_TRACE"):
		// A path makes git write its trace there; a number or boolean does not.
		if strings.ContainsAny(value, "/\\") || strings.Contains(value, unknownMark) {
			p.writes([]field{{s: value}})
		}
	case strings.HasPrefix(name, "GIT_"):
		p.raiseSticky(Confirm, "sets "+name+", which points git at another repository, configuration or programs")
	case name == "CC" || name == "CXX" || name == "FC" || name == "AR" || name == "PKG_CONFIG" || name == "GOCACHEPROG" ||
		name == "RUSTC" || name == "RUSTDOC" || name == "RUSTC_WORKSPACE_WRAPPER" || name == "CARGO" ||
		strings.HasPrefix(name, "CARGO_BUILD_") || strings.HasPrefix(name, "CARGO_TARGET_"):
		p.raiseSticky(Confirm, "sets "+name+", a program the build runs")
		if strings.TrimSpace(strings.ReplaceAll(value, unknownMark, "")) != "" {
			p.w.script(asSource(value), scriptOpts{})
		}
	case name == "GOFLAGS":
		if !goHarmlessFlags(strings.Fields(value)) {
			p.raiseSticky(Confirm, "sets GOFLAGS, which can make go run other programs")
		}
		for _, f := range strings.Fields(value) {
			k, v, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
			if k == "toolexec" || k == "exec" || k == "vettool" {
				p.w.script(asSource(v), scriptOpts{})
			}
		}
	case name == "GOTOOLCHAIN" && value == "local", name == "GOWORK" && value == "off":
	case strings.HasPrefix(name, "CGO_"):
		p.raiseSticky(Confirm, "sets "+name+", flags the C compiler runs with")
	default:
		p.raiseSticky(Confirm, "sets "+name+", which changes which configuration, toolchain or modules are used")
	}
}
