package safety

import (
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// handlerName names a handler by its code: closures made by one factory
// (hConfirm("…"), wrapper(…)) share it.
func handlerName(h handler) string {
	name := runtime.FuncForPC(reflect.ValueOf(h).Pointer()).Name()
	name = strings.TrimPrefix(name, "pincer/safety.")
	name = strings.TrimPrefix(name, "programTable.")
	if i := strings.Index(name, ".func"); i > 0 {
		name = name[:i]
	}
	return name
}

// caseProgram returns the program a table command starts with, past
// assignments, or "" when the first word is not a plain name.
func caseProgram(cmd string) string {
	for _, w := range strings.Fields(cmd) {
		if strings.Contains(w, "=") && !strings.HasPrefix(w, "-") {
			continue
		}
		w = strings.Trim(w, `'"\`)
		if w == "" || strings.ContainsAny(w, "$(){};|&<>`") {
			return ""
		}
		return progName(w)
	}
	return ""
}

// oneTier are handlers that give their program one tier whatever the
// arguments, so a table case of the other kind cannot exist.
var oneTier = map[string]bool{
	"hPlain":            true, // always safe
	"hConfirm":          true,
	"hDangerous":        true,
	"hRunner":           true,
	"hMkfs":             true,
	"hFormat":           true,
	"hShred":            true,
	"hInit":             true,
	"hSudo":             true,
	"hSu":               true,
	"hChroot":           true,
	"hSplit":            true,
	"hPatch":            true,
	"hEditor":           true,
	"hCompiler":         true,
	"hZip":              true,
	"hSQL":              true,
	"hRm":               true,
	"hRmdir":            true,
	"hUnlink":           true,
	"hDel":              true,
	"hRd":               true,
	"hRemoveItem":       true,
	"hRobocopy":         true,
	"hWinCopy":          true,
	"hChmod":            true,
	"hChown":            true,
	"hDd":               true,
	"hKill":             true,
	"hPkill":            true,
	"hAccounts":         true,
	"hDropDB":           true,
	"hStrace":           true,
	"hDebugger":         true,
	"hNixShell":         true,
	"hRunPrefix":        true,
	"hScript":           true,
	"hStart":            true,
	"hStartProcess":     true,
	"hInvokeExpression": true,
	"hPSWrite":          true,
	"copyLike":          true,
	"hTouchLike":        true,
	"hRemoteSession":    true,
	"hScp":              true,
	"hRsync":            true,
	"hSocat":            true,
	"hNetcat":           true,
	"hFetcher":          true,
	"hPSFetcher":        true,
	"hCrontab":          true,
	"hAt":               true,
	// Entering another process's namespaces needs root and crosses a
	// container boundary (nsenter -t 1 is the usual escape to the host),
	// whatever runs there.
	"hNsenter": true,
}

// TestEveryHandlerHasCases checks that the tables exercise every handler
// of the program table: at least one case each, and for a handler whose
// tier depends on the arguments, cases of two tiers (usually a safe use
// and the option that makes it a write or a run), so the decision is
// tested in both directions.
func TestEveryHandlerHasCases(t *testing.T) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	// The handlers are the engine that finds dangers; the proof layer on
	// top of them makes more commands Confirm, and is tested on its own.
	c.engineOnly = true
	programs := map[string][]string{} // handler → program names
	for name, h := range c.tables().programs {
		programs[handlerName(h)] = append(programs[handlerName(h)], name)
	}
	tiers := map[string]map[Tier]bool{}
	for _, cmd := range tableCommands() {
		prog := caseProgram(cmd)
		h, ok := c.lookup(prog)
		if !ok {
			continue
		}
		name := handlerName(h)
		if tiers[name] == nil {
			tiers[name] = map[Tier]bool{}
		}
		tiers[name][c.classify(cmd).Tier] = true
	}
	var missing []string
	for h, names := range programs {
		sort.Strings(names)
		switch {
		case len(tiers[h]) == 0:
			missing = append(missing, h+" ("+strings.Join(names, " ")+"): no case")
		case len(tiers[h]) == 1 && !oneTier[h]:
			missing = append(missing, h+" ("+strings.Join(names, " ")+"): cases of one tier only, but its tier depends on the arguments")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
}
