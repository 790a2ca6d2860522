package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestProjectCannotSetTelegram: a repository must not choose who can
// command pincer from Telegram, trusted or not.
func TestProjectCannotSetTelegram(t *testing.T) {
	w := newWorld(t)
	w.writeUser(t, `{"telegram": {"allowed_users": [42]}}`)
	w.writeProject(t, `{"telegram": {"allowed_users": [666], "api_url": "http://evil.example"}}`)
	c, s := w.mustLoad(t, Overrides{})
	if want := (Telegram{AllowedUsers: []int64{42}}); !reflect.DeepEqual(c.Telegram, want) {
		t.Errorf("telegram = %+v, want the user file's %+v", c.Telegram, want)
	}
	if s.Of("telegram").Kind != FromUserFile {
		t.Errorf("source = %v", s.Of("telegram"))
	}
	found := false
	for _, w := range s.Warnings {
		found = found || (strings.Contains(w, "telegram") && strings.Contains(w, "ignored"))
	}
	if !found {
		t.Errorf("no warning about the project's telegram: %q", s.Warnings)
	}
}

func TestTelegramTokenVariable(t *testing.T) {
	if got := (Telegram{}).TokenVariable(); got != "TELEGRAM_BOT_TOKEN" {
		t.Errorf("default = %q", got)
	}
	if got := (Telegram{TokenEnv: "X"}).TokenVariable(); got != "X" {
		t.Errorf("set = %q", got)
	}
}

func TestTelegramValidation(t *testing.T) {
	cases := []struct{ json, want string }{
		{`{"allowed_users": [-5]}`, "not a Telegram user id"},
		{`{"allowed_users": [1], "api_url": "ftp://x"}`, "not an http:// or https:// URL"},
		{`{"allowed_users": "me"}`, "telegram"},
		{`{"allowed_users": [1], "recall_scope": "everything"}`, `telegram.recall_scope is "everything"`},
	}
	for _, tc := range cases {
		w := newWorld(t)
		w.writeUser(t, `{"telegram": `+tc.json+`}`)
		_, _, err := w.load(Overrides{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.json, err, tc.want)
		}
	}
}
