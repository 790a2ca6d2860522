package config

import (
	"reflect"
	"testing"
)

// TestFileConfigMirrorsConfig holds FileConfig to Config: same fields in
// the same order, same JSON names, each either a pointer to Config's type
// or (for lists, the MCP servers and the temperature pointer) the same type.
func TestFileConfigMirrorsConfig(t *testing.T) {
	ct, ft := reflect.TypeFor[Config](), reflect.TypeFor[FileConfig]()
	if ct.NumField() != ft.NumField() {
		t.Fatalf("Config has %d fields, FileConfig %d", ct.NumField(), ft.NumField())
	}
	for i := range ct.NumField() {
		cf, ff := ct.Field(i), ft.Field(i)
		if cf.Name != ff.Name || jsonName(cf) != jsonName(ff) {
			t.Errorf("field %d: Config %s/%s, FileConfig %s/%s", i, cf.Name, jsonName(cf), ff.Name, jsonName(ff))
		}
		switch {
		case ff.Type == reflect.PointerTo(cf.Type):
		case ff.Type == cf.Type && (cf.Type.Kind() == reflect.Slice || cf.Type.Kind() == reflect.Pointer || cf.Type.Kind() == reflect.Map):
		default:
			t.Errorf("%s: FileConfig type %v does not mirror Config type %v", cf.Name, ff.Type, cf.Type)
		}
	}
}

func TestApplyToCopies(t *testing.T) {
	temp := 0.5
	f := FileConfig{Temperature: &temp, Model: Ptr("m"), Allow: []string{"a", "b"}}
	c := Config{Allow: []string{"b", "z"}}
	for _, name := range f.setFields() {
		f.applyTo(&c, name)
	}
	if c.Model != "m" || c.Temperature == nil || *c.Temperature != 0.5 {
		t.Fatalf("applied: %+v", c)
	}
	temp = 0.9
	if *c.Temperature != 0.5 {
		t.Error("Config shares the layer's temperature pointer")
	}
	if want := []string{"b", "z", "a"}; !reflect.DeepEqual(c.Allow, want) {
		t.Errorf("allow = %v, want %v (combined, no repeats)", c.Allow, want)
	}
}
