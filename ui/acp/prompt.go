package acp

import (
	"net/url"
	"path/filepath"
	"strings"
	"unicode"

	"pincer/agent"
	"pincer/internal/human"
)

// promptText turns a prompt's content blocks into the text the agent is
// given: text as it is; a link to a file as an @path mention, which the
// agent attaches under the same rules as one typed on the screen (asking
// about a file outside the project); a resource the editor embedded with
// its text (a selection, a file with unsaved changes) attached as it was
// sent. Images, audio and binary resources are not offered; one sent
// anyway is named in the text, so nothing is dropped unsaid.
func promptText(blocks []contentBlock, root string) (string, error) {
	if len(blocks) == 0 {
		return "", invalidParams("the prompt is empty; send at least one content block")
	}
	var typed []string
	var attached strings.Builder
	for i, b := range blocks {
		switch b.Type {
		case "text":
			typed = append(typed, b.Text)
		case "resource_link":
			if b.URI == "" {
				return "", invalidParams("prompt block %d (resource_link) has no uri", i)
			}
			typed = append(typed, mention(b.URI, b.Name, root))
		case "resource":
			if b.Resource == nil || b.Resource.URI == "" {
				return "", invalidParams("prompt block %d (resource) has no resource with a uri", i)
			}
			r := b.Resource
			name := displayName(r.URI, root)
			switch {
			case r.Text != nil:
				attached.WriteString(agent.AttachedText(name+" (from the editor)", *r.Text))
			default:
				typed = append(typed, "(The editor attached "+name+", which is not text; pincer cannot show it to the model.)")
			}
		case "image", "audio":
			typed = append(typed, "(The editor attached "+b.Type+", which pincer cannot pass to the model.)")
		default:
			return "", invalidParams("prompt block %d has the unknown type %q", i, human.OneLine(b.Type, 40))
		}
	}
	text := strings.Join(typed, " ")
	if strings.TrimSpace(text) == "" && attached.Len() == 0 {
		return "", invalidParams("the prompt is empty")
	}
	return text + attached.String(), nil
}

// mention is how a linked resource goes into the prompt: a local file as
// @path (relative to the project when inside it), anything else as a
// link the model can read.
func mention(uri, name, root string) string {
	if p, ok := filePath(uri); ok {
		rel := displayName(uri, root)
		if !strings.ContainsAny(rel, " \t\n") {
			return "@" + rel
		}
		return "`" + p + "`"
	}
	if name != "" && name != uri {
		return "[" + name + "](" + uri + ")"
	}
	return uri
}

// filePath is the local path of a file: URI (or of an absolute path sent
// as one).
func filePath(uri string) (string, bool) {
	if filepath.IsAbs(uri) {
		return filepath.Clean(uri), true
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), true
}

// displayName is a resource's path relative to the project when it is a
// file inside it, else its URI.
func displayName(uri, root string) string {
	p, ok := filePath(uri)
	if !ok {
		return uri
	}
	if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return p
}

// slashCommand splits "/name args" ("/name" alone too).
func slashCommand(prompt string) (name, args string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(prompt), "/")
	if !found || rest == "" || strings.HasPrefix(rest, "/") {
		return "", "", false
	}
	name, args = rest, ""
	if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
		name, args = rest[:i], rest[i:]
	}
	if strings.Contains(name, "/") {
		return "", "", false // a path, not a command
	}
	return name, strings.TrimSpace(args), true
}
