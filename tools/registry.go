package tools

import (
	"errors"
	"fmt"
)

// Registry holds the tools offered to the model, by name, in the order they
// were registered.
type Registry struct {
	order  []Tool
	byName map[string]Tool
}

// NewRegistry builds a registry. A nil tool, an invalid name or a name used
// twice is an error, since the model could not tell the tools apart.
func NewRegistry(ts ...Tool) (*Registry, error) {
	r := &Registry{byName: make(map[string]Tool, len(ts))}
	var errs []error
	for i, t := range ts {
		if t == nil {
			errs = append(errs, fmt.Errorf("tool %d is nil", i))
			continue
		}
		name := t.Name()
		if err := validName(name); err != nil {
			errs = append(errs, err)
			continue
		}
		if _, dup := r.byName[name]; dup {
			errs = append(errs, fmt.Errorf("tool name %q is registered twice; each tool needs its own name", name))
			continue
		}
		r.byName[name] = t
		r.order = append(r.order, t)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("new tool registry: %w", errors.Join(errs...))
	}
	return r, nil
}

// Get returns the tool called name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// List returns the tools in registration order. The slice is a copy.
func (r *Registry) List() []Tool {
	return append([]Tool(nil), r.order...)
}

// Names returns the tool names in registration order, for messages such as
// "unknown tool; the tools are ...".
func (r *Registry) Names() []string {
	names := make([]string, len(r.order))
	for i, t := range r.order {
		names[i] = t.Name()
	}
	return names
}

// ValidName reports whether name is acceptable to every provider as a
// function name, for tools made outside this package.
func ValidName(name string) error { return validName(name) }
