package safety

import "strings"

// optSpec describes a program's command line for getopt.
type optSpec struct {
	shortArg string   // short options that take a value, e.g. "nt" for -n N -t T
	longArg  []string // long options (without --) that take a value
	posix    bool     // options stop at the first operand (wrappers: the command follows)
	single   bool     // options are single-dash words (-name, -exec), never clusters
}

type opt struct {
	name  string
	long  bool
	val   string
	isVal bool
}

// parsed is a command line split into options and operands.
type parsed struct {
	opts     []opt
	operands []field
	rest     int // index in args of the first operand, for posix specs
}

func (s optSpec) longTakesArg(name string) bool {
	for _, l := range s.longArg {
		if l == name || (len(name) >= 3 && strings.HasPrefix(l, name)) {
			return true
		}
	}
	return false
}

// getopt splits args the way GNU getopt does: clustered short options,
// --long and --long=value, and -- to end options. Unless the spec is posix,
// options may follow operands (rm x -rf is rm -rf x).
func getopt(args []field, spec optSpec) parsed {
	var ps parsed
	ps.rest = len(args)
	for i := 0; i < len(args); i++ {
		a := args[i].s
		if a == "--" {
			if ps.rest == len(args) {
				ps.rest = i + 1
			}
			ps.operands = append(ps.operands, args[i+1:]...)
			return ps
		}
		if len(a) < 2 || a[0] != '-' {
			if spec.posix {
				ps.rest = i
				ps.operands = append(ps.operands, args[i:]...)
				return ps
			}
			ps.operands = append(ps.operands, args[i])
			continue
		}
		if spec.single || strings.HasPrefix(a, "--") {
			name, val, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if !has && spec.longTakesArg(name) && i+1 < len(args) {
				i++
				val, has = args[i].s, true
			}
			ps.opts = append(ps.opts, opt{name: name, long: true, val: val, isVal: has})
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if strings.IndexByte(spec.shortArg, c) >= 0 {
				val := a[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i].s
				}
				ps.opts = append(ps.opts, opt{name: string(c), val: val, isVal: true})
				break
			}
			ps.opts = append(ps.opts, opt{name: string(c)})
		}
	}
	return ps
}

// has reports a short option (any of the letters in short) or a long one
// (exact, or an abbreviation at least minAbbrev letters long).
func (ps parsed) has(short string, minAbbrev int, long ...string) bool {
	_, ok := ps.value(short, minAbbrev, long...)
	return ok
}

// value returns the value of the last matching option.
func (ps parsed) value(short string, minAbbrev int, long ...string) (string, bool) {
	val, found := "", false
	for _, o := range ps.opts {
		if !o.long {
			if len(o.name) == 1 && strings.Contains(short, o.name) {
				val, found = o.val, true
			}
			continue
		}
		for _, l := range long {
			if o.name == l || (minAbbrev > 0 && len(o.name) >= minAbbrev && strings.HasPrefix(l, o.name)) {
				val, found = o.val, true
			}
		}
	}
	return val, found
}

// values returns every value of matching options.
func (ps parsed) values(short string, long ...string) []string {
	var out []string
	for _, o := range ps.opts {
		if (!o.long && len(o.name) == 1 && strings.Contains(short, o.name)) || (o.long && contains(long, o.name)) {
			out = append(out, o.val)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// words returns the known text of fields (unknown ones as unknownMark).
func words(fs []field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.s
	}
	return out
}

// firstOperand returns the first argument not starting with "-", and its index.
func firstOperand(args []field) (field, int) {
	for i, a := range args {
		if !strings.HasPrefix(a.s, "-") {
			return a, i
		}
	}
	return field{}, -1
}

// anyUnknown reports whether any field holds text only known at run time.
func anyUnknown(fs []field) bool {
	for _, f := range fs {
		if f.dynamic() {
			return true
		}
	}
	return false
}
