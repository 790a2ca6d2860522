package agent

import (
	"strings"

	"pincer/internal/privatekey"
	"pincer/safety"
)

// ReadPolicy is the path policy for the files a search tool opens by
// itself (tools.Options.ReadCheck): "" when reading path needs no approval
// once reading below scope was allowed, else the reasons it does. It is
// the same policy the agent judges read_file by, so grep never shows what
// read_file would ask about.
func ReadPolicy(cls *safety.Classifier, home string, own safety.OwnFiles) func(scope, path string) string {
	own = resolveOwn(own)
	return func(scope, path string) string {
		v := worse(cls.Path(safety.PathAccess{Root: scope, Home: home, Own: own, Path: path}), keyRead(path))
		if v.Tier == safety.Safe {
			return ""
		}
		return strings.Join(v.Reasons, "; ")
	}
}

// resolveOwn resolves the links in pincer's own locations, as the paths
// judged against them are.
func resolveOwn(o safety.OwnFiles) safety.OwnFiles {
	for _, p := range []*string{&o.ConfigDir, &o.ConfigFile, &o.DataDir, &o.Store, &o.TrustFile, &o.ThemeDir} {
		if *p != "" {
			*p = resolve(*p)
		}
	}
	return o
}

// keyRead asks before a read of a file that holds a private key, whatever
// its name: the path policy knows secrets by name only, and a key in a
// file named deploy_key would otherwise be read unasked.
func keyRead(p string) safety.Verdict {
	if holds, _ := privatekey.InFile(p); !holds {
		return safety.Verdict{Tier: safety.Safe}
	}
	return safety.Verdict{Tier: safety.Confirm, Reasons: []string{p + ": reads a file that holds a private key"}, Secret: true}
}
