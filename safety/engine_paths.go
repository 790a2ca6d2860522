package safety

import (
	"path"
	"strings"
)

// loc is a path placed as well as pincer can place it without looking at
// the file system.
type loc struct {
	path    string // cleaned and slash-separated: "~/x", "/x", "c:/x", "sub/x", "../x"; unknown pieces are "?"
	project bool   // inside the project: relative to the project root and not escaping it
	unknown bool   // some of it is only known at run time
}

// resolve places a path argument of a command, relative to the directory
// the script has changed to.
func (w *walker) resolve(s string) loc {
	l := placePath(s, w.cwd)
	if p, ok := inHome(l.path, w.sh.c.home); ok {
		l.path = p
	}
	return l
}

// inHome spells an absolute, slash-separated path inside the home
// directory as "~/…", so that every rule about the home (start-up files,
// hidden files, pincer's own files) holds however the path is spelled, and
// a home inside a system directory (root's /root) is the user's own place
// while the rest of that directory stays the system's.
func inHome(p, home string) (string, bool) {
	if !homeTakes(home) || !strings.HasPrefix(p, "/") || !under(p, home) {
		return "", false
	}
	if p == home {
		return "~", true
	}
	return "~/" + strings.TrimPrefix(p, home+"/"), true
}

// homeTakes reports whether paths inside home may be judged as the
// user's own "~/…": not when home is unknown, "/", or holds /etc or a
// system directory, since placing those under ~ would hide the system.
func homeTakes(home string) bool {
	if home == "" || home == "/" || isWindowsPath(home) && len(home) <= 3 {
		return false
	}
	holds := func(d string) bool { return d != home && under(d, home) }
	if holds("/etc") || holds("/private/etc") {
		return false
	}
	for _, d := range systemDirs {
		if holds(d) {
			return false
		}
	}
	return true
}

func placePath(s, cwd string) loc {
	l := loc{unknown: strings.Contains(s, unknownMark)}
	s = strings.ReplaceAll(s, unknownMark, "?")
	if isWindowsPath(s) {
		s = strings.ToLower(strings.ReplaceAll(s, `\`, "/"))
		if len(s) == 2 {
			s += "/"
		}
		l.path = path.Clean(s)
		return l
	}
	switch {
	case s == "":
		l.path = "?"
		l.unknown = true
		return l
	case strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || strings.HasPrefix(s, "?"):
		l.path = path.Clean(s)
	default:
		base := cwd
		if base == "" {
			base = "."
		}
		l.path = path.Clean(base + "/" + s)
	}
	l.project = !strings.HasPrefix(l.path, "/") && !strings.HasPrefix(l.path, "~") &&
		!strings.HasPrefix(l.path, "?") && l.path != ".." && !strings.HasPrefix(l.path, "../")
	return l
}

func isWindowsPath(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') &&
		(len(s) == 2 || s[2] == '\\' || s[2] == '/' || s[2] != ':')
}

// sinks are files that swallow output: writing them changes nothing.
func isSink(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/full", "nul", "con":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/") || strings.HasPrefix(p, "/dev/pts/")
}

func isNetDev(p string) bool {
	return strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/")
}

// writeRisk is the tier of writing (or deleting) a path, and why when it is
// not an ordinary file.
func writeRisk(l loc) (Tier, string) {
	p := l.path
	switch {
	case isSink(p):
		return Safe, ""
	case isNetDev(p):
		return Confirm, netWhy
	case p == "/dev" || strings.HasPrefix(p, "/dev/"):
		return Dangerous, "a device"
	}
	if why := sensitiveLoc(l); why != "" {
		return Dangerous, why
	}
	if strings.HasPrefix(p, "~/") && !l.project && !l.unknown {
		if why := homeLoadedLater(strings.TrimPrefix(p, "~/")); why != "" {
			return Dangerous, why
		}
	}
	return Confirm, ""
}

var systemDirs = []string{
	"/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/sys", "/proc",
	"/root", "/System", "/Library", "/var/lib", "/var/log", "/var/db", "/var/root", "/var/spool",
	"/var/at", "/var/cron", "/private/var/root", "/private/var/db", "/private/var/at", "/snap", "/efi",
}

var startupFiles = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true, ".profile": true,
	".zshrc": true, ".zshenv": true, ".zprofile": true, ".zlogin": true, ".zlogout": true,
	".kshrc": true, ".mkshrc": true, ".cshrc": true, ".tcshrc": true, ".login": true, ".logout": true,
	".xprofile": true, ".xinitrc": true, ".xsession": true, ".xsessionrc": true, ".bash_aliases": true,
	".inputrc": true, "config.fish": true, ".vimrc": true, ".gvimrc": true, ".exrc": true,
	".pam_environment": true, ".tmux.conf": true, ".screenrc": true,
}

var credentialFiles = map[string]bool{
	".netrc": true, "_netrc": true, ".git-credentials": true, ".pgpass": true, ".my.cnf": true,
	".npmrc": true, ".pypirc": true, ".gitconfig": true, "authorized_keys": true, "known_hosts": true,
	".rhosts": true, ".shosts": true, ".k5login": true, "sudoers": true,
}

// sensitiveLoc names what a path is when changing it is dangerous: system
// files, keys and credentials, start-up files that run code at login, git
// hooks, devices. It returns "" for ordinary files.
func sensitiveLoc(l loc) string {
	p := l.path
	if p == "/" {
		return "the root directory"
	}
	if under(p, "/etc") || under(p, "/private/etc") {
		return "system configuration"
	}
	for _, d := range systemDirs {
		if under(p, d) {
			if strings.Contains(p, "cron") || strings.HasPrefix(p, "/var/at") {
				return "the crontab"
			}
			return "a system directory"
		}
	}
	if len(p) >= 2 && p[1] == ':' {
		rest := strings.TrimPrefix(p[2:], "/")
		switch {
		case rest == "" || rest == ".":
			return "the root of a drive"
		case under(rest, "windows"), under(rest, "program files"), under(rest, "program files (x86)"),
			under(rest, "programdata"), strings.Contains(rest, "/system32"):
			return "a Windows system directory"
		}
	}
	// Names are compared case-folded: on macOS and Windows .GIT/Hooks is
	// .git/hooks.
	comps := strings.Split(strings.ToLower(p), "/")
	if isHistoryFile(comps[len(comps)-1]) {
		return "the shell history"
	}
	for i, c := range comps {
		next := ""
		if i+1 < len(comps) {
			next = comps[i+1]
		}
		switch {
		case c == ".ssh":
			return "SSH keys and configuration"
		case c == ".gnupg":
			return "GPG keys"
		case c == ".aws" || c == ".azure" || c == ".kube" || (c == ".config" && next == "gcloud") || (c == ".docker" && next == "config.json"):
			return "cloud credentials"
		case c == ".git" && next == "hooks":
			return "a git hook, which git runs"
		case c == ".git" && next == "config" && i+2 == len(comps):
			return "git configuration, which can run commands"
		case c == "launchagents" || c == "launchdaemons":
			return "a login start-up item"
		case c == ".config" && (next == "autostart" || next == "systemd"):
			return "a login start-up item"
		case c == ".config" && next == "fish", c == ".bashrc.d", c == ".zshrc.d", c == ".oh-my-zsh" && next == "custom":
			return "a shell start-up file"
		case c == ".config" && next == "git" && i+3 == len(comps) && comps[i+2] == "config":
			return "git configuration, which can run commands"
		}
	}
	if !l.project {
		base := comps[len(comps)-1]
		switch {
		case startupFiles[base]:
			return "a shell start-up file"
		case credentialFiles[base]:
			return "credentials or login configuration"
		case base == "crontab" || base == "cron.d":
			return "the crontab"
		}
	}
	return ""
}

// historyFiles are the files shells keep their command history in:
// changing them covers tracks, reading them may show secrets typed there.
var historyFiles = map[string]bool{
	".bash_history": true, ".zsh_history": true, ".zhistory": true, ".sh_history": true, ".history": true,
	"fish_history": true, ".ksh_history": true, ".mksh_history": true, "consolehost_history.txt": true,
}

// isHistoryFile reports a shell history file by its name. PSReadLine's
// file is matched by its end, since a shell parse of a Windows path
// (%APPDATA%\…\ConsoleHost_history.txt) loses its separators.
func isHistoryFile(base string) bool {
	base = strings.ToLower(base)
	return historyFiles[base] || strings.HasSuffix(base, "consolehost_history.txt")
}

// secretLoc names what a path is when even reading it may expose secrets.
// Public keys (*.pub) are not secrets.
func secretLoc(l loc) string {
	p := l.path
	comps := strings.Split(p, "/")
	base := comps[len(comps)-1]
	lower := strings.ToLower(base)
	if strings.HasSuffix(lower, ".pub") {
		return ""
	}
	switch {
	case isHistoryFile(lower):
		return "the shell history, which often holds secrets typed in commands"
	case replHistoryFiles[lower]:
		return "a program's history, which often holds secrets typed there"
	case strings.HasPrefix(p, "/proc/") && base == "environ":
		return "a process's environment, which often holds secrets"
	case lower == ".env" || lower == ".envrc" || (strings.HasPrefix(lower, ".env.") && !isTemplate(lower)):
		return "an environment file, which usually holds secrets"
	case strings.HasPrefix(lower, "id_rsa") || strings.HasPrefix(lower, "id_dsa") ||
		strings.HasPrefix(lower, "id_ecdsa") || strings.HasPrefix(lower, "id_ed25519"):
		return "an SSH key"
	case hasAnySuffix(lower, ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".ppk", ".tfstate", ".gpg", ".keytab") ||
		strings.HasSuffix(lower, ".tfvars") || strings.HasSuffix(lower, ".tfstate.backup"):
		return "a key, certificate or secret store"
	case toolCredentialFiles[lower]:
		return "another tool's credentials"
	case strings.EqualFold(p, "~/.claude.json") || strings.EqualFold(p, "~/.yarnrc.yml") || strings.EqualFold(p, "~/.m2/settings.xml") || strings.EqualFold(p, "~/.gradle/gradle.properties"):
		return "another tool's credentials"
	case credentialFiles[lower] && lower != "known_hosts" && lower != "authorized_keys" && lower != ".gitconfig",
		lower == ".htpasswd", lower == ".vault-token", lower == "credentials",
		strings.HasPrefix(lower, "credentials.") || strings.HasPrefix(lower, "secrets.") || strings.HasPrefix(lower, "secret."):
		return "a credentials file"
	case p == "/etc/shadow" || p == "/etc/gshadow" || p == "/etc/master.passwd" || under(p, "/etc/sudoers") ||
		under(p, "/etc/sudoers.d") || under(p, "/etc/ssl/private"):
		return "system secrets"
	}
	comps = strings.Split(strings.ToLower(p), "/") // folded, as in sensitiveLoc
	for i, c := range comps {
		switch {
		case c == ".ssh":
			return "the SSH directory"
		case c == ".gnupg":
			return "the GPG directory"
		case c == ".aws" || c == ".azure" || c == ".kube" || (c == ".config" && i+1 < len(comps) && comps[i+1] == "gcloud"):
			return "a cloud credentials directory"
		case c == ".docker" && i+1 < len(comps) && comps[i+1] == "config.json":
			return "a credentials file"
		case c == ".config" && i+1 < len(comps) && (comps[i+1] == "gh" || comps[i+1] == "hub" || comps[i+1] == "op"),
			c == ".password-store", c == ".terraform.d", c == "keyrings", c == "keychains":
			return "a credentials directory"
		case c == ".config" && i+1 < len(comps) && credentialConfigDirs[comps[i+1]],
			c == ".claude" || c == ".codex" || c == ".kaggle" || c == ".oci" || c == ".huggingface",
			c == "huggingface" && i+1 < len(comps) && comps[i+1] == "token":
			return "another tool's credentials"
		case i == 0 && c == "~" && i+2 < len(comps) && (comps[1] == ".config" || comps[1] == ".local") && pincerDir(comps[1:]):
			return "pincer's own configuration or store, which may hold an API key"
		}
	}
	return ""
}

// replHistoryFiles are the histories of database clients and language
// prompts: like the shell's, they keep what was typed, passwords included.
var replHistoryFiles = map[string]bool{
	".psql_history": true, ".mysql_history": true, ".sqlite_history": true, ".python_history": true,
	".node_repl_history": true, ".rediscli_history": true, ".irb_history": true, ".lesshst": true,
	".mongosh_repl_history": true, ".dbshell": true, ".scala_history": true,
}

// toolCredentialFiles are files other programs keep their tokens and
// passwords in, by name.
var toolCredentialFiles = map[string]bool{
	".credentials.json": true, "rclone.conf": true, ".boto": true, ".s3cfg": true, ".dockercfg": true,
	".terraformrc": true, "terraform.rc": true, "kaggle.json": true, ".git-credentials": true,
}

// credentialConfigDirs are directories under ~/.config that hold another
// tool's login.
var credentialConfigDirs = map[string]bool{
	"rclone": true, "github-copilot": true, "doctl": true, "hcloud": true, "netlify": true, "vercel": true,
	"heroku": true, "flyctl": true, "fly": true, "gcloud": true, "op": true, "gh": true, "hub": true,
}

// pincerDir reports pincer's own directories in their default places
// (.config/pincer, .local/share/pincer, .local/state/pincer): its config
// may hold the API key and its store every conversation.
func pincerDir(comps []string) bool {
	switch {
	case comps[0] == ".config":
		return comps[1] == "pincer"
	case comps[0] == ".local" && len(comps) > 2:
		return (comps[1] == "share" || comps[1] == "state") && comps[2] == "pincer"
	}
	return false
}

func isTemplate(name string) bool {
	return hasAnySuffix(name, ".example", ".sample", ".template", ".dist", ".defaults", ".tmpl", ".schema")
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}
