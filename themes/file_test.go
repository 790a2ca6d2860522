package themes

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fullColors is a "colors" object that sets every palette colour.
func fullColors(bg string) string {
	var p Palette
	var parts []string
	for _, f := range p.Fields() {
		c := "#808080"
		if f.Name == "background" {
			c = bg
		}
		parts = append(parts, `"`+f.Name+`": "`+c+`"`)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func TestParse(t *testing.T) {
	tests := []struct {
		name      string
		json      string
		check     func(t *testing.T, th Theme)
		wantField string // the field an error must name; "" for success
	}{
		{
			name: "extends a built-in and overrides one colour",
			json: `{"name": "sunset", "extends": "dark", "colors": {"accent": "#ff8800"}}`,
			check: func(t *testing.T, th Theme) {
				if th.Name != "sunset" || !th.Dark || th.ChromaStyle != Dark().ChromaStyle {
					t.Errorf("got %q dark=%v chroma=%q", th.Name, th.Dark, th.ChromaStyle)
				}
				if ColorString(th.Palette.Accent) != "#ff8800" {
					t.Errorf("accent = %s", ColorString(th.Palette.Accent))
				}
				if ColorString(th.Palette.Error) != ColorString(Dark().Palette.Error) {
					t.Error("colours not given are not inherited")
				}
			},
		},
		{
			name: "name defaults to the file name",
			json: `{"extends": "light"}`,
			check: func(t *testing.T, th Theme) {
				if th.Name != "mytheme" || th.Dark {
					t.Errorf("got %q dark=%v", th.Name, th.Dark)
				}
			},
		},
		{
			name: "complete palette without extends infers darkness from the background",
			json: `{"colors": ` + fullColors("#fdfdfd") + `}`,
			check: func(t *testing.T, th Theme) {
				if th.Dark || th.ChromaStyle != Light().ChromaStyle {
					t.Errorf("dark=%v chroma=%q, want a light theme", th.Dark, th.ChromaStyle)
				}
			},
		},
		{
			name: "explicit dark, chroma style and ANSI colours",
			json: `{"dark": true, "chroma_style": "Monokai", "colors": ` + fullColors("0") + `}`,
			check: func(t *testing.T, th Theme) {
				if !th.Dark || th.ChromaStyle != "monokai" || ColorString(th.Palette.Background) != "0" {
					t.Errorf("dark=%v chroma=%q bg=%s", th.Dark, th.ChromaStyle, ColorString(th.Palette.Background))
				}
			},
		},
		{
			name: "extends a popular palette",
			json: `{"name": "my-dracula", "extends": "Dracula", "colors": {"user": "#ffb86c"}}`,
			check: func(t *testing.T, th Theme) {
				base := Dracula()
				if th.Name != "my-dracula" || !th.Dark || th.ChromaStyle != base.ChromaStyle {
					t.Errorf("got %q dark=%v chroma=%q, want dracula's darkness and chroma style", th.Name, th.Dark, th.ChromaStyle)
				}
				if ColorString(th.Palette.User) != "#ffb86c" || ColorString(th.Palette.Background) != ColorString(base.Palette.Background) {
					t.Errorf("user = %s, background = %s", ColorString(th.Palette.User), ColorString(th.Palette.Background))
				}
			},
		},
		{
			name: "extends tokyo-night and changes the chroma style",
			json: `{"extends": "tokyo-night", "chroma_style": "tokyonight-storm"}`,
			check: func(t *testing.T, th Theme) {
				if th.Name != "mytheme" || th.ChromaStyle != "tokyonight-storm" ||
					ColorString(th.Palette.Accent) != ColorString(TokyoNight().Palette.Accent) {
					t.Errorf("got %q chroma=%q accent=%s", th.Name, th.ChromaStyle, ColorString(th.Palette.Accent))
				}
			},
		},
		{name: "missing colours without extends", json: `{"colors": {"accent": "#ff8800"}}`, wantField: "colors.foreground"},
		{name: "unknown colour", json: `{"extends": "dark", "colors": {"acent": "#ff8800"}}`, wantField: "colors.acent"},
		{name: "bad colour", json: `{"extends": "dark", "colors": {"accent": "#ff88"}}`, wantField: "colors.accent"},
		{name: "colour not a string", json: `{"extends": "dark", "colors": {"accent": 208}}`, wantField: "colors.accent"},
		{name: "colors not an object", json: `{"extends": "dark", "colors": ["#fff"]}`, wantField: "colors"},
		{name: "unknown field", json: `{"extends": "dark", "colours": {}}`, wantField: "colours"},
		{name: "unknown base", json: `{"extends": "solarized"}`, wantField: "extends"},
		{name: "base not a string", json: `{"extends": true}`, wantField: "extends"},
		{name: "dark not a bool", json: `{"extends": "dark", "dark": "yes"}`, wantField: "dark"},
		{name: "unknown chroma style", json: `{"extends": "dark", "chroma_style": "nope"}`, wantField: "chroma_style"},
		{name: "empty name", json: `{"name": " ", "extends": "dark"}`, wantField: "name"},
		{name: "syntax error", json: "{\n  \"extends\": \"dark\",\n  \"colors\": {\n}", wantField: "line 4"},
		{name: "trailing comma", json: "{\n\"extends\": \"dark\",\n}", wantField: "line 3"},
		{name: "not an object", json: `["dark"]`, wantField: "(file)"},
		{name: "null", json: `null`, wantField: "(file)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, err := Parse([]byte(tt.json), "mytheme")
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				tt.check(t, th)
				for _, f := range th.Palette.Fields() {
					if *f.Color == nil {
						t.Errorf("colour %s is not set", f.Name)
					}
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; want one naming %q", tt.wantField)
			}
			if !errors.Is(err, ErrInvalidTheme) {
				t.Errorf("error %v does not match ErrInvalidTheme", err)
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tt.wantField {
				t.Errorf("error %q names field %q, want %q", err, fieldOf(fe), tt.wantField)
			}
		})
	}
}

func fieldOf(fe *FieldError) string {
	if fe == nil {
		return "<none>"
	}
	return fe.Field
}

func TestParseMissingListsEveryColour(t *testing.T) {
	_, err := Parse([]byte(`{"colors": {"accent": "#ff8800"}}`), "x")
	if err == nil {
		t.Fatal("no error")
	}
	for _, name := range []string{"foreground", "status_background", "extends"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not mention %s", err, name)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "ocean.json")
	if err := os.WriteFile(good, []byte(`{"extends": "dark", "colors": {"accent": "#00aaff"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	th, err := Load(good)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if th.Name != "ocean" || ColorString(th.Palette.Accent) != "#00aaff" {
		t.Errorf("got %q accent %s", th.Name, ColorString(th.Palette.Accent))
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"extends": "dark", "colors": {"accent": "blue"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Load(bad)
	if !errors.Is(err, ErrInvalidTheme) || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "colors.accent") {
		t.Errorf("Load(bad) = %v; want an invalid-theme error naming the file and colors.accent", err)
	}

	_, err = Load(filepath.Join(dir, "missing.json"))
	if !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrInvalidTheme) {
		t.Errorf("Load(missing) = %v; want a not-exist error that is not ErrInvalidTheme", err)
	}
}
