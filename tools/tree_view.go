package tools

import (
	"context"
	"fmt"
	"os"
	"strings"

	"pincer/internal/gitignore"
)

// Limits of tree_view.
const (
	treeMaxEntries = 500    // entries shown
	treeMaxCounted = 100000 // entries counted beyond those shown
)

type treeViewArgs struct {
	Path     string `json:"path,omitempty" jsonschema_description:"Directory to show, relative to the project root or absolute."`
	MaxDepth int    `json:"max_depth,omitempty" jsonschema:"minimum=1,maximum=20" jsonschema_description:"How many levels below path to list (1 lists only its direct entries)."`
}

func treeViewTool(o Options) (Tool, error) {
	return New(Spec[treeViewArgs]{
		Name: "tree_view",
		Description: fmt.Sprintf("Show the files and directories under a directory as an indented tree. "+
			"Honours .gitignore files (the root one and nested ones) and leaves out .git. "+
			"Directories end with \"/\" and come before files; each level is sorted by name. "+
			"Shows at most %d entries, filling shallow levels first; when more exist it says how many were left out: "+
			"then call it again on a subdirectory or with a smaller max_depth.", treeMaxEntries),
		Defaults: treeViewArgs{Path: ".", MaxDepth: 2},
		Example:  treeViewArgs{Path: "agent", MaxDepth: 2},
		Bind: func(a treeViewArgs) Call {
			abs := resolvePath(o.Root, a.Path)
			return &treeViewCall{opts: o, args: a, abs: abs, judged: newJudgedPath(o.Root, abs)}
		},
	})
}

type treeViewCall struct {
	opts Options
	args treeViewArgs
	abs  string
	// judged is abs with its links resolved, as the policy judges it.
	judged judgedPath
}

func (c *treeViewCall) Summary() string {
	s := "tree_view " + displayPath(c.opts.Root, c.abs)
	if c.args.MaxDepth != 2 {
		s += fmt.Sprintf(" (depth %d)", c.args.MaxDepth)
	}
	return s
}

func (c *treeViewCall) Access() Access { return Access{Reads: c.judged.paths(c.abs)} }

// treeNode is a listed directory: its visible entries and how many of them
// made it into the output.
type treeNode struct {
	entries []dirEntry
	shown   int
}

func (c *treeViewCall) Run(ctx context.Context) (Result, error) {
	if err := c.judged.unchanged(c.abs); err != nil {
		return errorResult(fmt.Sprintf("cannot list %s: %v", displayPath(c.opts.Root, c.abs), err)), nil
	}
	info, err := os.Stat(c.abs)
	switch {
	case os.IsNotExist(err):
		return errorResult(notFound(c.opts.Root, c.abs, "directory")), nil
	case err != nil:
		return errorResult(fmt.Sprintf("cannot read %s: %v", displayPath(c.opts.Root, c.abs), err)), nil
	case !info.IsDir():
		return errorResult(fmt.Sprintf("%s is a file, not a directory; use read_file to read it.", displayPath(c.opts.Root, c.abs))), nil
	}
	base, stack := walkBase(c.opts.Root, c.abs)

	// Breadth first, so the cap keeps the shallow levels whole.
	type item struct {
		abs, rel string
		depth    int
		stack    gitignore.Stack
	}
	nodes := map[string]*treeNode{}
	queue := []item{{abs: c.abs, rel: relTo(base, c.abs), depth: 1, stack: stack}}
	shown, hidden := 0, 0
	for len(queue) > 0 && hidden < treeMaxCounted {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		it := queue[0]
		queue = queue[1:]
		entries, childStack, err := listDir(it.abs, it.rel, it.stack)
		if err != nil && it.abs == c.abs {
			return errorResult(fmt.Sprintf("cannot list %s: %v", displayPath(c.opts.Root, c.abs), err)), nil
		}
		node := &treeNode{entries: entries}
		node.shown = min(len(entries), treeMaxEntries-shown)
		shown += node.shown
		nodes[it.abs] = node
		hidden += len(entries) - node.shown
		if it.depth >= c.args.MaxDepth {
			continue
		}
		for _, e := range entries {
			if e.isDir {
				queue = append(queue, item{abs: e.abs, rel: e.rel, depth: it.depth + 1, stack: childStack})
			}
		}
	}

	var b strings.Builder
	top := displayPath(c.opts.Root, c.abs)
	if top != "/" {
		top += "/"
	}
	b.WriteString(top + "\n")
	root := nodes[c.abs]
	if root == nil || len(root.entries) == 0 {
		b.WriteString("  (empty directory)\n")
	}
	writeTree(&b, nodes, c.abs, 1)
	if hidden > 0 {
		more := fmt.Sprintf("%d", hidden)
		if hidden >= treeMaxCounted || len(queue) > 0 {
			more = fmt.Sprintf("more than %d", hidden)
		}
		fmt.Fprintf(&b, "\n[%d entries shown, %s left out (limit %d). Call tree_view on a subdirectory, or with a smaller max_depth, to see the rest.]\n", shown, more, treeMaxEntries)
	}
	return Result{Content: capText(strings.TrimSuffix(b.String(), "\n"), c.opts.MaxOutput)}, nil
}

// writeTree prints the shown entries of dir and, below each shown
// directory, its own shown entries, indented two spaces per level.
func writeTree(b *strings.Builder, nodes map[string]*treeNode, dir string, level int) {
	node := nodes[dir]
	if node == nil {
		return
	}
	indent := strings.Repeat("  ", level)
	for _, e := range node.entries[:node.shown] {
		b.WriteString(indent + e.name)
		if e.isDir {
			b.WriteString("/")
		}
		b.WriteString("\n")
		if e.isDir {
			writeTree(b, nodes, e.abs, level+1)
		}
	}
	if rest := len(node.entries) - node.shown; rest > 0 {
		fmt.Fprintf(b, "%s… %d more entries\n", indent, rest)
	}
}
