package safety

import "strings"

// Read-only programs with an option that turns the read into a write or
// into running another program. Each handler is safe without that option.

// hMktemp creates a temporary file: in the temporary directory that is
// harmless, in a directory the command names it is a write there.
func hMktemp(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "pt", longArg: []string{"tmpdir", "suffix"}})
	if ps.has("u", 3, "dry-run") {
		return
	}
	dir, named := ps.value("p", 3, "tmpdir")
	for _, op := range ps.operands {
		if strings.ContainsAny(op.s, "/\\") {
			if named && dir != "" {
				p.writes([]field{{s: dir + "/" + op.s}})
			} else {
				p.writes([]field{op})
			}
			return
		}
	}
	if named && dir != "" {
		p.writes([]field{{s: dir + "/tmp.XXXXXXXXXX"}})
	}
}

// hLess handles less, more and the other pagers: -o and -O (--log-file)
// copy the input to a file, and +!cmd or +|cmd runs a command.
func hLess(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "oObhjkPpTtxyz#", longArg: []string{"log-file", "LOG-FILE", "tag", "tag-file", "pattern", "prompt", "shift", "window", "tabs", "max-back-scroll", "max-forw-scroll", "lesskey-file"}})
	for _, f := range ps.values("oO", "log-file", "LOG-FILE") {
		p.writes([]field{{s: f}})
	}
	for _, f := range ps.values("", "lesskey-file") {
		p.raise(Confirm, "reads key bindings from "+display(f)+", which can run commands")
	}
	hPager(p, name, args)
}

// hTree handles tree: -o writes the listing to a file.
func hTree(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "LPIoH", longArg: []string{"filelimit", "timefmt", "sort", "charset", "fromfile", "hintro", "houtro"}})
	if o, ok := ps.value("o", 0); ok {
		p.writes([]field{{s: o}})
	}
	if ps.has("R", 0) {
		// -R runs tree again through the shell in each directory, with the
		// directory's name inside the command line, writing 00Tree.html.
		p.raise(Confirm, "runs tree through the shell in each directory (-R), writing 00Tree.html there")
	}
	for _, f := range ps.values("", "hintro", "houtro") {
		p.readsFiles([]field{{s: f}})
	}
}

// hInfo handles info: -o and --output write the node to a file.
func hInfo(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "dfnoI", longArg: []string{"directory", "file", "node", "output", "dribble", "restore", "init-file"}})
	for _, o := range ps.values("o", "output", "dribble") {
		p.writes([]field{{s: o}})
	}
	for _, f := range ps.values("", "restore", "init-file") {
		p.readsFiles([]field{{s: f}})
		p.raise(Confirm, "replays keystrokes or key bindings from "+display(f))
	}
}

// hAg handles the silver searcher: --pager runs a program.
func hAg(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "ABCGgmp", longArg: []string{"after", "before", "context", "file-search-regex", "max-count", "pager", "path-to-ignore", "ignore", "ignore-dir", "depth", "workers"}})
	if pager, ok := ps.value("", 0, "pager"); ok {
		p.raise(Confirm, "runs "+display(pager)+" as its pager")
		p.nestedCommand(field{s: pager}, scriptOpts{})
	}
	ops := ps.operands
	if len(ops) > 0 {
		ops = ops[1:]
	}
	p.readsFiles(ops)
}

// hSs handles ss: -K closes the sockets it lists.
func hSs(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "FANf", longArg: []string{"filter", "query", "net", "family"}})
	if ps.has("K", 0, "kill") {
		p.raise(Confirm, "closes the sockets it matches")
	}
	if ps.has("D", 0, "diag") {
		p.raise(Confirm, "writes socket information to a file")
	}
}

// hFile handles file: -C compiles a magic file into the current directory.
func hFile(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "efFmP", longArg: []string{"exclude", "exclude-quiet", "files-from", "separator", "magic-file", "parameter"}})
	if ps.has("C", 0, "compile") {
		p.raise(Confirm, "writes a compiled magic file")
	}
	p.readsFiles(ps.operands)
}

// hFfprobe handles ffprobe: -o writes the report to a file, -report
// writes a log into the current directory.
func hFfprobe(p *part, name string, args []field) {
	ps := getopt(args, optSpec{single: true})
	if o, ok := ps.value("", 0, "o"); ok {
		p.writes([]field{{s: o}})
	}
	for i, a := range args {
		if a.s == "-o" && i+1 < len(args) {
			p.writes(args[i+1 : i+2])
		}
		if a.s == "-report" {
			p.raise(Confirm, "writes a report file")
		}
	}
}

// hCounter handles line counters (cloc, scc, tokei) that can write their
// report to a file.
func hCounter(p *part, name string, args []field) {
	for i, a := range args {
		k, v, has := strings.Cut(a.s, "=")
		switch k {
		case "--out", "--report-file", "--output", "-o", "--sql", "--write-lang-def", "--write-lang-def-incl-dup":
			if name == "tokei" && (k == "-o" || k == "--output") {
				continue // tokei -o names a format
			}
			if !has && i+1 < len(args) {
				v = args[i+1].s
			}
			if v != "" && v != "-" && v != "1" {
				p.writes([]field{{s: v}})
			}
		}
	}
}

// hUudecode handles uudecode: it writes the file whose name is inside its
// input, unless told to print (-o /dev/stdout, -p).
func hUudecode(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "o", longArg: []string{"output-file"}})
	p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
	if o, ok := ps.value("o", 3, "output-file"); ok {
		p.writes([]field{{s: o}})
		return
	}
	if ps.has("pc", 0) {
		return
	}
	p.raise(Confirm, "writes the file named inside its input")
}

// hNvidiaSmi handles nvidia-smi: listing is safe, options that change the
// GPU's settings or reset it are not.
func hNvidiaSmi(p *part, name string, args []field) {
	for _, a := range args {
		k, _, _ := strings.Cut(a.s, "=")
		switch k {
		case "-pm", "--persistence-mode", "-pl", "--power-limit", "-r", "--gpu-reset", "-c", "--compute-mode",
			"-e", "--ecc-config", "-ac", "--applications-clocks", "-rac", "--reset-applications-clocks",
			"-lgc", "--lock-gpu-clocks", "-rgc", "--reset-gpu-clocks", "-lmc", "--lock-memory-clocks",
			"-mig", "--multi-instance-gpu", "-am", "--accounting-mode", "-caa", "--clear-accounted-apps",
			"-f", "--filename":
			p.raise(Confirm, "changes GPU settings or writes a file")
			return
		}
	}
}
