package safety

import (
	"strings"
	"testing"
)

// proofCases are the families of issue 24, tried as a hostile model and a
// hostile repository would: each ran code, changed a program's config
// source, touched a device or read a secret while the older classifier
// rated it safe. secrets says the project on disk holds secret files
// (secretProject) rather than none (cleanProject).
var proofCases = []struct {
	cmd     string
	want    Tier
	secrets bool
	why     string
}{
	// Builtins that evaluate strings: compound array assignments from
	// quoted text, in every spelling.
	{`declare -a a='([0]=$(touch x))'`, Confirm, false, "declare -a from quoted text"},
	{`typeset -A m='([k]=$(id))'`, Confirm, false, "typeset -A"},
	{`local -a x="($v)"`, Confirm, false, "a value held in a variable"},
	{`export -a y=$'(\x24(id))'`, Confirm, false, "$'…' spelling of $("},
	{"readonly -a z='(`id`)'", Confirm, false, "backquotes"},
	{`declare -a w='(<(id))'`, Confirm, false, "process substitution"},
	{`builtin declare -a a='($(id))'`, Confirm, false, "through builtin"},
	{`command declare -a a='($(id))'`, Confirm, false, "through command"},
	{`v='($(id))'; declare -a a="$v"`, Confirm, false, "the text held in a variable"},
	{`declare -a arr+='($(id))'`, Confirm, false, "+= in declare"},
	{`declare x="$(cat notes)"; declare -a y="$x"`, Confirm, false, "an array from a substitution's output"},
	{`BASH_CMDS[ls]=/tmp/evil; ls`, Confirm, false, "BASH_CMDS then the name"},
	{`BASH_ALIASES[ls]=id; ls`, Confirm, false, "BASH_ALIASES"},
	{`x='a[$(id)]'; echo $((x))`, Confirm, false, "arithmetic reads a variable holding a[$(…)]"},
	{`x='a[$(id)]'; (( x ))`, Confirm, false, "arithmetic command"},
	{`x='a[$(id)]'; echo ${y[x]}`, Confirm, false, "a subscript"},
	{`x='a[$(id)]'; echo ${y:x}`, Confirm, false, "a slice offset"},
	{`read x; echo $((x + 1))`, Confirm, false, "a value read from input"},
	{`read -a arr; [[ ${arr[0]} -eq 1 ]]`, Confirm, false, "[[ -eq ]] on read text"},
	{`let "x=a[\$(id)]"`, Confirm, false, "let"},
	{`PS4='$(id)' bash -x -c ls`, Confirm, false, "PS4 into bash -x"},
	{`export PS4='$(id)'; bash -x -c ls`, Confirm, false, "exported PS4"},
	{`PROMPT_COMMAND=id bash -i`, Dangerous, false, "PROMPT_COMMAND (the engine's Dangerous stays)"},
	{`enable -f /tmp/x.so foo`, Confirm, false, "enable -f"},
	{`enable -n echo`, Confirm, false, "enable beyond listing"},
	{`trap id EXIT`, Confirm, false, "trap runs its text"},
	{`source ./x.sh`, Confirm, false, "source"},
	{`eval ls`, Confirm, false, "eval, even of a literal"},
	{`alias ls=id; ls`, Confirm, false, "alias and use"},
	{`declare -n r='a[$(id)]'; echo $r`, Confirm, false, "a name reference"},
	{`x='$(id)'; echo ${x@P}`, Confirm, false, "prompt expansion of code"},
	{`read x; echo ${x@P}`, Confirm, false, "prompt expansion of input"},
	{`x=HOME; echo ${!x}`, Safe, false, "indirect to a readable variable is proven"},
	{`x=GITHUB_TOKEN; echo ${!x}`, Confirm, false, "indirect to a secret-looking variable"},
	{`compgen -W '$(id)' x`, Confirm, false, "compgen -W expands its words"},

	// Environment prefixes that move a read-only program's configuration.
	{`HOME=. git diff`, Confirm, false, "HOME=. before git"},
	{`XDG_CONFIG_HOME=. git diff`, Confirm, false, "XDG_CONFIG_HOME=. before git"},
	{`HOME=$PWD go vet ./...`, Confirm, false, "HOME=$PWD before go vet"},
	{`XDG_CONFIG_HOME=$PWD go vet ./...`, Confirm, false, "XDG_CONFIG_HOME=$PWD before go vet"},
	{`HOME=.; git log`, Confirm, false, "HOME changed for what follows"},
	{`export XDG_CONFIG_HOME=$PWD; go env`, Confirm, false, "exported XDG_CONFIG_HOME"},
	{`GIT_DIR=x git status`, Confirm, false, "GIT_DIR"},
	{`GIT_CONFIG_GLOBAL=.gitconfig git log`, Confirm, false, "GIT_CONFIG_GLOBAL"},
	{`GOFLAGS=-toolexec=./x go vet ./...`, Confirm, false, "GOFLAGS naming a program"},
	{`GOFLAGS=-mod=mod go list ./...`, Confirm, false, "GOFLAGS letting go rewrite go.mod"},
	{`env HOME=. git diff`, Confirm, false, "HOME through env"},
	{`env -i git diff`, Safe, false, "env -i only clears"},
	{`LC_ALL=C sort names.txt`, Safe, false, "an inert variable"},
	{`GOOS=linux GOARCH=arm64 go vet ./...`, Safe, false, "inert for go"},
	{`GIT_PAGER=cat git log`, Safe, false, "a pager set to cat"},
	{`PAGER=less git log`, Confirm, false, "a pager that is not cat"},

	// Read-only-looking programs that run project code.
	{`python3 -m json.tool data.json`, Confirm, false, "python -m: a project module of the name wins"},
	{`python3 -m pip list`, Confirm, false, "python -m pip"},
	{`cargo metadata`, Confirm, false, "cargo reads .cargo/config.toml"},
	{`cargo tree`, Confirm, false, "cargo tree"},
	{`rustc -V`, Confirm, false, "rust-toolchain.toml picks the toolchain"},
	{`npm ls`, Confirm, false, "npm reads .npmrc"},
	{`make -n`, Confirm, false, "make reads the Makefile"},
	{`./gradlew --version`, Confirm, false, "the project's own script"},
	{`yarn --version`, Confirm, false, "yarn runs .yarnrc.yml's yarnPath"},
	{`mvn -v`, Confirm, false, "mvn reads .mvn/jvm.config"},
	{`python3 -V`, Safe, false, "a version query of a program known to print only"},
	{`git --version`, Safe, false, "a version query"},
	{`git -c diff.external=./x diff`, Confirm, false, "an external diff"},
	{`git -c core.pager=./x log`, Confirm, false, "a pager"},
	{`git diff --ext-diff`, Confirm, false, "--ext-diff"},
	{`git log -p --textconv`, Confirm, false, "--textconv"},
	{`git diff --output=x.txt`, Confirm, false, "--output writes"},
	{`git -C /tmp/other log`, Confirm, false, "another repository"},
	{`git --git-dir=x/.git log`, Confirm, false, "another git dir"},
	{`go vet -vettool=./x ./...`, Confirm, false, "-vettool"},
	{`go list -toolexec ./x ./...`, Confirm, false, "-toolexec"},
	{`go list -overlay o.json ./...`, Confirm, false, "-overlay replaces files"},
	{`go list -modfile=.env ./...`, Confirm, false, "-modfile of a secret would print it in an error"},
	{`rg --pre ./x foo`, Confirm, false, "rg --pre"},
	{`less '+!id' README.md`, Confirm, false, "a pager command"},
	{`man ./x.1`, Confirm, false, "a project file as a manual page"},

	// Devices.
	{`cat /dev/pts/0`, Confirm, false, "reads another terminal"},
	{`head /dev/pts/2`, Confirm, false, "reads another terminal"},
	{`echo hi > /dev/pts/1`, Confirm, false, "writes another terminal"},
	{`ls > /dev/tty`, Confirm, false, "writes the terminal"},
	{`cat < /dev/pts/3`, Confirm, false, "reads a terminal by redirection"},
	{`echo x | tee /dev/pts/1`, Confirm, false, "tee to a terminal"},
	{`head -c 10 /dev/urandom`, Confirm, false, "a device other than /dev/null"},
	{`ls > /dev/null 2>&1`, Safe, false, "/dev/null and a descriptor copy"},

	// Secrets by other spellings (the project holds .env, deploy/id_rsa
	// and notes.txt, a link to ~/.ssh/id_rsa).
	{`cat .e*`, Confirm, true, "a glob matching .env"},
	{`cat .en?`, Confirm, true, "a ? glob matching .env"},
	{`cat .e*`, Confirm, false, "a dotfile glob that could match .env, though none is there"},
	{`cat deploy/*`, Confirm, true, "a glob matching an SSH key"},
	{`cat notes.txt`, Confirm, true, "a link to a key"},
	{`for f in *; do cat "$f"; done`, Confirm, true, "a loop over a glob"},
	{`sed 'r .env' README.md`, Confirm, true, "sed's r command"},
	{`sed -n '1p;R .env' README.md`, Confirm, true, "sed's R command"},
	{`grep -r KEY .`, Confirm, true, "a recursive read of a tree with a secret"},
	{`grep -rn KEY`, Confirm, true, "grep -r with no file reads ."},
	{`rg KEY`, Confirm, true, "rg reads the tree"},
	{`ag KEY`, Confirm, true, "ag reads the tree"},
	{`find . -name .env -exec cat {} +`, Confirm, true, "find -exec cat of the secret"},
	{`find . | xargs cat`, Confirm, true, "xargs cat of every file"},
	{`find . -type f -print0 | xargs -0 grep KEY`, Confirm, true, "xargs grep of every file"},
	{`git show HEAD:.env`, Confirm, true, "a secret from the object store"},
	{`git show HEAD:deploy/id_rsa`, Confirm, true, "a key from the object store"},
	{`git log -p -- .env`, Confirm, true, "a secret's history"},
	{`git log -p -- '*.env'`, Confirm, true, "a pathspec that could match .env"},
	{`git grep KEY`, Confirm, true, "git grep of a tree with a secret"},
	{`cat ~/.claude/.credentials.json`, Confirm, true, "another tool's credentials"},
	{`cat ~/.config/rclone/rclone.conf`, Confirm, true, "rclone's config"},
	{`cat ~/.psql_history`, Confirm, true, "psql's history"},
	{`cat ~/.codex/auth.json`, Confirm, false, "codex's login"},
	{`cat ~/.config/gh/hosts.yml`, Confirm, false, "gh's token"},
	{`cat ~/.config/pincer/config.json`, Confirm, false, "pincer's own config, which may hold the API key"},
	{`cat .envrc`, Confirm, false, "direnv's file"},
	{`cat prod.tfvars`, Confirm, false, "terraform variables"},
	{`awk '{print}' .env`, Confirm, false, "awk reading a secret"},
	{`awk 'BEGIN{while((getline l < "x")>0) print l}'`, Confirm, false, "awk getline from a file"},
	{`awk 'BEGIN{print ENVIRON["TOKEN"]}'`, Confirm, false, "awk reading the environment"},
	{`jq -n env`, Confirm, false, "jq's env"},
	{`jq -n '$ENV.TOKEN'`, Confirm, false, "jq's $ENV"},
	{`jq --rawfile k .env -n '$k'`, Confirm, false, "jq --rawfile of a secret"},
	{`yq 'load("x.yml")' x.yml`, Confirm, false, "yq load"},
	{`echo $GITHUB_TOKEN`, Confirm, false, "a secret-looking variable"},
	{`echo $DATABASE_URL`, Confirm, false, "a variable not on the list of readable ones"},
	{`printenv AWS_SECRET_ACCESS_KEY`, Confirm, false, "printenv of a secret"},
	{`echo ${#TOKEN}`, Confirm, false, "the length of a secret"},
	{`echo $http_proxy`, Confirm, false, "a proxy URL may carry a password"},

	// Other processes' environments.
	{`ps e`, Confirm, false, "BSD e"},
	{`ps auxe`, Confirm, false, "BSD e in a cluster"},
	{`ps eww`, Confirm, false, "BSD e with ww"},
	{`ps -E`, Confirm, false, "macOS -E"},
	{`ps -o pid,environ`, Confirm, false, "a column not on the list"},
	{`cat /proc/1/environ`, Confirm, false, "another process's environment"},
	{`cat /proc/*/environ`, Confirm, false, "every process's environment"},
	{`strings /proc/self/environ`, Confirm, false, "its own environment"},
	{`xargs -0 -n1 < /proc/1/environ`, Confirm, false, "a redirection from environ"},
	{`cat /proc/1/root/etc/hostname`, Confirm, false, "into another process's file system"},
	{`ps aux`, Safe, false, "BSD aux is proven"},
	{`ps -ef`, Safe, false, "-ef is proven"},
	{`ps -eo pid,comm,args`, Safe, false, "columns on the list"},

	// Commands that run another command elsewhere.
	{`kubectl -n prod exec deploy/api -- sh -c 'rm -rf /data'`, Dangerous, false, "a global option before exec"},
	{`kubectl --context prod -n x exec deploy/api -c main -- rm -rf /data`, Dangerous, false, "exec with a container"},
	{`oc -n prod exec pod -- sh -c 'rm -rf /data'`, Dangerous, false, "oc"},
	{`kubectl -n prod exec deploy/api -- ls`, Confirm, false, "a harmless inner command still runs elsewhere"},
	{`docker -H tcp://x exec web rm -rf /data`, Dangerous, false, "docker exec"},
	{`podman exec -u root c sh -c 'rm -rf /x'`, Dangerous, false, "podman exec"},
	{`ssh -p 2222 -i key user@host 'rm -rf /data'`, Dangerous, false, "ssh with options"},
	{`gcloud compute ssh vm --zone z --command 'rm -rf /data'`, Dangerous, false, "gcloud compute ssh --command"},
}

func TestProofFamilies(t *testing.T) {
	clean := tableClassifier()
	secret := clean.WithFiles(secretProject())
	for _, tc := range proofCases {
		c := clean
		if tc.secrets {
			c = secret
		}
		v := c.classify(tc.cmd)
		if v.Tier != tc.want {
			t.Errorf("%q (secrets %v): got %v, want %v (%s)\n\treasons: %q", tc.cmd, tc.secrets, v.Tier, tc.want, tc.why, v.Reasons)
		}
		if tc.want == Confirm && v.Tier == Confirm && !strings.Contains(strings.Join(v.Reasons, "\n"), ": ") {
			t.Errorf("%q: reasons %q are not of the form '<part>: <why>'", tc.cmd, v.Reasons)
		}
	}
}

// TestRecursiveReadsExcludingTheSecret checks that a recursive read that
// leaves the secret out is proven: the exclusion is what makes it safe.
func TestRecursiveReadsExcludingTheSecret(t *testing.T) {
	c := tableClassifier().WithFiles(newFakeFiles("README.md", "main.go", ".env", "src/a.go"))
	for _, tc := range []struct {
		cmd  string
		want Tier
	}{
		{"grep -r KEY .", Confirm},
		{"grep -r --exclude=.env KEY .", Safe},
		{"grep -rn --include='*.go' KEY .", Safe},
		{"rg KEY", Safe},             // rg skips dotfiles
		{"rg --hidden KEY", Confirm}, // unless told
		{"rg -uu KEY", Confirm},
		{"rg --hidden -g '!.env' KEY", Safe},
		{"rg -t go KEY", Safe},
		{"find . -name '*.go' -exec cat {} +", Safe},
		{"find . -name '*.go' | xargs grep KEY", Safe},
		{"find . -type f | xargs grep KEY", Confirm},
		{"git grep KEY -- '*.go'", Safe},
		{"git grep KEY", Confirm},
	} {
		if got := c.classify(tc.cmd); got.Tier != tc.want {
			t.Errorf("%q: got %v, want %v\n\treasons: %q", tc.cmd, got.Tier, tc.want, got.Reasons)
		}
	}
}

// TestWithoutFiles checks what a classifier without a view of the disk
// proves: patterns that cannot match a secret, never a recursive read.
func TestWithoutFiles(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want Tier
	}{
		{"cat *.go", Safe},
		{"cat *", Confirm},   // could be id_rsa
		{"cat .e*", Confirm}, // could be .env
		{"grep -rn x .", Confirm},
		{"ls *", Safe}, // names only
	} {
		if got := c.classify(tc.cmd); got.Tier != tc.want {
			t.Errorf("%q without files: got %v, want %v\n\treasons: %q", tc.cmd, got.Tier, tc.want, got.Reasons)
		}
	}
}

// heldOut are ordinary read-only commands developers run, written for
// measuring over-escalation and never used to tune the list. want is the
// tier each should get; those that are not Safe say why in the comment.
var heldOut = []struct {
	cmd  string
	want Tier
}{
	{"ls", Safe}, {"ls -la", Safe}, {"ls -lah src", Safe}, {"ls -1", Safe}, {"pwd", Safe}, {"cat README.md", Safe},
	{"cat go.mod", Safe}, {"head -n 50 main.go", Safe}, {"head -20 main.go", Safe}, {"tail -n 100 log.txt", Safe},
	{"tail -f log.txt", Safe}, {"wc -l main.go", Safe}, {"wc -l src/*.go", Safe}, {"grep -rn foo src", Safe},
	{`grep -rn "TODO" --include="*.go" .`, Safe}, {"grep -n func main.go", Safe}, {"grep -c import main.go", Safe},
	{"rg foo", Safe}, {`rg -n "func main" --type go`, Safe}, {"rg -l TODO src", Safe}, {"find . -name '*.go'", Safe},
	{"find . -type f -name '*.md'", Safe}, {"find src -maxdepth 2 -type d", Safe},
	{"find . -name '*.go' -not -path './vendor/*'", Safe}, {"git status", Safe}, {"git status --short", Safe},
	{"git diff", Safe}, {"git diff --stat", Safe}, {"git diff HEAD~1 --stat", Safe}, {"git diff --cached", Safe},
	{"git log --oneline -20", Safe}, {"git log --oneline --graph --all -n 30", Safe}, {"git log -p -n 3 -- main.go", Safe},
	{"git show HEAD", Safe}, {"git show --stat HEAD", Safe}, {"git blame main.go", Safe}, {"git branch -a", Safe},
	{"git branch --show-current", Safe}, {"git remote -v", Safe}, {"git rev-parse HEAD", Safe},
	{"git rev-parse --abbrev-ref HEAD", Safe}, {`git log --since="2 weeks ago" --author=me --oneline`, Safe},
	{"git ls-files", Safe}, {"git ls-files | wc -l", Safe}, {"git grep -n foo -- '*.go'", Safe}, {"git stash list", Safe},
	{"git tag --list", Safe}, {"git describe --tags", Safe}, {"git config user.email", Safe}, {"git shortlog -sn", Safe},
	{"go vet ./...", Safe}, {"go list ./...", Safe}, {"go env GOPATH", Safe}, {"go version", Safe},
	{"go doc fmt.Println", Safe}, {"go list -m all", Safe}, {"cd src && ls", Safe}, {"cd src && grep -rn foo .", Safe},
	{`for f in *.go; do wc -l "$f"; done`, Safe}, {"cat README.md | head", Safe}, {"cat main.go | grep func", Safe},
	{"ls | wc -l", Safe}, {"du -sh src", Safe}, {"du -sh *", Safe}, {"df -h", Safe}, {"tree -L 2", Safe}, {"tree src", Safe},
	{"file main.go", Safe}, {"stat main.go", Safe}, {"diff a.txt b.txt", Safe}, {"diff -u a.txt b.txt", Safe},
	{"sort names.txt | uniq -c | sort -rn | head", Safe}, {"cut -d, -f1 data.csv", Safe}, {"awk '{print $1}' log.txt", Safe},
	{"sed -n '10,20p' main.go", Safe}, {"jq '.name' package.json", Safe}, {"jq -r '.dependencies | keys[]' package.json", Safe},
	{"echo $HOME", Safe}, {"which go", Safe}, {"command -v rg", Safe}, {"type git", Safe}, {"uname -a", Safe},
	{"whoami", Safe}, {"date", Safe}, {"ps aux | grep go", Safe}, {"ps -ef | head", Safe}, {"printenv PATH", Safe},
	{`echo "hello"`, Safe}, {`printf '%s\n' a b`, Safe}, {`basename "$PWD"`, Safe}, {"dirname src/a.go", Safe},
	{"realpath main.go", Safe}, {"readlink -f main.go", Safe}, {"test -f go.mod && echo yes", Safe},
	{"[ -d src ] && ls src", Safe}, {"nproc", Safe}, {"uptime", Safe}, {"hostname", Safe}, {"id", Safe},
	{"less README.md", Safe}, {"man git-log", Safe}, {"tokei", Safe}, {"cloc .", Safe},
	{"git log --format='%h %s' -10", Safe}, {"git diff main...HEAD --name-only", Safe},
	{"git log --oneline | head -5", Safe}, {"git show HEAD:go.mod", Safe}, {"git cat-file -p HEAD", Safe},
	{"git merge-base HEAD main", Safe}, {"git rev-list --count HEAD", Safe}, {"wc -c README.md", Safe},
	{"md5sum main.go", Safe}, {"sha256sum go.sum", Safe}, {"xxd main.go | head", Safe}, {"od -c README.md | head", Safe},
	{"column -t names.txt", Safe}, {"find . -name '*_test.go' | xargs grep -l Benchmark", Safe},
	{"find . -type f | wc -l", Safe}, {"ls -la ~", Safe}, {"ls ~/.config", Safe}, {"cat /etc/hosts", Safe},
	{"grep -i error log.txt | tail -20", Safe}, {"tail -n 20 log.txt | grep -v DEBUG", Safe}, {"head -c 200 main.go", Safe},
	{"echo $PATH | tr ':' '\\n'", Safe}, {"go env | grep GOOS", Safe}, {"git log -1 --format=%cd", Safe},
	{"sort -u names.txt", Safe}, {"uniq names.txt", Safe}, {"nl main.go | head", Safe}, {"fold -w 80 README.md", Safe},
	{"comm -12 a.txt b.txt", Safe}, {"seq 1 10", Safe}, {"date +%Y-%m-%d", Safe}, {"cal", Safe}, {"expr 1 + 2", Safe},
	{"echo $((1+2))", Safe}, {"x=$(git rev-parse HEAD); echo $x", Safe}, {"ls src | head", Safe},
	{"lsof -i :8080", Safe}, {"ss -tlnp", Safe}, {"which python3 && python3 --version", Safe},
	{"node --version", Safe}, {"go version && git --version", Safe}, {"git log --stat -3", Safe},
	{"git diff --name-status HEAD~3", Safe}, {"grep -rl TODO src | head", Safe}, {"find . -newer go.mod -type f", Safe},
	{"du -a src | sort -n | tail", Safe}, {"git log --author=alice --since=yesterday", Safe},
	{"git show --name-only HEAD~2", Safe}, {"ls -t | head -5", Safe}, {"cat -n main.go | sed -n '1,40p'", Safe},
	// Not safe, and rightly: env prints every variable; ping and curl
	// reach the network; npm test runs the project's code.
	{"env | grep GO", Confirm}, {"ping -c 1 example.com", Confirm}, {"curl -sI https://example.com", Confirm},
	{"npm test", Confirm}, {"go test ./...", Confirm}, {"make", Confirm},
}

// TestHeldOutPrecision holds ordinary read-only commands to the tier they
// should get, and reports how many of those meant to be safe are.
func TestHeldOutPrecision(t *testing.T) {
	c := tableClassifier()
	safe, meant := 0, 0
	for _, tc := range heldOut {
		v := c.classify(tc.cmd)
		if tc.want == Safe {
			meant++
			if v.Tier == Safe {
				safe++
			}
		}
		if v.Tier != tc.want {
			t.Errorf("%q: got %v, want %v\n\treasons: %q", tc.cmd, v.Tier, tc.want, v.Reasons)
		}
	}
	t.Logf("held-out read-only commands: %d of %d rated safe", safe, meant)
}

// TestSecretSamplesAreSecrets holds the names couldNameSecret matches
// patterns against to the one secret predicate, so they cannot drift.
func TestSecretSamplesAreSecrets(t *testing.T) {
	for _, s := range secretNameSamples {
		if secretLoc(placePath("~/"+s, "")) == "" && secretLoc(placePath(s+"/x", "")) == "" {
			t.Errorf("%q is a sample of a secret name, but secretLoc does not call it one", s)
		}
	}
	for _, p := range []string{"~/.claude/.credentials.json", "~/.config/rclone/rclone.conf", "~/.psql_history", ".envrc",
		"~/.codex/auth.json", "~/.kaggle/kaggle.json", "~/.config/pincer/config.json", "~/.local/share/pincer/pincer.db",
		"prod.tfvars", "~/.claude.json", "~/.m2/settings.xml", "/proc/1/environ"} {
		if secretLoc(placePath(p, "")) == "" {
			t.Errorf("secretLoc(%q) is empty", p)
		}
	}
	for _, p := range []string{"README.md", ".env.example", "main.go", "~/.ssh/id_rsa.pub", "docs/secrets-management.md"} {
		if why := secretLoc(placePath(p, "")); why != "" {
			t.Errorf("secretLoc(%q) = %q for an ordinary file", p, why)
		}
	}
}

func TestExpandGlob(t *testing.T) {
	files := newFakeFiles("a.go", "b.go", ".env", ".editorconfig", "src/c.go", "src/d.txt", "~/.ssh/id_rsa", "/etc/hosts")
	for _, tc := range []struct {
		pattern, cwd string
		want         string // names joined by spaces; "!" when not expandable
	}{
		{"*.go", "", "a.go b.go"},
		{"*", "", "a.go b.go src"},
		{".e*", "", ".editorconfig .env"},
		{"*/*.go", "", "src/c.go"},
		{"*.go", "src", "c.go"},
		{"~/.ssh/*", "", "~/.ssh/id_rsa"},
		{"/etc/h*", "", "/etc/hosts"},
		{"*.rs", "", ""},
		{"@(a|b).go", "", "!"},
		{"[[:alpha:]].go", "", "!"},
	} {
		names, ok := expandGlob(files, tc.pattern, tc.cwd)
		got := strings.Join(names, " ")
		if !ok {
			got = "!"
		}
		if got != tc.want {
			t.Errorf("expandGlob(%q in %q) = %q, want %q", tc.pattern, tc.cwd, got, tc.want)
		}
	}
}

func TestTreeSecretBounds(t *testing.T) {
	var paths []string
	for i := 0; i < maxTreeEntries+10; i++ {
		paths = append(paths, "big/f"+itoa(i))
	}
	c := tableClassifier().WithFiles(newFakeFiles(paths...))
	v := c.classify("grep -r x big")
	if v.Tier != Confirm || !strings.Contains(strings.Join(v.Reasons, " "), "cannot check for secrets") {
		t.Errorf("a tree over the walk limit: %v %q, want confirm saying it cannot be checked", v.Tier, v.Reasons)
	}
}

// TestProvenNamesTheEntries checks that a safe verdict names, for each
// part, the list entry that proved it (pincer classify --explain shows
// them), and that a part the list does not prove says so.
func TestProvenNamesTheEntries(t *testing.T) {
	c := tableClassifier()
	v := c.Classify("cd src && ls -la | nice -n 5 grep -c x")
	want := []string{"cd src: cd (changes directory)", "ls -la: ls (lists directories)",
		"nice -n 5 grep -c x: nice (runs a command at a lower priority) → grep (searches files)"}
	if v.Tier != Safe || strings.Join(v.Proven, "\n") != strings.Join(want, "\n") {
		t.Errorf("proven = %q (%v), want %q", v.Proven, v.Tier, want)
	}
	v = c.Classify("frobnicate --bar")
	if len(v.Reasons) != 1 || !strings.Contains(v.Reasons[0], "frobnicate --bar: ") {
		t.Errorf("reasons %q", v.Reasons)
	}
	v = c.Classify("git help log")
	if v.Tier != Confirm || v.Reasons[0] != "git help log: "+unprovenWhy+" (git help is not one of them)" {
		t.Errorf("git help log: %v %q", v.Tier, v.Reasons)
	}
}

// TestCarriageReturnIsPartOfTheWord is issue 25's item 11: bash reads a
// carriage return inside a word as part of it, so touch a.txt\recho
// makes one file named "a.txt\recho", and the reasons say so.
func TestCarriageReturnIsPartOfTheWord(t *testing.T) {
	c := tableClassifier()
	v := c.Classify("touch a.txt\recho harmless-looking")
	got := strings.Join(v.Reasons, "\n")
	if v.Tier != Confirm || !strings.Contains(got, "writes a.txt\recho;") || strings.Contains(got, "writes echo") {
		t.Errorf("reasons %q, want the file a.txt\\recho written and no file named echo", v.Reasons)
	}
	if v := c.Classify("rm -rf x\recho y"); v.Tier != Dangerous {
		t.Errorf("rm -rf with a carriage return in a word: %v", v.Tier)
	}
	if v := c.Classify("ls\r"); v.Tier != Confirm {
		t.Errorf("ls\\r is a program named ls\\r, not ls: %v %q", v.Tier, v.Reasons)
	}
}

// TestUnknownSafeKeepsTheOlderRule documents the choice for people who set
// unknown_commands to safe: they asked that only a danger found raises a
// command, so the list does not apply to them.
func TestUnknownSafeKeepsTheOlderRule(t *testing.T) {
	c, err := NewClassifier(Rules{UnknownCommands: UnknownSafe})
	if err != nil {
		t.Fatal(err)
	}
	if v := c.Classify("frobnicate --all"); v.Tier != Safe {
		t.Errorf("unknown program under UnknownSafe: %v", v.Tier)
	}
	if v := c.Classify("rm -rf x"); v.Tier != Dangerous {
		t.Errorf("rm -rf under UnknownSafe: %v", v.Tier)
	}
}

// TestStrictKeepsFiles checks that the built-in judgement plan mode asks
// keeps the view of the disk, and drops the person's rules.
func TestStrictKeepsFiles(t *testing.T) {
	c, err := NewClassifier(Rules{Allow: []string{"npm ls *"}})
	if err != nil {
		t.Fatal(err)
	}
	c = c.WithFiles(cleanProject())
	if v := c.Classify("npm ls"); v.Tier != Safe {
		t.Fatalf("allowed npm ls: %v", v.Tier)
	}
	s := c.Strict()
	if v := s.Classify("npm ls"); v.Tier != Confirm {
		t.Errorf("strict npm ls: %v, want confirm (the rule does not count)", v.Tier)
	}
	if v := s.Classify("grep -rn x ."); v.Tier != Safe {
		t.Errorf("strict grep -rn over a clean tree: %v %q", v.Tier, v.Reasons)
	}
}
