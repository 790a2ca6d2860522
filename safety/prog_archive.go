package safety

import "strings"

func hTar(p *part, name string, args []field) {
	// The first word may be a bundle of letters without a dash (tar xzf a.tgz).
	if len(args) > 0 && !strings.HasPrefix(args[0].s, "-") && !strings.Contains(args[0].s, "/") {
		args = append([]field{{s: "-" + args[0].s}}, args[1:]...)
	}
	ps := getopt(args, optSpec{shortArg: "fCbTXKNgLFIV", longArg: []string{"file", "directory", "blocking-factor", "files-from", "exclude-from", "exclude", "starting-file", "newer", "listed-incremental", "tape-length", "info-script", "new-volume-script", "use-compress-program", "label", "to-command", "checkpoint-action", "owner", "group", "mode", "transform", "xform", "format", "index-file", "volno-file", "rsh-command", "rmt-command"}})
	extract := ps.has("x", 3, "extract", "get")
	create := ps.has("crAu", 3, "create", "append", "update", "concatenate", "delete")
	for _, key := range []string{"to-command", "use-compress-program", "info-script", "new-volume-script", "checkpoint-action", "rsh-command", "rmt-command"} {
		if v, ok := ps.value("", 4, key); ok {
			p.raise(Confirm, "runs another program ("+key+")")
			if key == "checkpoint-action" {
				if _, cmd, ok := strings.Cut(v, "exec="); ok {
					p.nestedCommand(field{s: cmd}, scriptOpts{})
				}
			} else {
				p.nestedCommand(field{s: v}, scriptOpts{})
			}
		}
	}
	for _, prog := range ps.values("F") {
		p.raise(Confirm, "runs another program at the end of each volume (-F)")
		p.nestedCommand(field{s: prog}, scriptOpts{})
	}
	for _, key := range []string{"index-file", "volno-file"} {
		if f, ok := ps.value("", 4, key); ok {
			p.writes([]field{{s: f}})
		}
	}
	if f, ok := ps.value("f", 3, "file"); ok && !ps.has("", 0, "force-local") {
		if i := strings.IndexByte(f, ':'); i > 0 && !strings.ContainsAny(f[:i], "/\\") && !isWindowsPath(f) {
			p.raise(Confirm, "reads or writes an archive on another machine ("+display(f)+"), through a remote shell")
		}
	}
	for _, prog := range ps.values("I", "use-compress-program") {
		p.raise(Confirm, "runs another program to compress")
		p.nestedCommand(field{s: prog}, scriptOpts{})
	}
	switch {
	case extract:
		dir := "."
		if d, ok := ps.value("C", 3, "directory"); ok {
			dir = d
		}
		p.writes([]field{{s: dir}})
		if ps.has("P", 3, "absolute-names") {
			p.raise(Dangerous, "extracts absolute paths, which can overwrite any file")
		}
		p.raise(Confirm, "extracts files")
	case create:
		if f, ok := ps.value("f", 3, "file"); ok && f != "-" {
			p.writes([]field{{s: f}})
		}
		p.raise(Confirm, "writes an archive")
	default:
		if f, ok := ps.value("f", 3, "file"); ok {
			p.readsFiles([]field{{s: f}})
		}
	}
}

func hUnzip(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "dxP"})
	if ps.has("lvtZz", 0) {
		return
	}
	dir := "."
	if d, ok := ps.value("d", 0); ok {
		dir = d
	}
	p.writes([]field{{s: dir}})
	p.raise(Confirm, "extracts files")
}

func hCompress(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "SbT", longArg: []string{"suffix", "threads"}})
	if ps.has("cltL", 3, "stdout", "to-stdout", "list", "test", "license", "help", "version") || (len(ps.operands) == 0) {
		p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
		p.readsFiles(ps.operands)
		return
	}
	p.writes(ps.operands)
	p.raise(Confirm, "compresses or decompresses files in place")
}

func hOpenssl(p *part, name string, args []field) {
	op, _ := firstOperand(args)
	ps := getopt(args, optSpec{longArg: []string{"out", "in", "inkey", "key", "passin", "passout", "config"}, single: true})
	if out, ok := ps.value("", 0, "out"); ok {
		p.writes([]field{{s: out}})
	}
	switch op.s {
	case "version", "rand", "dgst", "list", "help", "ciphers", "x509", "verify", "asn1parse", "s_client", "speed", "errstr", "prime", "crl", "sha256", "sha1", "md5":
		if op.s == "s_client" {
			p.raise(Confirm, "opens a network connection")
			p.shellToNetwork()
		}
		return
	case "enc", "base64":
		p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
		for _, a := range args {
			if a.s == "-d" || a.s == "-decrypt" {
				return
			}
		}
		return
	}
	p.raise(Confirm, "runs openssl "+display(op.s))
}

func hGpg(p *part, name string, args []field) {
	ps := getopt(args, optSpec{shortArg: "our", longArg: []string{"output", "recipient", "local-user", "homedir", "keyserver", "passphrase"}})
	if o, ok := ps.value("o", 3, "output"); ok {
		p.writes([]field{{s: o}})
	}
	if ps.has("d", 3, "decrypt") {
		p.out = stream{present: true, taint: p.stdin.taint | taintDecoded}
	}
	for _, o := range ps.opts {
		switch o.name {
		case "list-keys", "list-secret-keys", "k", "K", "fingerprint", "verify", "list-sigs", "version", "d", "decrypt":
			return
		}
	}
	p.raise(Confirm, "changes keys or writes files with gpg")
}

func hZip(p *part, name string, args []field) {
	for i, a := range args {
		if (a.s == "-TT" || a.s == "--unzip-command") && i+1 < len(args) {
			p.nestedCommand(args[i+1], scriptOpts{})
		} else if strings.HasPrefix(a.s, "--unzip-command=") {
			p.nestedCommand(field{s: strings.TrimPrefix(a.s, "--unzip-command=")}, scriptOpts{})
		}
	}
	p.raise(Confirm, "writes an archive")
}
