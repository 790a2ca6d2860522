package config

import "strings"

// fieldAliases maps names other tools use to pincer's field names, for
// did-you-mean suggestions that spelling distance would not find.
var fieldAliases = map[string]string{
	"api_base":        "base_url",
	"openai_api_base": "base_url",
	"endpoint":        "base_url",
	"url":             "base_url",
	"host":            "base_url",
	"key":             "api_key",
	"token":           "api_key",
	"max_turns":       "max_iterations",
	"max_steps":       "max_iterations",
	"context_length":  "context_window",
	"context_size":    "context_window",
	"max_context":     "context_window",
	"timeout":         "command_timeout",
	"retries":         "max_retries",
}

// suggest returns the candidate closest to name, or "" when none is close
// enough to be a likely typo. Case, "-" and "_" are ignored first
// ("baseURL", "base-url"), then known aliases, then edit distance with
// transpositions ("modle" → "model").
func suggest(name string, candidates []string) string {
	norm := normalizeName(name)
	for _, c := range candidates {
		if normalizeName(c) == norm {
			return c
		}
	}
	if a, ok := fieldAliases[strings.ToLower(name)]; ok {
		for _, c := range candidates {
			if c == a {
				return c
			}
		}
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), c)
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := 1
	if len(name) >= 5 {
		limit = 2
	}
	if bestDist >= 0 && bestDist <= limit {
		return best
	}
	return ""
}

func normalizeName(s string) string {
	s = strings.ToLower(s)
	s = strings.ReplaceAll(s, "_", "")
	return strings.ReplaceAll(s, "-", "")
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of neighbours each cost one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
