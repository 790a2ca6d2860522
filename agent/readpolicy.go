package agent

import (
	"strings"

	"pincer/safety"
)

// ReadPolicy is the path policy for the files a search tool opens by
// itself (tools.Options.ReadCheck): "" when reading path needs no approval
// once reading below scope was allowed, else the reasons it does. While
// the search walks (head nil) the path is judged by name; once it has
// read the file, by what it read too (a private key), so the file is
// opened once. It is the same policy the agent judges read_file by, so
// grep never shows what read_file would ask about.
func ReadPolicy(cls *safety.Classifier, home string, own safety.OwnFiles) func(scope, path string, head []byte) string {
	own = resolveOwn(own)
	return func(scope, path string, head []byte) string {
		v := cls.Path(safety.PathAccess{Root: scope, Home: home, Own: own, Path: path, ByName: head == nil, Head: head})
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
