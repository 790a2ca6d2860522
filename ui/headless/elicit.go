package headless

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"pincer/internal/safetext"
	"pincer/tools/mcp"
)

// Elicitor answers what MCP servers ask during `pincer run`. With a
// terminal (term non-nil) it asks there, on errOut, one field at a time,
// each server's text sanitised; without one it declines, except that yes
// accepts a form whose every field has a default (so nothing is left for
// a person to say). A page a server wants visited is opened (open) only
// after the person says yes; without a terminal it is declined.
func Elicitor(term io.Reader, errOut io.Writer, yes bool, open func(page string) error) mcp.Elicitor {
	e := &elicitor{errOut: errOut, yes: yes, open: open, term: term}
	if term != nil {
		e.lines = make(chan string)
	}
	return e.ask
}

// listen starts reading the terminal's lines, at the first question, so
// nothing is read from it before a server asks.
func (e *elicitor) listen() {
	e.reading.Do(func() {
		go func() {
			r := bufio.NewReader(e.term)
			for {
				line, err := r.ReadString('\n')
				if line != "" || err == nil {
					e.lines <- line
				}
				if err != nil {
					close(e.lines)
					return
				}
			}
		}()
	})
}

type elicitor struct {
	mu     sync.Mutex // one question at a time
	errOut io.Writer
	yes    bool
	open   func(string) error
	// lines are the terminal's lines; nil without a terminal.
	lines   chan string
	term    io.Reader
	reading sync.Once
}

func (e *elicitor) ask(ctx context.Context, q mcp.Elicitation) (mcp.Answer, error) {
	a, err := e.asked(ctx, q)
	if errors.Is(err, io.EOF) {
		fmt.Fprintf(e.errOut, "\npincer: the terminal closed, so what the MCP server %s asked was declined\n", safetext.LineOf(q.Server))
		return mcp.Answer{Action: mcp.Decline}, nil
	}
	return a, err
}

func (e *elicitor) asked(ctx context.Context, q mcp.Elicitation) (mcp.Answer, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	w := e.errOut
	server := safetext.LineOf(q.Server)
	if e.lines == nil {
		if defaults, all := q.Defaults(); all && e.yes {
			fmt.Fprintf(w, "pincer: the MCP server %s asked: %s — accepted with its defaults (--yes)\n", server, safetext.LineOf(q.Message))
			return mcp.Answer{Action: mcp.Accept, Content: defaults}, nil
		}
		why := "there is no terminal to ask"
		if q.URL == "" {
			why += "; --yes accepts only a form whose every field has a default"
		}
		fmt.Fprintf(w, "pincer: declined what the MCP server %s asked (%s): %s\n", server, why, safetext.LineOf(q.Message))
		return mcp.Answer{Action: mcp.Decline}, nil
	}
	if q.URL != "" {
		fmt.Fprintf(w, "\nThe MCP server %s asks you to open a page: %s\n  %s\nOpen it in your browser? [y/N] ", server, safetext.TextOf(q.Message), safetext.LineOf(q.URL))
		line, err := e.read(ctx)
		if err != nil {
			return mcp.Answer{}, err
		}
		if !isYes(line, false) {
			return mcp.Answer{Action: mcp.Decline}, nil
		}
		if e.open == nil || e.open(q.URL) != nil {
			fmt.Fprintln(w, "Could not open a browser here; open the page yourself.")
		}
		return mcp.Answer{Action: mcp.Accept}, nil
	}
	fmt.Fprintf(w, "\nThe MCP server %s asks: %s\n", server, safetext.TextOf(q.Message))
	content := map[string]any{}
	for _, f := range q.Fields {
		for tries := 0; ; tries++ {
			fmt.Fprintf(w, "  %s: ", fieldPrompt(f))
			line, err := e.read(ctx)
			if err != nil {
				return mcp.Answer{}, err
			}
			v, err := f.Parse(line)
			if err == nil {
				if v != nil {
					content[f.Name] = v
				}
				break
			}
			if tries == 2 {
				fmt.Fprintf(w, "  %s; declined.\n", safetext.LineOf(err.Error()))
				return mcp.Answer{Action: mcp.Decline}, nil
			}
			fmt.Fprintf(w, "  %s; try again.\n", safetext.LineOf(err.Error()))
		}
	}
	fmt.Fprintf(w, "Send this to %s? [Y]es, [n]o (decline), [c]ancel: ", server)
	line, err := e.read(ctx)
	if err != nil {
		return mcp.Answer{}, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "c", "cancel":
		return mcp.Answer{Action: mcp.Cancel}, nil
	case "", "y", "yes":
		return mcp.Answer{Action: mcp.Accept, Content: content}, nil
	}
	return mcp.Answer{Action: mcp.Decline}, nil
}

// read waits for the next line of the terminal; an ended terminal is a
// cancel.
func (e *elicitor) read(ctx context.Context) (string, error) {
	e.listen()
	select {
	case line, ok := <-e.lines:
		if !ok {
			return "", io.EOF
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// fieldPrompt is how a field is asked for: its label, what it is, its
// choices and its default, all sanitised.
func fieldPrompt(f mcp.Field) string {
	var b strings.Builder
	b.WriteString(safetext.LineOf(f.Label()))
	if f.Required {
		b.WriteString(" (required)")
	}
	if f.Description != "" {
		b.WriteString(" — " + safetext.LineOf(f.Description))
	}
	switch f.Kind {
	case mcp.KindChoice, mcp.KindChoices:
		var opts []string
		for i, t := range f.OptionTitles {
			opts = append(opts, fmt.Sprintf("%d) %s", i+1, safetext.LineOf(t)))
		}
		b.WriteString(" [" + strings.Join(opts, ", ") + "]")
		if f.Kind == mcp.KindChoices {
			b.WriteString(" (several: 1,3)")
		}
	case mcp.KindBoolean:
		b.WriteString(" (y/n)")
	case mcp.KindNumber, mcp.KindInteger:
		b.WriteString(" (" + string(f.Kind) + ")")
	}
	if f.Default != nil {
		b.WriteString(" [default: " + safetext.LineOf(f.DefaultText()) + "]")
	}
	return b.String()
}

// isYes reads a yes/no answer; an empty one is def.
func isYes(line string, def bool) bool {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "":
		return def
	case "y", "yes":
		return true
	}
	return false
}
