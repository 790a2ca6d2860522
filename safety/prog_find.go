package safety

import "strings"

func hFind(p *part, name string, args []field) {
	// Skip leading options and the starting points; the expression starts
	// at the first word beginning with - ( ! or ,.
	i := 0
	for i < len(args) {
		s := args[i].s
		if s == "-H" || s == "-L" || s == "-P" || strings.HasPrefix(s, "-O") {
			i++
			continue
		}
		if s == "-D" {
			i += 2
			continue
		}
		break
	}
	for i < len(args) && !strings.HasPrefix(args[i].s, "-") && args[i].s != "(" && args[i].s != "!" && args[i].s != "," {
		i++
	}
	for ; i < len(args); i++ {
		switch s := args[i].s; s {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j].s != ";" && args[j].s != "+" {
				j++
			}
			cmd := make([]field, 0, j-i-1)
			for _, f := range args[i+1 : j] {
				if f.s == "{}" {
					f = field{s: unknownMark}
				}
				cmd = append(cmd, f)
			}
			if len(cmd) > 0 {
				if s == "-execdir" || s == "-okdir" {
					// The command runs in the directory of each match.
					cwd := p.w.cwd
					p.w.cwd = "?"
					p.runBulk(cmd)
					p.w.cwd = cwd
				} else {
					p.runBulk(cmd)
				}
			}
			i = j
		case "-delete":
			p.raise(Dangerous, "deletes every file it finds")
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				p.writes(args[i+1 : i+2])
			}
			i++
		}
	}
}

func hFd(p *part, name string, args []field) {
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == "-x" || s == "--exec" || s == "-X" || s == "--exec-batch" {
			j := i + 1
			for j < len(args) && args[j].s != ";" {
				j++
			}
			cmd := make([]field, 0, j-i-1)
			for _, f := range args[i+1 : j] {
				if strings.Contains(f.s, "{") {
					f = field{s: unknownMark}
				}
				cmd = append(cmd, f)
			}
			if len(cmd) > 0 {
				p.runBulk(cmd)
			}
			i = j
		}
	}
}

func (p *part) runBulk(cmd []field) {
	saved := p.bulk
	p.bulk = true
	p.run(cmd)
	p.bulk = saved
}
