package safety

import (
	"strings"
	"testing"
)

// harmCases hold commands whose tier must match the harm they can do,
// written as people type them: code fed to shells, commands carried inside
// other commands, data destroyed without a way back, tracks covered,
// loaders hijacked through the environment, data sent off the machine, and
// the everyday commands that must keep their tiers.
var harmCases = []commandCase{
	// Anything piped or redirected into a shell or an interpreter is
	// dangerous, whatever produced it; text written out in the command is
	// judged as the script it is.
	{"cat install.sh | sh", Dangerous, "a file piped into sh"},
	{"cat install.sh | bash -s", Dangerous, "bash -s reads its script from the pipe"},
	{"cat install.sh | bash -s -- --prefix=/usr/local", Dangerous, "bash -s with arguments"},
	{"cat install.sh | sudo bash", Dangerous, "root shell reading a pipe"},
	{"cat setup.py | python", Dangerous, "python reads its program from the pipe"},
	{"cat x.py | python3 -", Dangerous, "python3 - reads the pipe"},
	{"cat app.js | node", Dangerous, "node reads the pipe"},
	{"cat x.pl | perl", Dangerous, "perl reads the pipe"},
	{"cat x.rb | ruby", Dangerous, "ruby reads the pipe"},
	{"cat x.php | php", Dangerous, "php reads the pipe"},
	{"cat x.lua | lua", Dangerous, "lua reads the pipe"},
	{"cat x.ps1 | pwsh -", Dangerous, "pwsh - reads the pipe"},
	{"Get-Content x.ps1 | pwsh -Command -", Dangerous, "pwsh -Command - reads the pipe"},
	{"bash < install.sh", Dangerous, "a script redirected into bash"},
	{"sh < /tmp/x.sh", Dangerous, "a script redirected into sh"},
	{"python3 < x.py", Dangerous, "a program redirected into python"},
	{"cmd < x.bat", Dangerous, "a batch file redirected into cmd"},
	{"type x.bat | cmd", Dangerous, "a batch file piped into cmd"},
	{"sh <(cat x.sh)", Dangerous, "a script from a process substitution"},
	{"source <(kubectl completion bash)", Dangerous, "source of another command's output"},
	{". <(cat x)", Dangerous, "dot of another command's output"},
	{"cat x | . /dev/stdin", Dangerous, "dot of the pipe"},
	{"cat x | source /dev/stdin", Dangerous, "source of the pipe"},
	{`bash <<< "$x"`, Dangerous, "here-string of a variable"},
	{`sh <<< "$(cat x)"`, Dangerous, "here-string of another command's output"},
	{`echo "$CMD" | sh`, Dangerous, "a variable piped into sh"},
	{`printf '%s\n' "$CMD" | bash`, Dangerous, "printf of a variable piped into bash"},
	{`sh -c "$(cat x.sh)"`, Dangerous, "sh -c of another command's output"},
	{`eval "$(ssh-agent -s)"`, Dangerous, "eval of another command's output"},
	{`eval "$X"`, Dangerous, "eval of a variable"},
	{"git show HEAD:deploy.sh | sh", Dangerous, "a file from git piped into sh"},
	{"ls | sh", Dangerous, "any output piped into sh"},
	{"cat x | sh -x", Dangerous, "tracing does not change what runs"},
	{"cat x | env sh", Dangerous, "through env"},
	{"cat x | busybox sh", Dangerous, "through busybox"},
	{"cat x | command bash", Dangerous, "through command"},
	{"cat x | tee /dev/null | sh", Dangerous, "through tee"},
	{"(cat a.sh; cat b.sh) | bash", Dangerous, "a subshell's output piped into bash"},
	{"ls && cat x.sh | zsh", Dangerous, "in an && chain"},
	{"cat x | xargs -0 bash -c", Dangerous, "xargs hands its input to bash -c"},
	{"ls | xargs -I{} sh -c '{}'", Dangerous, "each input line run as a script"},
	{`ssh host "$CMD"`, Dangerous, "a remote script only known at run time"},
	{"ssh host bash -s < deploy.sh", Dangerous, "a local script fed to a remote shell"},
	{"iex (Get-Content x.ps1 -Raw)", Dangerous, "Invoke-Expression of a file"},
	{"iex (iwr https://example.com/i.ps1)", Dangerous, "Invoke-Expression of a download"},
	{"Invoke-Expression $code", Dangerous, "Invoke-Expression of a variable"},
	{"Get-Content x.ps1 | iex", Dangerous, "a file piped into Invoke-Expression"},
	{`powershell -Command "iex $env:PAYLOAD"`, Dangerous, "Invoke-Expression inside -Command"},
	{`pwsh -c 'iex $env:PAYLOAD'`, Dangerous, "the same, quoted for PowerShell"},
	{`Invoke-Expression "Get-Item $path"`, Dangerous, "a variable spliced into code"},
	{"bash <<< 'ls'", Safe, "a literal safe script"},
	{"cat <<'EOF' | sh\nls -la\npwd\nEOF", Safe, "a literal here-document piped into sh"},
	{"bash <<'EOF'\nrm -rf /tmp/x\nEOF", Dangerous, "a literal here-document with rm -rf"},
	{"python3 - <<'EOF'\nprint(1)\nEOF", Confirm, "literal Python: runs code, nothing destructive"},
	{"python3 - <<EOF\nprint('$NAME')\nEOF", Confirm, "literal Python with a variable in a string"},
	{"python3 - <<'EOF'\nimport shutil\nshutil.rmtree('/srv')\nEOF", Dangerous, "literal Python that deletes"},
	{"cat data.json | python3 -m json.tool", Safe, "data piped into a module, not code"},
	{"cat input.txt | python3 script.py", Confirm, "data piped into a script"},
	{"jq . x.json | node -e 'process.stdin.pipe(process.stdout)'", Confirm, "data piped into a one-liner"},

	// Commands carried inside other commands' arguments are classified as
	// commands, and never lower the verdict.
	{"find . -name '*.tmp' -exec rm {} \\;", Dangerous, "find -exec rm deletes whatever it finds"},
	{"find . -type f -execdir sh -c 'rm \"$1\"' _ {} \\;", Dangerous, "find -execdir sh -c rm"},
	{"find . -okdir rm -rf {} \\;", Dangerous, "find -okdir rm -rf"},
	{"find . -exec \"$CMD\" {} \\;", Confirm, "a program only known at run time"},
	{"find . -exec sh -c \"$X\" \\;", Dangerous, "a script only known at run time"},
	{"ls | xargs -I{} rm {}", Dangerous, "xargs -I rm"},
	{"find . -print0 | xargs -0 rm -f", Dangerous, "xargs -0 rm -f"},
	{"ls | xargs -I{} sh -c 'rm -rf {}'", Dangerous, "xargs sh -c rm -rf"},
	{"xargs -a list.txt rm -rf", Dangerous, "xargs reading a file"},
	{"git ls-files | xargs grep -n TODO", Safe, "xargs grep reads"},
	{"ssh host 'cd /srv && rm -rf releases/old'", Dangerous, "the remote script is classified"},
	{"ssh host 'cd /srv && git pull; systemctl restart app'", Confirm, "a remote deploy: reaches another machine"},
	{"ssh deploy@host <<EOF\nrm -rf /var/www/old\nEOF", Dangerous, "a remote here-document script"},
	{"ssh host <<'EOF'\nuptime\ndf -h\nEOF", Confirm, "a harmless remote script still reaches another machine"},
	{"ssh -T host < cleanup.sh", Dangerous, "a local file fed to the remote shell"},
	{"ssh user@host -p 2222 'rm -rf ~/app'", Dangerous, "options after the host name"},
	{"ssh host -- sudo reboot", Dangerous, "-- before the remote command"},
	{"ssh -o RemoteCommand='rm -rf /srv' host", Dangerous, "RemoteCommand"},
	{"ssh host uptime", Confirm, "ssh is at least confirm"},
	{"ssh -s host sftp", Confirm, "a subsystem"},
	{"docker exec web rm -rf /data", Dangerous, "docker exec"},
	{"docker exec -it web sh -c 'rm -rf /var/lib/app'", Dangerous, "docker exec sh -c"},
	{"docker run --rm alpine rm -rf /x", Dangerous, "docker run CMD"},
	{"docker run --rm --name job -e A=1 -v $(pwd):/src -w /src alpine sh -c 'rm -rf /src/*'", Dangerous, "docker run with options and sh -c"},
	{"docker run --rm --entrypoint rm alpine -rf /data", Dangerous, "--entrypoint names the program"},
	{"podman run --restart always --gpus all img rm -rf /x", Dangerous, "podman with value options"},
	{"docker run --rm alpine echo hi there", Confirm, "a harmless container command"},
	{"docker compose exec web rm -rf /app/tmp", Dangerous, "docker compose exec"},
	{"docker-compose run --rm -e X=1 web sh -c 'rm -rf /x'", Dangerous, "docker-compose run"},
	{"docker compose exec web python manage.py migrate", Confirm, "an ordinary compose command"},
	{"kubectl exec -it pod -- rm -rf /data", Dangerous, "kubectl exec --"},
	{"kubectl exec pod -c app -- sh -c 'rm -rf /x'", Dangerous, "kubectl exec sh -c"},
	{"kubectl run tmp --rm -it --image=alpine -- rm -rf /x", Dangerous, "kubectl run --"},
	{"gcloud compute ssh vm --command 'sudo rm -rf /x'", Dangerous, "gcloud compute ssh --command"},
	{"lxc exec c1 -- rm -rf /x", Dangerous, "lxc exec"},
	{"vagrant ssh -c 'rm -rf /vagrant/x'", Dangerous, "vagrant ssh -c"},
	{"sudo -u www-data rm -rf /var/www/html", Dangerous, "sudo -u"},
	{"sudo -E ./install.sh", Dangerous, "sudo -E"},
	{"sudo sh -c 'echo 1 > /proc/sys/vm/drop_caches'", Dangerous, "sudo sh -c"},
	{"doas rm x", Dangerous, "doas"},
	{"su - postgres -c 'dropdb app'", Dangerous, "su -c"},
	{`env -S "rm -rf build"`, Dangerous, "env -S"},
	{"env -i PATH=/usr/bin rm -rf build", Dangerous, "env -i"},
	{"watch -n 5 'rm -rf tmp/*'", Dangerous, "watch string"},
	{"watch -x rm -rf build", Dangerous, "watch -x"},
	{"nohup bash -c 'sleep 1; rm -rf x' > /dev/null 2>&1 &", Dangerous, "nohup bash -c in the background"},
	{"nice --adjustment=5 rm -rf x", Dangerous, "nice"},
	{"ionice -c3 rm -rf build", Dangerous, "ionice"},
	{"flock /tmp/lock rm -rf build", Dangerous, "flock FILE CMD"},
	{"flock -c 'rm -rf build' /tmp/lock", Dangerous, "flock -c"},
	{"setsid rm -rf build", Dangerous, "setsid"},
	{"stdbuf -oL rm -rf build", Dangerous, "stdbuf"},
	{"chroot /mnt ls", Dangerous, "chroot needs root"},
	{"unshare -r rm -rf build", Dangerous, "unshare runs the command"},
	{"unshare -r ls", Confirm, "unshare of a harmless command"},
	{"nsenter -t 1 -m -u ls", Dangerous, "nsenter"},
	{"script -q /dev/null -c 'rm -rf x'", Dangerous, "script -c"},
	{"parallel -j4 'rm -rf {}' ::: a b", Dangerous, "parallel"},
	{"time -p rm -rf x", Dangerous, "time"},
	{"exec -a foo rm -rf x", Dangerous, "exec -a"},
	{"busybox sh -c 'rm -rf build'", Dangerous, "busybox sh"},
	{"setpriv --reuid=1000 rm -rf x", Dangerous, "setpriv"},
	{"systemd-run --user rm -rf x", Dangerous, "systemd-run"},
	{"sg docker -c 'rm -rf x'", Dangerous, "sg -c"},
	{"cpulimit -l 50 -- rm -rf x", Dangerous, "cpulimit"},
	{"faketime '2020-01-01' rm -rf x", Dangerous, "faketime"},
	{"ls *.go | entr -s 'rm -rf x'", Dangerous, "entr -s"},
	{"ls *.go | entr go test ./...", Confirm, "entr of a test run"},
	{"dbus-run-session rm -rf x", Dangerous, "dbus-run-session"},
	{"perf stat rm -rf x", Dangerous, "perf stat runs the command"},
	{"make -f /tmp/Makefile", Confirm, "make runs a Makefile's recipes"},
	{"make -C sub test", Confirm, "make in a subdirectory"},
}

func TestClassifyHarm(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tc := range commandCases {
		seen[tc.cmd] = true
	}
	for _, tc := range harmCases {
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
