package safety

import (
	"fmt"
	"sort"
	"strings"
)

// The closed list of commands that run without asking. A program is here
// only when what it does with every option listed is known: it reads
// (files whose arguments are proven by proof.go), prints, or lists, and it
// neither writes, runs another program, reaches the network or a socket,
// nor loads code or configuration the project controls. Options not
// listed are not proven, so a new option of an old program is asked about.
//
// Options are written in a small language, one word per option:
//
//	-abc       short options without a value (a cluster of letters)
//	-n=        a short option with a value; the letter after = gives its kind
//	--all      a long option without a value
//	--lines=   a long option with a value (--lines=N or --lines N)
//	--color?   a long option whose value is optional (only --color=WHEN)
//	--merged~  an optional value that may also be the next word (--merged main)
//
// Kinds: none is a literal written in the command; r a file read; l a path
// whose names are listed; t a tree read recursively; d a directory in the
// project to work in; a anything, even text only known at run time.

// argKind is what a program does with a word.
type argKind uint8

const (
	argNone   argKind = iota // no operands: only for entry.first
	argLit                   // a value that must be written out
	argAny                   // any value, even one known only at run time (printed text)
	argRead                  // a file the program reads
	argList                  // a path whose names or metadata it shows
	argTree                  // a tree it reads recursively
	argDir                   // a directory inside the project it works in
	argScript                // shell text the classifier reads as a script of its own
)

// optKind describes one option.
type optKind struct {
	takes    bool
	optional bool // the value is optional: only --name=value gives one
	next     bool // an optional value may also be the next word, unless it starts with -
	kind     argKind
}

// optTable is a program's options.
type optTable struct {
	short map[byte]optKind
	long  map[string]optKind
}

// entry is one program (or subcommand) on the list.
type entry struct {
	name       string
	about      string // what the entry allows, for explanations
	opts       optTable
	operands   argKind
	first      argKind // the first operand's kind, when it differs (a pattern)
	maxOps     int     // -1: any number
	posix      bool    // options end at the first operand
	single     bool    // options are single-dash words (-name), never clusters
	number     bool    // -NUM is an option (head -20)
	plus       bool    // +WORD is an option (less +F)
	anyOpts    bool    // every option of the program is harmless (audited)
	noDashDash bool    // -- is an operand
	wrap       int     // a wrapper: the command starts at operand wrap (1 = the first)
	bare       bool    // a wrapper that may run nothing (exec with only redirections)
	raw        bool    // the check reads the arguments itself (find, printf, ps)
	passEnv    bool    // a wrapper: environment prefixes belong to the command it runs
	filter     bool    // reading its input, it prints a subset of the lines
	subs       map[string]*entry
	check      func(c *proofCtx, a *proofArgs) string
	// env reports a variable that is inert for this program (GOOS for go).
	env func(name, value string) bool
}

// spec builds an entry from the option language. It panics on a malformed
// spec: the table is fixed, and a test builds it.
func spec(name, about, opts string, operands argKind) *entry {
	e := &entry{name: name, about: about, operands: operands, maxOps: -1,
		opts: optTable{short: map[byte]optKind{}, long: map[string]optKind{}}}
	e.parseOpts(opts)
	return e
}

// specOn builds an entry whose options are those of base (parsed once and
// shared by the entries that use them: git's log options) and extra.
func specOn(name, about string, base optTable, extra string, operands argKind) *entry {
	e := &entry{name: name, about: about, operands: operands, maxOps: -1, opts: base}
	if strings.TrimSpace(extra) != "" {
		e.opts = optTable{short: make(map[byte]optKind, len(base.short)+8), long: make(map[string]optKind, len(base.long)+8)}
		for k, v := range base.short {
			e.opts.short[k] = v
		}
		for k, v := range base.long {
			e.opts.long[k] = v
		}
		e.parseOpts(extra)
	}
	return e
}

// parseOpts adds the options of the option language to e.
func (e *entry) parseOpts(opts string) {
	name := e.name
	for _, w := range strings.Fields(opts) {
		switch {
		case w == "#":
			e.number = true
		case strings.HasPrefix(w, "--"):
			n, k := optWord(w)
			e.opts.long[n] = k
		case strings.HasPrefix(w, "-") && len(w) >= 3 && (w[2] == '=' || w[2] == '?' || w[2] == '~'):
			_, k := optWord(w)
			e.opts.short[w[1]] = k
		case strings.HasPrefix(w, "-") && len(w) >= 2 && !strings.ContainsAny(w, "=?~"):
			for i := 1; i < len(w); i++ {
				e.opts.short[w[i]] = optKind{}
			}
		default:
			panic(fmt.Sprintf("safelist: malformed option %q of %s", w, name))
		}
	}
}

// optWord reads one option word with a value.
func optWord(w string) (string, optKind) {
	i := strings.IndexAny(w, "=?~")
	if i < 0 {
		return w, optKind{}
	}
	k := optKind{takes: true, optional: w[i] != '=', next: w[i] == '~', kind: argLit}
	switch w[i+1:] {
	case "":
	case "r":
		k.kind = argRead
	case "l":
		k.kind = argList
	case "a":
		k.kind = argAny
	case "t":
		k.kind = argTree
	case "d":
		k.kind = argDir
	case "s":
		k.kind = argScript
	default:
		panic(fmt.Sprintf("safelist: unknown kind in %q", w))
	}
	return w[:i], k
}

// singleSpec builds an entry whose options are single-dash words.
func singleSpec(name, about, opts string, operands argKind) *entry {
	e := &entry{name: name, about: about, operands: operands, maxOps: -1, single: true,
		opts: optTable{short: map[byte]optKind{}, long: map[string]optKind{}}}
	for _, w := range strings.Fields(opts) {
		n, k := optWord(w)
		e.opts.long[n] = k
	}
	return e
}

// with sets fields of an entry and returns it, so the table reads as data.
func (e *entry) with(f func(e *entry)) *entry { f(e); return e }

func (e *entry) max(n int) *entry                                        { e.maxOps = n; return e }
func (e *entry) firstIs(k argKind) *entry                                { e.first = k; return e }
func (e *entry) asFilter() *entry                                        { e.filter = true; return e }
func (e *entry) checked(f func(c *proofCtx, a *proofArgs) string) *entry { e.check = f; return e }

// wrapper builds an entry for a program that runs the command after its
// options and skip operands.
func wrapperSpec(name, about, opts string, skip int) *entry {
	e := spec(name, about, opts, argLit)
	e.posix, e.wrap, e.passEnv = true, skip+1, true
	return e
}

// safelistTable builds the list. NewClassifier calls it once per classifier.
func safelistTable() map[string]*entry {
	t := map[string]*entry{}
	add := func(names string, e *entry) {
		for _, n := range strings.Fields(names) {
			cp := *e
			cp.name = n
			t[n] = &cp
		}
	}

	// Reading files.
	add("cat", spec("", "prints files", "-AbeEnstTuv --show-all --number-nonblank --number --squeeze-blank --show-ends --show-tabs --show-nonprinting", argRead).asFilter())
	add("tac", spec("", "prints files last line first", "-bsr --before --regex --separator=", argRead))
	add("head", spec("", "prints the start of files", "# -n= -c= -q -v -z --lines= --bytes= --quiet --silent --verbose --zero-terminated", argRead).asFilter())
	add("tail", spec("", "prints the end of files", "# -n= -c= -q -v -z -f -F -s= --lines= --bytes= --quiet --silent --verbose --zero-terminated --follow? --retry --sleep-interval= --pid= --max-unchanged-stats=", argRead).asFilter())
	add("wc", spec("", "counts lines, words and bytes", "-clmwL --bytes --chars --lines --words --max-line-length --files0-from=r --total=", argRead))
	add("nl", spec("", "numbers lines", "-b= -d= -f= -h= -i= -l= -n= -p -s= -v= -w= --body-numbering= --section-delimiter= --number-format= --number-width= --number-separator=", argRead))
	add("od", spec("", "dumps bytes", "-A= -j= -N= -t= -w? -v -a -b -c -d -f -i -l -o -s -x --address-radix= --skip-bytes= --read-bytes= --format= --output-duplicates --width? --endian= --traditional", argRead))
	add("hexdump hd", spec("", "dumps bytes", "-b -c -C -d -o -v -x -e= -n= -s= -f=r", argRead))
	add("xxd", singleSpec("", "dumps bytes", "-a -autoskip -b -bits -C -capitalize -c= -cols= -E -EBCDIC -e -g= -groupsize= -i -include -l= -len= -n= -name= -o= -p -ps -postscript -plain -s= -seek= -u -d", argRead).max(1))
	add("strings", spec("", "prints the text in files", "-a -d -f -w -o -n= -t= -e= --all --data --bytes= --radix= --encoding= --print-file-name --include-all-whitespace", argRead))
	add("file", spec("", "names the type of files", "-b -e= -E -f=r -F= -h -i -k -L -N -n -p -r -s -z -Z -0 -P= --brief --mime --mime-type --mime-encoding --dereference --no-dereference --keep-going --raw --extension --apple --print0 --uncompress --uncompress-noreport --separator= --exclude= --exclude-quiet= --parameter= --no-buffer --no-pad --preserve-date --special-files", argRead))
	add("rev", spec("", "reverses lines", "", argRead).asFilter())
	add("bat batcat", spec("", "prints files with highlighting", "-p -n -A -P -f -d -l= -H= -r= -m= --plain --number --show-all --no-paging --force-colorization --diff --language= --highlight-line= --line-range= --map-syntax= --color= --decorations= --style= --theme= --tabs= --wrap= --terminal-width= --file-name= --italic-text= --list-languages --list-themes", argRead))
	add("base64 base32 basenc", spec("", "encodes or decodes files to its output", "-d -D -i -w= -b= --decode --ignore-garbage --wrap= --base64 --base64url --base32 --base32hex --base16 --base2msbf --base2lsbf --z85", argRead).max(1))
	add("md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum shasum md5", spec("", "prints checksums of files", "-b -c -t -z -w -q -r -a= -l= -s= --binary --check --text --tag --zero --ignore-missing --quiet --status --strict --warn --algorithm= --length= --untagged --base64 --raw", argRead))
	add("cmp", spec("", "compares files byte by byte", "-b -l -s -i= -n= --print-bytes --verbose --quiet --silent --ignore-initial= --bytes=", argRead).max(4))
	add("diff", spec("", "compares files", "-q -s -c -u -e -n -y -l -p -t -T -r -N -a -b -B -w -i -E -Z -d -H -C= -U= -W= -F= -x= -X=r -S= -I= --brief --report-identical-files --context? --unified? --ed --normal --side-by-side --width= --left-column --suppress-common-lines --show-c-function --show-function-line= --label= --expand-tabs --initial-tab --suppress-blank-empty --recursive --new-file --unidirectional-new-file --exclude= --exclude-from=r --starting-file= --text --ignore-case --ignore-file-name-case --no-ignore-file-name-case --ignore-tab-expansion --ignore-trailing-space --ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-matching-lines= --minimal --horizon-lines= --speed-large-files --strip-trailing-cr --color? --palette= --from-file=r --to-file=r --tabsize= --no-dereference --line-format= --old-line-format= --new-line-format= --unchanged-line-format= --old-group-format= --new-group-format= --changed-group-format= --unchanged-group-format=", argRead).checked(checkDiff))
	add("sdiff", spec("", "compares files side by side", "-l -s -i -b -W -B -E -Z -a -t -d -H -w= -I= --expand-tabs --ignore-case --left-column --suppress-common-lines --width= --ignore-all-space --ignore-blank-lines --minimal --text --strip-trailing-cr --tabsize= --ignore-tab-expansion --ignore-trailing-space --ignore-space-change --speed-large-files", argRead).max(2))
	add("sort", spec("", "sorts lines", "-b -d -f -g -i -M -h -n -R -r -V -c -C -s -u -z -k= -t= -S= --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --check? --key= --field-separator= --stable --unique --zero-terminated --buffer-size= --parallel= --sort= --debug --files0-from=r --random-source=r", argRead).asFilter())
	add("uniq", spec("", "collapses repeated lines", "-c -d -D -i -u -z -f= -s= -w= --count --repeated --all-repeated? --group? --skip-fields= --ignore-case --skip-chars= --unique --check-chars= --zero-terminated", argRead).max(1).asFilter())
	add("cut", spec("", "cuts fields from lines", "-n -s -z -b= -c= -d= -f= --bytes= --characters= --delimiter= --fields= --complement --only-delimited --output-delimiter= --zero-terminated", argRead))
	add("tr", spec("", "translates characters", "-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1", argLit).max(2))
	add("paste", spec("", "joins lines of files", "-s -z -d= --delimiters= --serial --zero-terminated", argRead))
	add("join", spec("", "joins files on a field", "-i -z -a= -e= -j= -o= -t= -v= -1= -2= --check-order --nocheck-order --header --ignore-case --zero-terminated", argRead).max(2))
	add("comm", spec("", "compares sorted files", "-1 -2 -3 -i -z --check-order --nocheck-order --output-delimiter= --total --zero-terminated", argRead).max(2))
	add("fold", spec("", "wraps lines", "-b -s -w= --bytes --spaces --width=", argRead))
	add("fmt", spec("", "formats paragraphs", "# -c -s -t -u -p= -w= -g= --crown-margin --prefix= --split-only --uniform-spacing --width= --goal= --tagged-paragraph", argRead))
	add("column", spec("", "formats columns", "-t -x -n -e -J -d -L -s= -o= -c= -N= -R= -H= -l= -T= -E= -W= -r= --table --fillrows --json --separator= --output-separator= --output-width= --table-columns= --table-noheadings --table-right= --table-hide= --table-wrap= --table-truncate= --table-name= --keep-empty-lines", argRead))
	add("expand unexpand", spec("", "converts tabs and spaces", "-i -a -t= --initial --tabs= --all --first-only", argRead))
	add("shuf", spec("", "shuffles lines", "-e -r -z -i= -n= --echo --input-range= --head-count= --repeat --zero-terminated --random-source=r", argRead).checked(checkShuf))
	add("grep egrep fgrep", spec("", "searches files", grepOpts, argRead).checked(checkGrep).asFilter())
	add("zgrep zegrep zfgrep", spec("", "searches compressed files", grepOpts, argRead).checked(checkGrep))
	add("rg", spec("", "searches a tree", rgOpts, argTree).checked(checkRg))
	add("ag", spec("", "searches a tree", "-i -s -S -w -v -l -L -c -o -Q -F -a -u -U -t -f -n -H -0 -G= -g= -A= -B= -C= -m= --ignore-case --case-sensitive --smart-case --word-regexp --invert-match --files-with-matches --files-without-matches --count --only-matching --literal --fixed-strings --all-types --unrestricted --skip-vcs-ignores --all-text --follow --nobreak --noheading --nocolor --color --column --numbers --nonumbers --hidden --depth= --ignore= --ignore-dir= --file-search-regex= --max-count= --after= --before= --context= --stats --vimgrep --filename --nofilename --no-numbers --one-device --search-binary --print-long-lines --silent --width=", argTree).checked(checkAg))
	add("ack", spec("", "searches a tree", "-i -I -S -w -v -l -L -c -o -Q -h -H -n -s -k -f -g= -A= -B= -C= -m= --ignore-case --smart-case --word-regexp --invert-match --files-with-matches --files-without-matches --count --literal --no-filename --with-filename --column --nocolor --color --heading --noheading --break --nobreak --sort-files --type= --ignore-dir= --ignore-file= --max-count= --after-context= --before-context= --context= --noenv --nopager", argTree).checked(checkAck))
	add("jq gojq", spec("", "filters JSON", "-n -r -j -a -c -s -e -S -C -M -R --null-input --raw-output --join-output --ascii-output --compact-output --slurp --exit-status --sort-keys --color-output --monochrome-output --raw-input --tab --indent= --arg= --argjson= --slurpfile= --rawfile= --args --jsonargs --seq --stream --stream-errors --raw-output0 --unbuffered", argRead).with(func(e *entry) { e.raw = true }).checked(checkJq))
	add("yq", spec("", "filters YAML", "-r -o= -p= -I= -C -M -e -N -P -j -y --output-format= --input-format= --indent= --colors --no-colors --exit-status --no-doc --prettyPrint --unwrapScalar? --raw-output --null-input -n", argRead).checked(checkYq))
	add("sed gsed", spec("", "prints text with edits", "-n -E -r -s -u -z -l= -e= --quiet --silent --regexp-extended --separate --unbuffered --null-data --line-length= --posix --sandbox --debug --expression=", argRead).checked(checkSed))
	add("awk gawk mawk nawk", spec("", "runs an awk program that only prints", "-F= -v= --field-separator= --assign= --posix --traditional --re-interval --characters-as-bytes --sandbox --lint? --use-lc-numeric", argRead).checked(checkAwk))
	add("less more most", spec("", "pages files (without a terminal it only prints)", "-R -r -N -n -S -X -F -i -I -M -m -K -q -Q -s -c -e -E -f -g -G -w -J -x= -z= -# -j= -b= -h= -y= --RAW-CONTROL-CHARS --raw-control-chars --LINE-NUMBERS --line-numbers --chop-long-lines --no-init --quit-if-one-screen --ignore-case --IGNORE-CASE --LONG-PROMPT --quiet --silent --squeeze-blank-lines --mouse --tabs= --shift= --use-color --follow-name", argRead).with(func(e *entry) { e.plus = true }).checked(checkLess))
	add("zcat bzcat xzcat zstdcat lz4cat", spec("", "prints compressed files", "-f -q -v -c -d -k", argRead))
	add("gzip gunzip bzip2 bunzip2 xz unxz lzma unlzma zstd unzstd lz4", spec("", "decompresses to its output or lists archives", "-c -d -l -t -f -k -n -N -q -v -1 -2 -3 -4 -5 -6 -7 -8 -9 -T= --stdout --to-stdout --decompress --uncompress --list --test --force --keep --quiet --verbose --threads=", argRead).checked(checkDecompress))
	add("tar gtar bsdtar", spec("", "lists an archive", "-t -v -z -j -J -a -f=r --list --verbose --gzip --gunzip --ungzip --bzip2 --xz --lzma --lzip --zstd --auto-compress --file=r --force-local --numeric-owner --wildcards --no-wildcards --anchored --no-anchored --exclude= --occurrence? --utc --full-time --quoting-style= --show-transformed-names --show-stored-names --ignore-zeros", argLit).with(func(e *entry) { e.raw = true }).checked(checkTar))
	add("unzip", spec("", "lists or tests an archive, or prints members", "-l -v -t -Z -p -q -z -C -1 -2 -s -m -M -h -T", argRead).checked(checkUnzip))
	add("zipinfo", spec("", "lists an archive", "-1 -2 -s -m -l -v -h -M -t -T -z -C", argRead))

	add("tee", spec("", "copies its input to its output (and /dev/null)", "-a -i -p --append --ignore-interrupts --output-error?", argLit).checked(checkTee).asFilter())
	add("7z 7za 7zr", spec("", "lists an archive", "-slt -ba -bd -y", argRead).checked(checkSevenZip))
	add("uudecode", spec("", "decodes to its output", "-p -o= -c --output-file=", argRead).checked(checkUudecode))
	add("mktemp", spec("", "prints a temporary file name without making it", "-u -d -q -t -p= --dry-run --directory --quiet --suffix= --tmpdir?", argLit).checked(checkMktemp))

	// Listing and facts about files.
	add("ls dir vdir", spec("", "lists directories", lsOpts, argList))
	add("exa eza", spec("", "lists directories", "-1 -l -G -x -R -a -A -d -D -f -r -h -g -H -i -S -b -B -T -F -U -u -m -L= -s= -I= --long --oneline --grid --across --recurse --tree --level= --all --almost-all --list-dirs --only-dirs --only-files --reverse --sort= --group-directories-first --git --header --group --time-style= --no-permissions --no-user --no-time --no-filesize --octal-permissions --binary --bytes --inode --links --modified --accessed --created --changed --blocksize --git-ignore --ignore-glob= --classify? --icons? --no-icons --color? --colour? --width= --absolute? --hyperlink --smart-group --mounts --total-size --no-git", argList))
	add("tree", spec("", "lists a tree of names", "-a -d -l -f -x -q -N -Q -p -u -g -s -h -D -F -v -t -c -U -r -i -A -S -n -C -X -J -L= -P= -I= --gitignore --ignore-case --matchdirs --metafirst --prune --info --si --du --timefmt= --inodes --device --dirsfirst --filesfirst --sort= --noreport --charset= --filelimit= --hintro=r --houtro=r -H=", argList))
	add("stat", spec("", "shows file metadata", "-L -f -t -c= --dereference --file-system --format= --printf= --terse --cached=", argList))
	add("du", spec("", "shows disk usage", "-a -b -c -h -k -L -l -m -P -s -S -x -0 -D -H -d= -B= -t= --all --apparent-size --block-size= --bytes --total --max-depth= --human-readable --si --summarize --separate-dirs --one-file-system --exclude= --threshold= --time? --time-style= --inodes --count-links --dereference --no-dereference --dereference-args --null", argList))
	add("df", spec("", "shows free disk space", "-a -h -H -i -k -l -P -T -B= -t= -x= --all --block-size= --human-readable --si --inodes --local --portability --print-type --type= --exclude-type= --output? --total --sync --no-sync", argList))
	add("realpath", spec("", "resolves paths", "-e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip --no-symlinks --zero --relative-to=l --relative-base=l", argList))
	add("readlink", spec("", "resolves links", "-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero", argList))
	add("basename", spec("", "prints the last part of a path", "-a -z -s= --multiple --suffix= --zero", argAny))
	add("dirname", spec("", "prints a path's directory", "-z --zero", argAny))
	add("namei", spec("", "shows each step of a path", "-x -m -o -l -n -v --mountpoints --modes --owners --long --nosymlinks --vertical", argList))
	add("getfacl", spec("", "shows access lists", "-a -d -c -e -E -s -R -L -P -t -n -p --access --default --omit-header --all-effective --no-effective --skip-base --recursive --logical --physical --tabular --numeric --absolute-names", argList))
	add("lsattr", spec("", "shows file attributes", "-R -V -a -d -l -p -v", argList))
	add("getfattr", spec("", "shows extended attributes", "-d -R -L -P -h -m= -n= -e= --dump --recursive --logical --physical --no-dereference --match= --name= --encoding= --absolute-names --only-values", argList))
	add("xattr", spec("", "shows extended attributes", "-l -r -s -v -x -p=", argList))
	add("find gfind", &entry{about: "lists files", maxOps: -1, raw: true, check: checkFind})
	add("fd fdfind", spec("", "lists files", "-H -I -u -s -i -g -F -a -l -L -p -0 -q -d= -t= -e= -E= -c= -j= -S= --hidden --no-ignore --no-ignore-vcs --unrestricted --case-sensitive --ignore-case --glob --fixed-strings --absolute-path --list-details --follow --full-path --print0 --quiet --max-depth= --min-depth= --exact-depth= --type= --extension= --exclude= --color= --threads= --size= --changed-within= --changed-before= --owner= --max-results= --base-directory=l --search-path=l --strip-cwd-prefix? --prune --one-file-system --format=", argList).checked(checkFd))
	add("cloc", spec("", "counts lines of code", "--by-file --by-lang --json --yaml --csv --md --xml --quiet --hide-rate --no-autogen --skip-uniqueness --follow-links --fullpath --sum-one --exclude-dir= --exclude-ext= --include-ext= --include-lang= --exclude-lang= --vcs= --not-match-d= --match-d= --not-match-f= --match-f= --max-file-size= --by-percent= --timeout=", argList))
	add("tokei", spec("", "counts lines of code", "-f -l -C -o= -e= -s= -t= --files --hidden --no-ignore --no-ignore-parent --no-ignore-dot --no-ignore-vcs --compact --languages --output= --exclude= --sort= --types= --num-format=", argList))
	add("scc", spec("", "counts lines of code", "-w -i= -M= -s= -f= --wide --by-file --no-cocomo --no-complexity --include-ext= --exclude-dir= --not-match= --sort= --format= --ci --no-gitignore --no-ignore --no-large --min", argList))
	add("gofmt", spec("", "lists or shows files gofmt would change", "-l -d -s -e", argTree).checked(checkGofmt))

	// Printing text and facts.
	add("echo", spec("", "prints its arguments", "", argAny).with(func(e *entry) { e.anyOpts, e.noDashDash = true, true }))
	add("printf", &entry{about: "prints formatted text", maxOps: -1, raw: true, operands: argAny, check: checkPrintf})
	add("true false :", spec("", "does nothing", "", argAny).with(func(e *entry) { e.anyOpts = true; e.noDashDash = true }))
	add("pwd", spec("", "prints the directory", "-L -P --logical --physical", argNone).max(0))
	add("date", spec("", "prints the date", "-u -R -d= -r=l -I? --date= --utc --universal --iso-8601? --rfc-3339= --rfc-email --reference=l --debug", argLit).checked(checkDate))
	add("cal ncal", spec("", "prints a calendar", "-1 -3 -y -j -w -s -M -m= -A= -B= -d= --one --three --year --julian --week --sunday --monday --months= --span --vertical", argLit))
	add("uname", spec("", "prints system facts", "-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release --kernel-version --machine --processor --hardware-platform --operating-system", argNone).max(0))
	add("whoami logname users arch nproc tty sw_vers lsb_release lscpu lsusb lspci lsmod free vm_stat uptime", spec("", "prints system facts", "", argNone).with(func(e *entry) { e.anyOpts = true }).max(0))
	add("id groups", spec("", "prints user and group ids", "-u -g -G -n -r -z -a -Z --user --group --groups --name --real --zero --context", argLit))
	add("who w last", spec("", "prints who is logged in", "-a -b -d -H -l -m -p -q -r -s -t -T -u -h -i -f -o -F -R -x -n= --all --boot --dead --heading --login --lookup --process --count --runlevel --short --time --mesg --users --no-header --from --ip-addr --old-style", argLit))
	add("hostname", spec("", "prints the host name", "-f -s -i -I -d -A -a -y --fqdn --long --short --ip-address --all-ip-addresses --domain --all-fqdns --alias", argNone).max(0))
	add("locale", spec("", "prints locale settings", "-a -m -k -c --all-locales --charmaps --keyword-names --category-name", argLit))
	add("getconf", spec("", "prints a system setting", "-a -v=", argLit))
	add("lsblk findmnt", spec("", "lists block devices and mounts", "-a -b -d -f -J -l -m -n -O -p -P -r -S -t -T -z -A -D -e= -o= -x= -s --all --bytes --nodeps --fs --json --list --perms --noheadings --output= --output-all --paths --pairs --raw --scsi --topology --tree --sort= --kernel --mtab --fstab --target= --types=", argLit))
	add("seq", spec("", "prints numbers", "-w -f= -s= --format= --separator= --equal-width", argLit))
	add("sleep", spec("", "waits", "", argLit))
	add("yes", spec("", "prints a line forever", "", argAny))
	add("expr factor", spec("", "computes from its arguments", "", argAny).with(func(e *entry) { e.noDashDash = true; e.anyOpts = true }))
	add("numfmt", spec("", "formats numbers", "-d= -z --from= --to= --suffix= --padding= --format= --field= --delimiter= --header? --invalid= --round= --grouping --from-unit= --to-unit= --zero-terminated", argAny))
	add("bc", spec("", "calculates", "-h -i -l -q -s -w --interactive --mathlib --quiet --standard --warn", argRead))
	add("which", spec("", "names the program a name runs", "-a -s", argAny))
	add("whereis", spec("", "finds a program's files", "-b -m -s -u -f -l -B=l -M=l -S=l", argAny))
	add("whatis apropos", spec("", "searches manual page names", "-r -w -l -d -v -a -e -s=", argAny))
	add("type", spec("", "names what a word runs", "-a -f -P -p -t", argAny))
	add("pathchk", spec("", "checks path names", "-p -P --portability", argAny))
	add("tput", spec("", "prints terminal settings", "-T= -S -V -x", argLit))
	add("clear", spec("", "clears the screen", "-T= -V -x", argNone).max(0))
	add("man", spec("", "prints a manual page", "-a -f -k -w -W -s= -S= -L= --all --whatis --apropos --where --path --sections= --locale=", argLit).checked(checkMan))
	add("info", spec("", "prints an info page", "-a -w -k= -n= --all --where --location --apropos= --node= --show-options --usage --subnodes", argLit))
	add("ps", &entry{about: "lists processes", maxOps: -1, raw: true, check: checkPs})
	add("pgrep", spec("", "finds processes", "-l -a -c -f -i -n -o -v -w -x -d= -g= -G= -O= -P= -s= -t= -u= -U= -r= --list-name --list-full --count --delimiter= --full --pgroup= --group= --ignore-case --newest --oldest --older= --parent= --session= --terminal= --euid= --uid= --inverse --lightweight --exact --runstates= --ns= --nslist=", argLit))
	add("pidof", spec("", "finds process ids", "-s -c -q -w -x -z -o=", argLit))
	add("pstree", spec("", "shows the process tree", "-a -c -g -h -l -n -p -s -S -t -T -u -Z -A -G -U -H= -N= --arguments --compact-not --show-pgids --highlight-all --highlight-pid= --long --numeric-sort --ns-sort= --show-pids --show-parents --ns-changes --thread-names --hide-threads --uid-changes --security-context --ascii --vt100 --unicode", argLit))
	add("top", spec("", "shows processes once (batch mode)", "-b -c -H -i -S -s -1 -E -e= -n= -d= -p= -u= -U= -o= -w? -l=", argNone).max(0).checked(checkTop))
	add("lsof", spec("", "lists open files", "", argList).with(func(e *entry) { e.anyOpts = true; e.plus = true }))
	add("netstat", spec("", "lists connections", "", argLit).with(func(e *entry) { e.anyOpts = true }))
	add("ss", spec("", "lists sockets", "-a -l -t -u -w -x -n -r -p -e -m -o -i -s -4 -6 -0 -H -O -Z -z -b -E -M -f= -A= --all --listening --tcp --udp --raw --unix --numeric --resolve --processes --extended --memory --options --info --summary --ipv4 --ipv6 --packet --no-header --oneline --context --contexts --family= --query= --events --tos --cgroup --threads --bpf --mptcp --vsock --sctp --dccp --tipc", argLit))
	add("ip", &entry{about: "shows network settings", maxOps: -1, raw: true, check: checkIP})
	add("ifconfig", spec("", "shows network interfaces", "-a -l -s -v", argLit).max(1))
	add("getent", spec("", "looks up users, hosts and groups", "-i -s= --service= --no-idn", argLit).checked(checkGetent))
	add("printenv", spec("", "prints variables that hold no secrets", "-0 --null", argLit).checked(checkPrintenv))
	add("journalctl", spec("", "prints system logs", "-e -f -k -x -r -q -a -l -m -u= -n= -p= -t= -S= -U= -g= -o= -b? --unit= --user-unit= --lines= --follow --pager-end --dmesg --boot? --priority= --identifier= --since= --until= --grep= --catalog --reverse --quiet --output= --all --no-pager --no-hostname --utc --system --user --list-boots --disk-usage --case-sensitive? --output-fields= --no-full --full --merge", argLit))
	add("dmesg", spec("", "prints kernel messages", "-T -H -k -u -x -t -w -W -r -d -e -S -l= -f= --ctime --human --kernel --userspace --decode --notime --follow --follow-new --raw --show-delta --reltime --time-format= --color? --level= --facility= --nopager", argNone).max(0))
	add("nvidia-smi", spec("", "shows GPU state", "-L -q -x -l= -i= -d= --list-gpus --query --xml-format --loop= --id= --display= --query-gpu= --format=", argNone).max(0))
	add("openssl", &entry{about: "prints keys' and certificates' facts, random bytes and digests", maxOps: -1, subs: openssl(), opts: optTable{}, posix: true})
	add("ssh-keygen", spec("", "prints a key's fingerprint", "-l -v -B -E= -f=r", argNone).max(0).checked(checkSSHKeygen))

	add("kill", spec("", "lists signal names", "-l -L --list? --table", argLit).checked(checkKillList))
	add("crontab", spec("", "prints the crontab", "-l -u=", argNone).max(0).checked(func(c *proofCtx, a *proofArgs) string {
		if !a.has("-l") {
			return "crontab without -l replaces or edits the crontab"
		}
		return ""
	}))
	add("sysctl", spec("", "prints kernel settings", "-a -n -e -N -b -h -d -A -X --all --values --names --ignore --binary", argLit).checked(checkSysctl))
	add("mount", spec("", "lists mounts", "-l -t= --show-labels --types=", argNone).max(0))
	add("iptables ip6tables", spec("", "lists firewall rules", "-L? -S? -n -v -x -t= --list? --list-rules? --numeric --verbose --exact --line-numbers --table=", argNone).max(0).checked(func(c *proofCtx, a *proofArgs) string {
		if !a.has("-L", "-S", "--list", "--list-rules") {
			return "iptables without -L or -S changes the rules"
		}
		return ""
	}))
	add("pmset", spec("", "prints power settings", "-g?", argLit).checked(func(c *proofCtx, a *proofArgs) string {
		if !a.has("-g") {
			return "pmset without -g changes power settings"
		}
		return ""
	}))
	add("dpkg dpkg-query", spec("", "queries installed packages", "-l -L -s -S -W -p -f= --list --listfiles --status --search --show --print-avail --showformat= --no-pager", argLit).checked(func(c *proofCtx, a *proofArgs) string {
		if !a.has("-l", "-L", "-s", "-S", "-W", "-p", "--list", "--listfiles", "--status", "--search", "--show", "--print-avail") {
			return "dpkg without a query option installs or removes packages"
		}
		return ""
	}))
	add("apt-cache", spec("", "queries the package lists", "-n -f -i -a -q --names-only --full --installed --all-versions --no-all-versions --recurse --quiet", argLit).checked(checkAptCache))
	add("apt", spec("", "lists packages", "-a -q --installed --upgradable --all-versions --manual-installed --quiet", argLit).checked(func(c *proofCtx, a *proofArgs) string {
		if len(a.ops) == 0 || (a.ops[0].s != "list" && a.ops[0].s != "show" && a.ops[0].s != "search" && a.ops[0].s != "policy") {
			return "apt only lists, shows, searches and prints policy here"
		}
		return ""
	}))
	add("pacman", spec("", "queries installed packages", "-Q -i -l -s -o -e -d -m -t -k -n -q -u --query --info --list --search --owns --explicit --deps --foreign --unrequired --check --native --quiet --upgrades", argLit).checked(func(c *proofCtx, a *proofArgs) string {
		if !a.has("-Q", "--query") {
			return "pacman without -Q changes packages"
		}
		return ""
	}))

	add("busybox toybox", spec("", "lists its applets", "--list --list-full --help", argNone).max(0))
	add("auditctl", spec("", "lists audit rules", "-l -s", argNone).max(0).checked(func(c *proofCtx, a *proofArgs) string {
		if !a.has("-l", "-s") {
			return "auditctl without -l or -s changes the audit rules"
		}
		return ""
	}))
	add("ffprobe", singleSpec("", "prints facts about media files", "-v= -loglevel= -hide_banner -show_streams -show_format "+
		"-show_entries= -show_packets -show_frames -show_chapters -show_programs -show_error -show_data -show_private_data "+
		"-count_frames -count_packets -select_streams= -of= -print_format= -output_format= -pretty -unit -prefix -byte_binary_prefix "+
		"-sexagesimal -i=r -read_intervals= -show_data_hash= -bitexact", argRead).checked(func(c *proofCtx, a *proofArgs) string {
		for _, f := range append(a.values("-i"), a.ops...) {
			if strings.Contains(f.s, ":") {
				return "ffprobe " + display(f.s) + " names a protocol, which may reach the network or a device"
			}
		}
		return ""
	}))

	// Shell builtins that evaluate nothing.
	add("cd pushd", spec("", "changes directory", "-L -P -e -@ -n", argAny).max(1))
	add("popd dirs", spec("", "changes or prints the directory stack", "-n -c -l -p -v", argLit))
	add("test [", spec("", "tests files and strings", "", argAny).with(func(e *entry) { e.noDashDash = true; e.anyOpts = true }).checked(checkTest))
	add("set", &entry{about: "sets shell options", maxOps: -1, raw: true, operands: argAny, check: checkSet})
	add("shopt", spec("", "sets shell options", "-s -u -p -q -o", argLit).checked(checkShopt))
	add("read", spec("", "reads a line into variables", "-r -s -e -a= -d= -n= -N= -p= -t= -u= -i=", argLit).checked(checkNames("-a")))
	add("mapfile readarray", spec("", "reads lines into an array", "-t -d= -n= -O= -s= -u=", argLit).max(1).checked(checkNames()))
	add("getopts", spec("", "parses options", "", argAny))
	add("shift exit return break continue times caller logout", spec("", "a shell builtin that changes nothing outside", "", argLit).max(1))
	// wait -p NAME assigns to NAME (a subscript there is evaluated), and
	// jobs -x runs a command: neither is on the list.
	add("wait", spec("", "waits for jobs", "-n -f", argLit))
	add("jobs", spec("", "lists jobs", "-l -n -p -r -s", argLit))
	add("help", spec("", "prints a builtin's help", "-d -m -s", argLit))
	add("disown", spec("", "forgets jobs", "-a -h -r", argLit))
	add("ulimit", spec("", "prints or lowers resource limits", "-a -b -c -d -e -f -i -k -l -m -n -p -q -r -s -t -u -v -x -H -S -P -R -T", argLit))
	add("umask", spec("", "prints or sets the file mode mask", "-S -p", argLit).max(1))
	add("hash", spec("", "prints or forgets where programs are", "-r -d -l -t", argLit))
	add("alias", spec("", "prints aliases", "-p", argLit).checked(checkAliasPrint))
	add("unalias", spec("", "removes aliases", "-a", argLit))
	add("unset", spec("", "removes variables", "-v -f", argLit).checked(checkNames()))
	add("enable", spec("", "lists builtins", "-a -p -s", argNone).max(0))
	add("bind", spec("", "prints key bindings", "-P -p -S -s -V -v -l -X", argNone).max(0))
	add("history", spec("", "prints the history", "", argLit).max(1))
	add("fc", spec("", "lists the history", "-l -n -r", argLit).checked(checkFc))
	add("trap", spec("", "lists or resets signal handlers", "-l -p", argLit).checked(checkTrap))
	add("let", spec("", "evaluates arithmetic on proven numbers", "", argAny).with(func(e *entry) { e.noDashDash = true }).checked(checkLet))
	add("declare typeset local export readonly", spec("", "declares plain variables", "", argAny).with(func(e *entry) { e.anyOpts = true; e.plus = true }).checked(checkDeclareCmd))

	// Wrappers: the command they run is proven in its turn.
	add("nice", wrapperSpec("", "runs a command at a lower priority", "# -n= --adjustment=", 0))
	add("nohup", wrapperSpec("", "runs a command immune to hangups", "", 0))
	add("timeout gtimeout", wrapperSpec("", "runs a command with a time limit", "-k= -s= -v -f -p --kill-after= --signal= --preserve-status --foreground --verbose", 1))
	add("time", wrapperSpec("", "times a command", "-p -v -f= --portability --verbose --format=", 0))
	add("sshpass", wrapperSpec("", "runs a command, typing a password for it", "-p= -e -v -f=r -d= -P=", 0))
	add("stdbuf", wrapperSpec("", "runs a command with other buffering", "-i= -o= -e= --input= --output= --error=", 0))
	add("exec", wrapperSpec("", "runs a command in place of the shell", "-c -l -a=", 0).with(func(e *entry) { e.bare = true }))
	add("builtin", wrapperSpec("", "runs a shell builtin", "", 0))
	add("command", spec("", "runs a command past functions, or names it", "-p -v -V", argAny).with(func(e *entry) { e.posix, e.passEnv = true, true }).checked(checkCommand))
	add("env", spec("", "runs a command with inert variables", "-i -0 -u= --ignore-environment --null --unset=", argAny).with(func(e *entry) { e.posix, e.passEnv = true, true }).checked(checkEnv))
	add("watch", spec("", "runs a command repeatedly", "-d -t -b -e -g -c -x -p -w -n= -q= --differences? --no-title --beep --errexit --chgexit --color --exec --precise --no-wrap --interval=", argAny).with(func(e *entry) { e.posix, e.passEnv = true, true }).checked(checkWatch))
	add("xargs gxargs", spec("", "runs a command on the names it reads", "-0 -r -t -x -d= -n= -L= -s= -P= -I= -E= --null --no-run-if-empty --verbose --exit --delimiter= --max-args= --max-lines= --max-chars= --max-procs= --replace? --eof?", argAny).with(func(e *entry) { e.posix, e.passEnv = true, true }).checked(checkXargs))
	add("sh bash dash zsh ksh mksh ash", spec("", "runs a script written out in the command", "-c -e -u -x -v -f -o= -O= --norc --noprofile --posix --restricted", argAny).with(func(e *entry) { e.posix = true }).checked(checkShell))

	// Development tools, in the forms that only read.
	add("git", gitEntry())
	add("go", goEntry())
	return t
}

// versionQueries are the programs whose lone --version or --help (and the
// short forms each knows) only prints: none of them loads project code or
// configuration before it does. Package managers and build tools that do
// (npm reads .npmrc, yarn runs .yarnrc.yml's yarnPath, cargo and rustc
// follow rust-toolchain.toml, mvn reads .mvn/jvm.config, gradlew is the
// project's own script) are not here.
func versionQueries() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`bash sh dash zsh ksh fish git go node nodejs python python2 python3 ruby perl java javac
		gcc g++ cc c++ clang clang++ make gmake cmake ninja docker podman kubectl helm terraform tofu curl wget wget2 ssh scp
		sftp rsync openssl jq rg fd psql mysql sqlite3 redis-cli vim nvim vi nano emacs less tmux screen zip unzip tar gzip
		xz zstd gpg gpg2 patch diff sed awk gawk grep find cp mv rm mkdir rmdir chmod chown chgrp dd ln touch install split
		csplit ls cat head tail wc sort uniq cut tr du df stat date env printf echo xargs timeout nice tee truncate shred
		useradd usermod pkill killall kill ps aria2c ffmpeg ffprobe gh aws gcloud az lua php deno`) {
		m[n] = true
	}
	return m
}

// sortedNames lists the entries, for explanations and tests.
func sortedNames(t map[string]*entry) []string {
	out := make([]string, 0, len(t))
	for n := range t {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

const grepOpts = `-E -F -G -P -i -y -v -w -x -c -L -l -o -q -s -b -H -h -n -T -Z -z -a -I -r -R -U
	-e= -f=r -m= -A= -B= -C= -d= -D= # --extended-regexp --fixed-strings --basic-regexp --perl-regexp --ignore-case
	--no-ignore-case --invert-match --word-regexp --line-regexp --count --files-without-match --files-with-matches
	--only-matching --quiet --silent --no-messages --byte-offset --with-filename --no-filename --line-number
	--initial-tab --null --null-data --text --binary --recursive --dereference-recursive --line-buffered
	--regexp= --file=r --max-count= --after-context= --before-context= --context= --color? --colour?
	--include= --exclude= --exclude-dir= --exclude-from=r --label= --directories= --devices= --binary-files=
	--group-separator= --no-group-separator`

const rgOpts = `-i -s -S -w -x -v -l -c -o -q -n -N -H -I -F -P -U -L -u -a -0 -p -j= -e= -f=r -g= -t= -T= -m= -A= -B= -C= -M= -r= -d= -E=
	--ignore-case --case-sensitive --smart-case --word-regexp --line-regexp --invert-match --files-with-matches
	--files-without-match --count --count-matches --only-matching --quiet --line-number --no-line-number --with-filename
	--no-filename --fixed-strings --pcre2 --multiline --multiline-dotall --follow --unrestricted --hidden --no-ignore
	--no-ignore-vcs --no-ignore-dot --no-ignore-parent --no-ignore-global --no-ignore-exclude --no-ignore-files
	--text --null --pretty --heading --no-heading --column --no-column --vimgrep --json --no-messages --stats
	--trim --sort= --sortr= --files --type-list --max-depth= --max-count= --after-context= --before-context= --context=
	--max-columns= --max-columns-preview --replace= --regexp= --file=r --glob= --iglob= --type= --type-not= --color=
	--colors= --encoding= --threads= --max-filesize= --path-separator= --context-separator= --field-match-separator=
	--field-context-separator= --engine= --one-file-system --byte-offset --line-buffered --block-buffered --crlf
	--passthru --no-config --binary --no-search-zip --ignore-file-case-insensitive --include-zero --hyperlink-format=
	--no-unicode --unicode --dfa-size-limit= --regex-size-limit= --max-depth=`

const lsOpts = `-a -A -b -B -c -C -d -f -F -g -G -h -H -i -k -l -L -m -n -N -o -p -q -Q -r -R -s -S -t -u -U -v -w= -x -X -Z -1
	-I= -T= -@ -e -O -% -, -D= --all --almost-all --author --escape --block-size= --ignore-backups --color? --classify?
	--file-type --format= --full-time --group-directories-first --no-group --human-readable --si
	--dereference-command-line --dereference-command-line-symlink-to-dir --hide= --hyperlink? --indicator-style=
	--inode --ignore= --kibibytes --literal --numeric-uid-gid --hide-control-chars --show-control-chars --quote-name
	--quoting-style= --reverse --recursive --size --sort= --time= --time-style= --tabsize= --width= --context --zero
	--dired --directory --dereference`
