package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"pincer/agent"
	"pincer/config"
)

// explainModelError turns a failed model request into one sentence with
// the fix, for the screen and for pincer run alike: nothing answering
// (explainUnreachable), a refused API key (naming where the key is set),
// a rate limit, a server that keeps failing. Other errors pass unchanged.
func (c *cli) explainModelError(p *project, err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	if e := p.explainUnreachable(err); e != err {
		return e
	}
	switch status := agent.ServerStatus(err); {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Errorf("the model server at %s refused the API key (%w); %s", p.cfg.BaseURL, err, c.keyAdvice(p))
	case status == http.StatusTooManyRequests:
		return fmt.Errorf("the model server at %s is limiting requests (%w); wait a minute and send again, or check your plan's quota", p.cfg.BaseURL, err)
	case status == http.StatusNotFound:
		return fmt.Errorf("the model server at %s does not know this model or address (%w); check the model (%q, /model lists them) and base_url", p.cfg.BaseURL, err, p.cfg.Model)
	case status >= 500:
		return fmt.Errorf("the model server at %s failed, also when asked again (%w); the request is fine: send it again in a minute, or check the server", p.cfg.BaseURL, err)
	}
	return err
}

// keyAdvice says where the API key in use comes from and how to set
// another, without showing the key.
func (c *cli) keyAdvice(p *project) string {
	env := p.cfg.APIKeyEnv
	if env == "" {
		env = config.EnvAPIKey
	}
	userFile := config.UserConfigPath(c.getenv)
	src := p.cfg.APIKeySource(c.getenv)
	if name, ok := strings.CutPrefix(src, "env "); ok {
		return fmt.Sprintf("the key comes from the environment variable %s: export %s=<your key> with a valid key for %s", name, name, p.cfg.Provider)
	}
	if src == "api_key" {
		return fmt.Sprintf("the key is the api_key set by %s: correct it there, or remove it and export %s=<your key>", p.srcs.Of("api_key"), env)
	}
	return fmt.Sprintf("no API key is set: export %s=<your key>, or set \"api_key\" in %s", env, userFile)
}
