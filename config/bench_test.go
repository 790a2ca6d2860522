package config

import "testing"

// BenchmarkLoad measures a start-up with a user file, a project file,
// environment and flags.
func BenchmarkLoad(b *testing.B) {
	w := &world{}
	dir := b.TempDir()
	w.home, w.root = dir+"/home", dir+"/project"
	w.env = fakeEnv{"HOME": w.home, "USERPROFILE": w.home, EnvModel: "gpt-4.1"}
	for path, content := range map[string]string{
		w.userPath():    `{"provider": "openai", "theme": "dark", "command_timeout": "90s", "allow": ["go test ./..."]}`,
		w.projectPath(): `{"max_iterations": 40, "deny": ["git push --force"], "context_window": 64000}`,
	} {
		writeFileB(b, path, content)
	}
	o := Overrides{MaxIterations: Ptr(20)}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := w.load(o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSchema measures generating the JSON Schema.
func BenchmarkSchema(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Schema(); err != nil {
			b.Fatal(err)
		}
	}
}
