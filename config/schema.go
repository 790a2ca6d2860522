package config

import (
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
)

// Schema returns the JSON Schema (draft 2020-12) of the config file,
// generated from Config so it cannot drift from what Load accepts:
// descriptions from the field tags, the provider names from Presets,
// bounds and enums from the tags, defaults from Defaults, and no
// additional properties. Editors that read "$schema" in a config file can
// check it as it is typed.
func Schema() ([]byte, error) {
	r := &jsonschema.Reflector{
		Anonymous:                  true,
		ExpandedStruct:             true,
		DoNotReference:             true,
		RequiredFromJSONSchemaTags: true, // every field is optional in a file
	}
	s := r.Reflect(&Config{})
	s.Title = "pincer configuration"
	s.Description = "Settings for pincer, in ~/.config/pincer/config.json or a project's .pincer.json. Every field is optional."

	provider, ok := s.Properties.Get("provider")
	if !ok {
		return nil, fmt.Errorf("schema: provider property missing")
	}
	names := presetNames()
	provider.Enum = make([]any, len(names))
	for i, n := range names {
		provider.Enum[i] = n
	}

	defaults, err := defaultValues()
	if err != nil {
		return nil, err
	}
	for name, prop := range s.Properties.FromOldest() {
		if v, ok := defaults[name]; ok {
			prop.Default = v
		}
	}
	s.Properties.Set(schemaKey, &jsonschema.Schema{
		Type:        "string",
		Description: "URL or path of this schema, for editors; pincer ignores it.",
	})
	if err := s.Properties.MoveToFront(schemaKey); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}

	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("schema: encode: %w", err)
	}
	return append(out, '\n'), nil
}

// defaultValues returns the non-empty defaults by JSON name, as JSON
// values, for the schema's "default" keywords.
func defaultValues() (map[string]any, error) {
	b, err := json.Marshal(Defaults())
	if err != nil {
		return nil, fmt.Errorf("schema: encode defaults: %w", err)
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("schema: decode defaults: %w", err)
	}
	out := map[string]any{"provider": DefaultProvider}
	for k, v := range all {
		switch v := v.(type) {
		case string:
			if v == "" {
				continue
			}
		case nil:
			continue
		}
		out[k] = v
	}
	return out, nil
}
