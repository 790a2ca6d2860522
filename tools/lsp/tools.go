package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"pincer/chat"
	"pincer/tools"
)

// maxRefs is the most locations one navigation result lists.
const maxRefs = 60

type placeArgs struct {
	Path   string `json:"path" jsonschema_description:"The file, relative to the project root or absolute."`
	Line   int    `json:"line" jsonschema:"minimum=1" jsonschema_description:"The 1-based line the symbol is on, as read_file numbers it."`
	Symbol string `json:"symbol" jsonschema_description:"The identifier on that line to ask about, e.g. \"greeting\"; its first whole-word occurrence is used."`
}

type symbolsArgs struct {
	Path  string `json:"path,omitempty" jsonschema_description:"List the declarations of this file (its outline)."`
	Query string `json:"query,omitempty" jsonschema_description:"Or search the project's declarations by name (fuzzy), e.g. \"Handler\"."`
}

type renameArgs struct {
	placeArgs
	NewName string `json:"new_name" jsonschema_description:"The new name."`
}

// Tools are the navigation tools the model gets while a server runs:
// lsp_definition, lsp_references, lsp_hover, lsp_symbols and lsp_rename
// (an edit, reviewed as a diff).
func Tools(m *Manager, root string) []tools.Tool {
	place := func(a placeArgs) Place {
		p := a.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		return Place{Path: filepath.Clean(p), Line: a.Line, Symbol: a.Symbol}
	}
	check := func(a *placeArgs) error {
		switch {
		case strings.TrimSpace(a.Path) == "":
			return errors.New(`argument "path" is empty; give the file, e.g. "main.go"`)
		case a.Line < 1:
			return errors.New(`argument "line" must be 1 or more: the line the symbol is on`)
		case strings.TrimSpace(a.Symbol) == "":
			return errors.New(`argument "symbol" is empty; give the identifier on that line, e.g. "greeting"`)
		}
		return nil
	}
	ex := placeArgs{Path: "main.go", Line: 12, Symbol: "greeting"}
	var out []tools.Tool
	add := func(t tools.Tool, err error) {
		if err != nil {
			panic(fmt.Sprintf("lsp: navigation tool is malformed: %v", err))
		}
		out = append(out, t)
	}
	add(tools.New(tools.Spec[placeArgs]{
		Name:        "lsp_definition",
		Description: "Go to the definition of a symbol, as the language server resolves it (types, imports and methods included): where it is declared, as file:line:column and the line.",
		Example:     ex, Check: check,
		Bind: func(a placeArgs) tools.Call {
			return navCall{m: m, root: root, p: place(a), what: "definition", run: func(ctx context.Context, p Place) (string, error) {
				return listRefs(m.Definition(ctx, p))
			}}
		},
	}))
	add(tools.New(tools.Spec[placeArgs]{
		Name:        "lsp_references",
		Description: fmt.Sprintf("Find every reference to a symbol in the project, as the language server resolves them (not a text search): file:line:column and the line, at most %d.", maxRefs),
		Example:     ex, Check: check,
		Bind: func(a placeArgs) tools.Call {
			return navCall{m: m, root: root, p: place(a), what: "references", run: func(ctx context.Context, p Place) (string, error) {
				return listRefs(m.References(ctx, p))
			}}
		},
	}))
	add(tools.New(tools.Spec[placeArgs]{
		Name:        "lsp_hover",
		Description: "The type, signature and documentation of a symbol, from the language server.",
		Example:     ex, Check: check,
		Bind: func(a placeArgs) tools.Call {
			return navCall{m: m, root: root, p: place(a), what: "hover", run: func(ctx context.Context, p Place) (string, error) {
				text, err := m.Hover(ctx, p)
				if err == nil && strings.TrimSpace(text) == "" {
					text = "(the server has nothing to say about it)"
				}
				return tools.CapText(text, 8000), err
			}}
		},
	}))
	add(tools.New(tools.Spec[symbolsArgs]{
		Name:        "lsp_symbols",
		Description: "List declarations: give path for one file's outline (functions, types, methods with their lines), or query to search the project's declarations by name.",
		Example:     symbolsArgs{Query: "Handler"},
		Check: func(a *symbolsArgs) error {
			if strings.TrimSpace(a.Path) == "" && strings.TrimSpace(a.Query) == "" {
				return errors.New(`give "path" (a file's outline) or "query" (search the project by name)`)
			}
			return nil
		},
		Bind: func(a symbolsArgs) tools.Call {
			c := symbolsCall{m: m, root: root, query: a.Query}
			if a.Path != "" {
				c.path = a.Path
				if !filepath.IsAbs(c.path) {
					c.path = filepath.Join(root, c.path)
				}
				c.path = filepath.Clean(c.path)
			}
			return c
		},
	}))
	add(tools.New(tools.Spec[renameArgs]{
		Name:        "lsp_rename",
		Description: "Rename a symbol everywhere the language server finds it (declaration and references, across files). Each changed file is an edit the user reviews as a diff.",
		Mutates:     true,
		Example:     renameArgs{placeArgs: ex, NewName: "salutation"},
		Check: func(a *renameArgs) error {
			if err := check(&a.placeArgs); err != nil {
				return err
			}
			if strings.TrimSpace(a.NewName) == "" || a.NewName == a.Symbol {
				return errors.New(`argument "new_name" must be a new name, different from "symbol"`)
			}
			return nil
		},
		Bind: func(a renameArgs) tools.Call {
			return &renameCall{m: m, root: root, p: place(a.placeArgs), newName: a.NewName}
		},
	}))
	return out
}

// listRefs formats locations for the model.
func listRefs(refs []Ref, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if len(refs) == 0 {
		return "(none found)", nil
	}
	var b strings.Builder
	for i, r := range refs {
		if i == maxRefs {
			fmt.Fprintf(&b, "… %d more", len(refs)-i)
			break
		}
		b.WriteString(r.String() + "\n")
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// navCall is a read-only request about one place.
type navCall struct {
	m    *Manager
	root string
	p    Place
	what string
	run  func(ctx context.Context, p Place) (string, error)
}

func (c navCall) Summary() string {
	return fmt.Sprintf("lsp %s %s:%d %s", c.what, c.m.rel(c.p.Path), c.p.Line, c.p.Symbol)
}

func (c navCall) Access() tools.Access { return tools.Access{Reads: []string{c.p.Path}} }

func (c navCall) Run(ctx context.Context) (tools.Result, error) {
	text, err := c.run(ctx, c.p)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Result{Content: err.Error(), IsError: true}, nil
	}
	return tools.Result{Content: text, Touched: []chat.Touch{{Path: c.m.rel(c.p.Path), Kind: chat.TouchRead}}}, nil
}

type symbolsCall struct {
	m     *Manager
	root  string
	path  string
	query string
}

func (c symbolsCall) Summary() string {
	if c.path != "" {
		return "lsp symbols " + c.m.rel(c.path)
	}
	return "lsp symbols " + c.query
}

func (c symbolsCall) Access() tools.Access {
	if c.path != "" {
		return tools.Access{Reads: []string{c.path}}
	}
	return tools.Access{Reads: []string{c.root}}
}

func (c symbolsCall) Run(ctx context.Context) (tools.Result, error) {
	var syms []Symbol
	var err error
	if c.path != "" {
		syms, err = c.m.DocumentSymbols(ctx, c.path)
	} else {
		syms, err = c.m.WorkspaceSymbols(ctx, c.query, "")
	}
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Result{Content: err.Error(), IsError: true}, nil
	}
	if len(syms) == 0 {
		return tools.Result{Content: "(none found)"}, nil
	}
	var b strings.Builder
	for i, s := range syms {
		if i == maxRefs*2 {
			fmt.Fprintf(&b, "… %d more", len(syms)-i)
			break
		}
		in := ""
		if s.Container != "" && c.path == "" {
			in = " in " + s.Container
		}
		fmt.Fprintf(&b, "%s%s %s%s  %s:%d\n", strings.Repeat("  ", s.Depth), s.Kind, s.Name, in, s.Ref.Path, s.Ref.Line)
	}
	return tools.Result{Content: strings.TrimRight(b.String(), "\n")}, nil
}

// renameCall is lsp_rename: an edit, so it is a Planner whose change the
// person reviews. A rename that touches several files is planned as one
// change per file (PlanAll).
type renameCall struct {
	m       *Manager
	root    string
	p       Place
	newName string
}

func (c *renameCall) Summary() string {
	return fmt.Sprintf("lsp rename %s → %s in %s", c.p.Symbol, c.newName, c.m.rel(c.p.Path))
}

func (c *renameCall) Access() tools.Access { return tools.Access{Writes: []string{c.p.Path}} }

// PlanAll asks the server for the rename and returns one change per file.
func (c *renameCall) PlanAll(ctx context.Context) ([]*tools.Change, error) {
	edits, err := c.m.Rename(ctx, c.p, c.newName)
	if err != nil {
		return nil, err
	}
	if len(edits) == 0 {
		return nil, errors.New("the server found nothing to rename there")
	}
	var out []*tools.Change
	for _, e := range edits {
		out = append(out, &tools.Change{Path: e.Path, Rel: c.m.rel(e.Path), Before: e.Before, After: e.After,
			Summary: fmt.Sprintf("renamed %s to %s", c.p.Symbol, c.newName)})
	}
	return out, nil
}

// Plan is PlanAll for a rename that changes one file; one that changes
// more is refused here (the agent reviews those through PlanAll).
func (c *renameCall) Plan(ctx context.Context) (*tools.Change, error) {
	chs, err := c.PlanAll(ctx)
	if err != nil {
		return nil, err
	}
	if len(chs) > 1 {
		var names []string
		for _, ch := range chs {
			names = append(names, ch.Rel)
		}
		return nil, fmt.Errorf("the rename changes %d files (%s); rename in each with edit_file", len(chs), strings.Join(names, ", "))
	}
	return chs[0], nil
}

// Run plans and applies the rename without review.
func (c *renameCall) Run(ctx context.Context) (tools.Result, error) {
	chs, err := c.PlanAll(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Result{Content: err.Error(), IsError: true}, nil
	}
	var r tools.Result
	var done []string
	for _, ch := range chs {
		if err := tools.Apply(ch, ch.After); err != nil {
			return tools.Result{Content: fmt.Sprintf("%v; renamed in %s before that", err, strings.Join(done, ", ")), IsError: true}, nil
		}
		done = append(done, ch.Rel)
		r.Touched = append(r.Touched, chat.Touch{Path: ch.Rel, Kind: chat.TouchChanged})
	}
	r.Content = fmt.Sprintf("Renamed %s to %s in %s.", c.p.Symbol, c.newName, strings.Join(done, ", "))
	return r, nil
}
