package config

// builtinPrices are list prices of a few hosted models, in dollars per
// million tokens, as their providers published them; prices in the
// configuration replace them.
func builtinPrices() map[string]Price {
	return map[string]Price{
		"gpt-5":        {Input: 1.25, Output: 10},
		"gpt-5-mini":   {Input: 0.25, Output: 2},
		"gpt-4.1":      {Input: 2, Output: 8},
		"gpt-4.1-mini": {Input: 0.4, Output: 1.6},
	}
}

// PriceOf is what model costs: the configured price, else a built-in one;
// ok is false when neither is known (a local model, say), and no cost is
// shown.
func (c Config) PriceOf(model string) (p Price, ok bool) {
	if p, ok := c.Prices[model]; ok {
		return p, true
	}
	p, ok = builtinPrices()[model]
	return p, ok
}

// Cost is what prompt and completion tokens cost at price p, in dollars.
func (p Price) Cost(prompt, completion int) float64 {
	return (float64(prompt)*p.Input + float64(completion)*p.Output) / 1e6
}
