package docs_test

import (
	"reflect"
	"strings"
	"testing"

	"pincer/config"
)

// TestConfigurationTypesAreTheFieldsTypes: the type and values columns of
// configuration.md's fields table say "duration" exactly for the fields
// that are config.Duration, and list the accepted words of the others
// (auto_recall was once shown as a duration).
func TestConfigurationTypesAreTheFieldsTypes(t *testing.T) {
	goType := map[string]reflect.Type{}
	ct := reflect.TypeFor[config.Config]()
	for i := range ct.NumField() {
		name, _, _ := strings.Cut(ct.Field(i).Tag.Get("json"), ",")
		goType[name] = ct.Field(i).Type
	}
	rows := 0
	for _, line := range strings.Split(readDoc(t, "configuration.md"), "\n") {
		c := cells(line)
		if len(c) < 6 || !strings.HasPrefix(c[0], "`") {
			continue
		}
		name := strings.Trim(c[0], "`")
		typ, ok := goType[name]
		if !ok {
			continue // another table
		}
		rows++
		isDuration := typ == reflect.TypeFor[config.Duration]()
		if (c[1] == "duration") != isDuration {
			t.Errorf("configuration.md gives %s the type %q; its Go type is %s", name, c[1], typ)
		}
		if !isDuration && strings.Contains(c[3], "number of seconds") {
			t.Errorf("configuration.md says %s takes %q, which is for durations", name, c[3])
		}
	}
	if rows < 20 {
		t.Fatalf("found %d rows of fields in configuration.md; the table's shape changed", rows)
	}
	for _, want := range []string{"`auto`", "`always`", "`off`"} {
		if line := fieldRow(t, "auto_recall"); !strings.Contains(line, want) {
			t.Errorf("configuration.md's auto_recall row lacks %s: %s", want, line)
		}
	}
}

// fieldRow is the fields table's row of a config field.
func fieldRow(t *testing.T, name string) string {
	t.Helper()
	for _, line := range strings.Split(readDoc(t, "configuration.md"), "\n") {
		if strings.HasPrefix(line, "| `"+name+"` |") {
			return line
		}
	}
	t.Fatalf("configuration.md has no row for %s", name)
	return ""
}
