package telegram

import (
	"context"
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	"pincer/internal/safetext"
	"pincer/tools/mcp"
)

// Button codes of a server's question.
const (
	elicitAccept  = "a"
	elicitDecline = "d"
	elicitDone    = "u"
	elicitOption  = "o" // followed by the option's number
)

// maxElicitButtons is how many choices of a field become buttons.
const maxElicitButtons = 8

// Elicitor asks what an MCP server wants to know in the chat whose turn is
// running, with buttons only its owner can press. With no turn running,
// or several, it declines: pincer cannot tell whom the server asks.
func (b *Bot) Elicitor() mcp.Elicitor {
	return func(ctx context.Context, q mcp.Elicitation) (mcp.Answer, error) {
		b.mu.Lock()
		chats := make([]*chat, 0, len(b.chats))
		for _, c := range b.chats {
			chats = append(chats, c)
		}
		b.mu.Unlock()
		var asked *chat
		for _, c := range chats {
			if c.busy() {
				if asked != nil {
					return mcp.Answer{Action: mcp.Decline}, nil
				}
				asked = c
			}
		}
		if asked == nil {
			return mcp.Answer{Action: mcp.Decline}, nil
		}
		text, choices, ok := elicitQuestion(q)
		if !ok {
			b.sendPlain(ctx, asked.id, text)
			return mcp.Answer{Action: mcp.Decline}, nil
		}
		var rows [][]models.InlineKeyboardButton
		if q.URL != "" {
			rows = append(rows, []models.InlineKeyboardButton{{Text: "Open the page", URL: q.URL}})
		}
		code, err := b.askButtons(ctx, asked.id, asked.turnOwner(), text, choices, rows)
		if err != nil {
			return mcp.Answer{}, err
		}
		return elicitAnswer(q, code), nil
	}
}

// elicitQuestion is the text (HTML) and the buttons of a server's
// question; ok is false for a form buttons cannot fill in (text then says
// so, as plain text).
func elicitQuestion(q mcp.Elicitation) (text string, choices []choice, ok bool) {
	server := html.EscapeString(mcpName(q.Server))
	var b strings.Builder
	fmt.Fprintf(&b, "<b>The MCP server %s asks:</b>\n%s", server, html.EscapeString(safetext.TextOf(q.Message)))
	if q.URL != "" {
		b.WriteString("\n<pre>" + html.EscapeString(safetext.LineOf(q.URL)) + "</pre>")
		return b.String(), []choice{{elicitDone, "Done"}, {elicitDecline, "Decline"}}, true
	}
	if _, all := q.Defaults(); all {
		for _, f := range q.Fields {
			fmt.Fprintf(&b, "\n• %s: <code>%s</code>", html.EscapeString(safetext.LineOf(f.Label())), html.EscapeString(safetext.LineOf(f.DefaultText())))
		}
		return b.String(), []choice{{elicitAccept, "Accept"}, {elicitDecline, "Decline"}}, true
	}
	if len(q.Fields) == 1 {
		f := q.Fields[0]
		switch {
		case f.Kind == mcp.KindBoolean:
			fmt.Fprintf(&b, "\n%s", html.EscapeString(safetext.LineOf(f.Label())))
			return b.String(), []choice{{elicitOption + "0", "Yes"}, {elicitOption + "1", "No"}, {elicitDecline, "Decline"}}, true
		case f.Kind == mcp.KindChoice && len(f.Options) <= maxElicitButtons:
			fmt.Fprintf(&b, "\n%s", html.EscapeString(safetext.LineOf(f.Label())))
			for i, t := range f.OptionTitles {
				choices = append(choices, choice{elicitOption + strconv.Itoa(i), mcpName(t)})
			}
			return b.String(), append(choices, choice{elicitDecline, "Decline"}), true
		}
	}
	return fmt.Sprintf("The MCP server %s asked for a form that needs typing (%s); pincer answers such forms on the screen or a terminal, so it declined.",
		mcpName(q.Server), safetext.LineOf(q.Message)), nil, false
}

// elicitAnswer is the answer a pressed button gives.
func elicitAnswer(q mcp.Elicitation, code string) mcp.Answer {
	switch {
	case code == elicitDone:
		return mcp.Answer{Action: mcp.Accept}
	case code == elicitAccept:
		content, _ := q.Defaults()
		return mcp.Answer{Action: mcp.Accept, Content: content}
	case strings.HasPrefix(code, elicitOption) && len(q.Fields) == 1:
		i, err := strconv.Atoi(code[len(elicitOption):])
		f := q.Fields[0]
		switch {
		case err != nil:
		case f.Kind == mcp.KindBoolean && (i == 0 || i == 1):
			return mcp.Answer{Action: mcp.Accept, Content: map[string]any{f.Name: i == 0}}
		case f.Kind == mcp.KindChoice && i >= 0 && i < len(f.Options):
			return mcp.Answer{Action: mcp.Accept, Content: map[string]any{f.Name: f.Options[i]}}
		}
	}
	return mcp.Answer{Action: mcp.Decline}
}

// askButtons sends a question with one row of answer buttons (after the
// rows given, such as a link) and waits for its owner's press or for ctx
// to end; it returns the pressed button's code.
func (b *Bot) askButtons(ctx context.Context, chat, owner int64, text string, choices []choice, rows [][]models.InlineKeyboardButton) (string, error) {
	nonce := newNonce()
	var row []models.InlineKeyboardButton
	labels := map[string]string{}
	for _, ch := range choices {
		row = append(row, models.InlineKeyboardButton{Text: ch.label, CallbackData: "p" + nonce + ":" + ch.code})
		labels[ch.code] = ch.label
	}
	p := &pending{chat: chat, owner: owner, text: text, labels: labels, answer: make(chan string, 1), row: row, nonce: nonce}
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: append(rows, row)}
	b.mu.Lock()
	b.pending[nonce] = p
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.pending, nonce)
		b.mu.Unlock()
	}()
	msg := b.send(ctx, chat, text, text, kb)
	b.mu.Lock()
	p.msg = msg
	b.mu.Unlock()
	if msg == 0 {
		return "", fmt.Errorf("could not ask in Telegram")
	}
	select {
	case <-ctx.Done():
		out, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5e9)
		defer cancel()
		b.edit(out, chat, msg, text+"\n\n<i>(expired)</i>", text, nil)
		return "", ctx.Err()
	case code := <-p.answer:
		return code, nil
	}
}
