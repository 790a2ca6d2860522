package frontmatter

import "path/filepath"

// Dir is one place Markdown files with front matter (commands, agents)
// are read from.
type Dir struct {
	Path string
	// Within, when set, is the directory the files must stay inside (the
	// project): a link out of it is not followed.
	Within string
}

// Dirs are the places files of one kind ("commands", "agents") are read
// from, lowest precedence first: the person's (beside the config file),
// then the project's .claude/KIND, so files written for that tool work
// unchanged, then its .pincer/KIND.
func Dirs(configDir, root, kind string) []Dir {
	var out []Dir
	if configDir != "" {
		out = append(out, Dir{Path: filepath.Join(configDir, kind)})
	}
	if root != "" {
		out = append(out,
			Dir{Path: filepath.Join(root, ".claude", kind), Within: root},
			Dir{Path: filepath.Join(root, ".pincer", kind), Within: root})
	}
	return out
}
