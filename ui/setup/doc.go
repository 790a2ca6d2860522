// Package setup is pincer's first-run screen: when no provider is
// configured and no local server answers, it walks the person through
// choosing a provider, giving the API key (typed, masked) or the name of
// the environment variable that holds it, and picking a model from the
// server's own list.
//
// The package writes nothing. Run returns what the person chose and
// whether they asked to save it; the caller writes the config file. It
// knows nothing of pincer's config: the caller converts its presets into
// Preset values and passes a function that lists a server's models.
package setup
