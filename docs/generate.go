package docs

// configuration.md is generated from the config package; regenerate it
// after changing a config field, default, preset or theme.
//
//go:generate go run ./internal/gendocs -o configuration.md

// The key tables of keys.md are generated from the screen's key maps.
//
//go:generate go run ./internal/genkeys -o keys.md

// The table of `pincer run --json` lines in the README is generated from
// the headless printer.
//
//go:generate go run ./internal/genevents -o ../README.md
