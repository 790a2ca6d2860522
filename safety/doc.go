// Package safety decides how much approval an action of the agent needs:
// the risk tier of a shell command, and the policy for file tools reading
// and writing paths. It only decides; it does no I/O and asks nobody.
//
// # Tiers
//
// Safe runs at once. It is for read-only inspection: ls, cat, head, tail
// (including -f), wc, grep and rg (but not rg --pre), find without -exec,
// -ok, -delete or -fprint, sed without -i and without the e and w commands,
// awk programs that neither run commands nor write files, jq, diff, sort
// without -o, git status/diff/log/show/blame and the list forms of git
// branch, tag, remote, stash and config, go env/version/list/vet/doc,
// --version and --help queries of known programs, and system facts (uname,
// whoami, ps, df, …). Pipelines, lists and loops of safe parts stay safe;
// cd is tracked, so `cd src && ls` is safe.
//
// Confirm needs one approval. It covers ordinary development changes
// (git commit/push/merge/rebase/reset/checkout, package installs, builds
// and tests, docker run/rm/stop), writes through redirection or tee,
// cp/mv/touch/mkdir, rm of single files (not recursive, not forced), network fetches
// that are not run, kill, interpreter one-liners that do nothing
// destructive (they still run code), reading secret-looking files (.env,
// keys, ~/.ssh, credentials), printing the whole environment, and every
// program the classifier does not know (unless Rules.UnknownCommands is
// UnknownSafe). Anything the classifier cannot see through is at least
// Confirm: input that does not parse, a program name only known at run time
// ($CMD, $(…)), a remote or container command, code built from unknown
// text (bash -c "$X") or with some words only known at run time
// (bash -c "make $T"), text bash evaluates as code (arithmetic, subscripts,
// ${!x}, ${x@P}) that holds an expansion, options and variables that name
// a program (git -c core.fsmonitor=…, --upload-pack, go -toolexec, CC=…),
// git pointed at another repository (-C, --git-dir, GIT_DIR, cd
// elsewhere), and commands longer than 16 KB, which are only scanned
// roughly for dangerous parts.
//
// Dangerous needs two approvals: rm -r in every spelling (-rf, -fr, -r -f,
// --recursive --force, flags after operands, /bin/rm, \rm, "r"m, $'\x72m',
// {rm,-rf,/}, rm${IFS}-rf, command/env/xargs/find -exec rm, …); sudo, doas,
// su, pkexec; chmod making files world-writable or setuid; downloads piped,
// substituted or saved and then run by an interpreter (curl … | sh,
// sh -c "$(curl …)", bash <(curl …), curl -o x; sh x, iwr … | iex) and text
// decoded at run time and run (base64 -d | sh); mkfs, partitioning, dd or
// redirections to block devices; format C:, del /s, rd /s, Remove-Item
// -Recurse; fork bombs; writes, deletes or permission changes of system
// files (/etc, /usr, …), ~/.ssh, credentials, shell start-up files,
// crontabs, git hooks; git push --force/--mirror/--delete and +refspecs,
// git clean -f, git reset --hard, git checkout/restore of the whole tree,
// git stash clear and drop, git branch -D, git worktree remove --force,
// the ext:: transport, history rewrites; shutdown and reboot; interpreter
// one-liners that delete, chmod, write files, fork or shell out to a
// dangerous command; find -delete; SQL that drops or empties data through a
// client; remote shells (bash -i >& /dev/tcp/…, nc -e); uploads of secrets.
// Also dangerous: anything piped or redirected into a shell or interpreter
// that is not written out in the command (cat x.sh | sh, bash < x.sh,
// source <(…), eval "$X", iex $code); forced deletion (rm -f, del /f,
// Remove-Item -Force) and emptying files (truncate -s 0, : > f,
// cp /dev/null f, mv f /dev/null); removing every container; killing every
// process of a user; stopping firewalls, security and log services;
// clearing event logs; ACL and ownership grants on drive roots and system
// paths; Set-ExecutionPolicy Unrestricted; unpublishing packages and
// deleting releases; clearing or redirecting shell history; variables that
// inject code (LD_PRELOAD, DYLD_*, BASH_ENV, NODE_OPTIONS=--require, …);
// and secrets, system files, the home directory or the whole project sent
// to a network tool, followed through pipes, substitutions and files.
//
// # How a command is read
//
// The command is parsed with mvdan.cc/sh/v3/syntax (bash dialect) and every
// simple command is classified: in pipelines, ; && || & and newline lists,
// subshells, { } groups, if/for/while/case bodies, function bodies (as if
// called), command and process substitutions, here-documents and here
// strings. The tier of the whole is the highest tier of any part, and
// redirections count. Quoted text that is only an argument stays an
// argument: grep -r "rm -rf" . is safe.
//
// Words are expanded as far as the command itself says: quotes and
// escapes are removed, brace expansion is done, variables take every value
// the script assigns them (and an unknown one), $(echo rm) and $(printf …)
// are evaluated, ${X:-rm} considers its default, $HOME is the home
// directory. Wrappers are unwrapped (sudo, doas, env with its options and
// assignments, command, builtin, exec, nice, nohup, timeout, time, stdbuf,
// ionice, watch, xargs, parallel, find -exec/-execdir/-ok, busybox, poetry
// run, docker exec, …) and strings run by a shell are classified as
// scripts of their own: bash/sh/zsh/dash/ksh -c, eval, ssh host '…',
// su -c, cmd /c, powershell -Command and -EncodedCommand, git aliases and
// pagers, trap. What flows through pipes is tracked: text downloaded or
// decoded and then run by a shell or interpreter is dangerous, literal text
// piped to sh is classified as the script it is. Windows spellings (format,
// del, rd, Remove-Item, ri) are recognised as words.
//
// Input the parser rejects is at least Confirm, and every command-like run
// of words in it is still checked, so a syntax error cannot hide rm -rf.
//
// SafeEnv gives the git configuration a command rated Safe runs with, so
// that a repository's own configuration cannot make a read run a program.
//
// # Reasons
//
// A Verdict carries one reason per part that raised the tier, in the form
// "<the part>: <why>", for example "rm -rf build/: recursive forced
// delete". Dangerous reasons come first.
//
// # Rules
//
// Rules.Allow and Rules.Deny hold patterns of a program and its arguments
// ("go test *", "npm run *"). They apply to each simple command, including
// commands inside wrappers and nested shells. A deny match refuses the
// whole command (Verdict.Denied); an allow match lowers that command from
// Confirm to Safe and never lowers Dangerous, nor Confirm raised by things
// a rule cannot vouch for (a program chosen at run time, LD_PRELOAD).
// SuggestRule gives the pattern "always allow for this session" saves.
//
// # Paths
//
// Classifier.Path applies the same knowledge to file tools: inside the
// project and ordinary is Safe; outside the project, inside .git/ or
// secret-looking needs approval; writing where a command's write would be
// dangerous is Dangerous.
//
// # Files
//
// The names say the role. The engine reads a command into a verdict:
//
//   - engine_classify.go: Classifier, Classify, the entry point
//   - engine_rough.go: what is too large or deep to parse, scanned roughly
//   - engine_walk.go: the walk of a parsed script, statement by statement
//   - engine_words.go: expanding words (quotes, braces, variables, globs)
//   - engine_scope.go: variables, functions and parameters one shell knows
//   - engine_eval.go: text bash evaluates as code (arithmetic, subscripts)
//   - engine_env.go: assignments and the variables that inject code
//   - engine_redirect.go: redirections and what they write or read
//   - engine_nested.go: strings a shell will run (bash -c, eval, ssh)
//   - engine_part.go: one simple command, its raises and its handler call
//   - engine_getopt.go: splitting a program's arguments into options
//   - engine_paths.go: placing a path argument and rating where it points
//   - engine_files.go: Files, the only view of the disk (globs, trees)
//   - engine_leak.go: secrets followed until they reach a network tool
//   - engine_verdict.go, engine_tier.go: Verdict and Tier
//
// Proven, not listed: what the engine finds nothing against is Safe only
// when proof.go proves every level of it against the closed list
// (proof_safelist.go, with the checks of scripts and patterns in
// proof_safelist_checks.go and git and go in proof_safelist_git.go);
// proof_scan.go proves what the shell evaluates outside simple commands.
//
// The handlers of single programs are prog_*.go, indexed by
// prog_table.go: prog_files.go (rm, cp, chmod, dd, …), prog_text.go (cat,
// grep, sort, …), prog_read_options.go (programs that only read unless an
// option makes them write or run something), prog_wrappers.go (sudo, env,
// xargs, …), prog_shells.go, prog_interp.go (python -c, node -e, …),
// prog_git.go, prog_dev.go (package managers, compilers, docker, clouds),
// prog_net.go, prog_system.go, prog_publish.go, prog_archive.go,
// prog_find.go, prog_sed.go, prog_awk.go.
//
// Decisions that are not about shell commands are policy_*.go:
// policy_path.go (file tools), policy_web.go (read_web), policy_mcp.go
// (MCP tool calls), policy_sandbox.go (sandbox modes), policy_profile.go
// (the jail a verdict gets) and policy_execenv.go (the git settings a
// safe command runs with). The user's allow and deny rules are rules.go,
// and the rule "always allow for this session" saves is rules_suggest.go.
package safety
