package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"pincer/internal/atomicfile"
	"pincer/internal/safefile"
)

// SaveUser updates the user config file at path (see UserConfigPath): it
// reads the file (a missing one is empty), hands its settings to update,
// and writes the result atomically with mode 0600, creating missing
// directories with mode 0700. A field update sets to nil is removed.
// Fields it leaves alone keep their exact text, and fields this version
// does not know, and "$schema", are kept. A file that is not valid JSON is
// left untouched and the error wraps ErrSyntax, so nothing is lost. When
// path is a symbolic link, the file it points to is updated.
func SaveUser(path string, update func(*FileConfig)) error {
	target := path
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		resolved, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("save config %s: follow link: %w", path, err)
		}
		target = resolved
	}
	data, err := safefile.Read(target, safefile.Options{Name: path})
	var refused *safefile.Error
	if errors.As(err, &refused) {
		return fmt.Errorf("save config: %s; it was left unchanged", refused.Sentence(""))
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("save config %s: %w", path, err)
	}
	entries, err := parseObject(data)
	if err != nil {
		return &Problem{Kind: ErrSyntax, Source: Source{Kind: FromUserFile, Name: path},
			Message: fmt.Sprintf("config: %s %s; it was left unchanged", path, err)}
	}

	// Decode what this version knows; remember the rest as written.
	var before FileConfig
	keys := []string{}
	raws := map[string]json.RawMessage{}
	undecodable := map[string]bool{}
	for _, e := range entries {
		if _, seen := raws[e.key]; !seen {
			keys = append(keys, e.key)
		}
		raws[e.key] = e.raw
		if ptr, known := before.fieldPtr(e.key); known {
			if string(e.raw) == "null" || json.Unmarshal(e.raw, ptr) != nil {
				before.clear(e.key)
				undecodable[e.key] = true
			}
		}
	}
	after := cloneFileConfig(before)
	update(&after)

	bv, av := reflect.ValueOf(before), reflect.ValueOf(after)
	for i, name := range FieldNames() {
		old, cur := bv.Field(i), av.Field(i)
		switch {
		case cur.IsNil() && undecodable[name]:
			// update did not touch a value this version cannot read: keep it.
		case cur.IsNil():
			delete(raws, name)
		case !old.IsNil() && reflect.DeepEqual(old.Interface(), cur.Interface()):
			// unchanged: keep the text as the person wrote it ("90s" stays "90s").
		default:
			raw, err := json.Marshal(cur.Interface())
			if err != nil {
				return fmt.Errorf("save config %s: encode %s: %w", path, name, err)
			}
			if _, had := raws[name]; !had {
				keys = append(keys, name)
			}
			raws[name] = raw
		}
	}
	out, err := encodeObject(keys, raws)
	if err != nil {
		return fmt.Errorf("save config %s: %w", path, err)
	}
	if err := writeFileAtomic(target, out); err != nil {
		return fmt.Errorf("save config %s: %w", path, err)
	}
	return nil
}

// cloneFileConfig copies the pointed-to values and slices, so update
// cannot change before through shared pointers.
func cloneFileConfig(f FileConfig) FileConfig {
	src := reflect.ValueOf(f)
	dst := reflect.New(src.Type()).Elem()
	for i := range src.NumField() {
		v := src.Field(i)
		if v.IsNil() {
			continue
		}
		switch v.Kind() {
		case reflect.Slice:
			cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(cp, v)
			dst.Field(i).Set(cp)
		case reflect.Pointer:
			cp := reflect.New(v.Type().Elem())
			cp.Elem().Set(v.Elem())
			dst.Field(i).Set(cp)
		case reflect.Map:
			cp := reflect.MakeMapWithSize(v.Type(), v.Len())
			for it := v.MapRange(); it.Next(); {
				cp.SetMapIndex(it.Key(), it.Value())
			}
			dst.Field(i).Set(cp)
		}
	}
	return dst.Interface().(FileConfig)
}

// encodeObject writes the keys in order as an indented JSON object.
func encodeObject(keys []string, raws map[string]json.RawMessage) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("{")
	n := 0
	for _, k := range keys {
		raw, ok := raws[k]
		if !ok {
			continue
		}
		if n > 0 {
			buf.WriteString(",")
		}
		n++
		name, err := json.Marshal(k)
		if err != nil {
			return nil, fmt.Errorf("encode key %q: %w", k, err)
		}
		buf.WriteString("\n  ")
		buf.Write(name)
		buf.WriteString(": ")
		var val bytes.Buffer
		if err := json.Indent(&val, raw, "  ", "  "); err != nil {
			return nil, fmt.Errorf("encode %q: %w", k, err)
		}
		buf.Write(val.Bytes())
	}
	if n > 0 {
		buf.WriteString("\n")
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// writeFileAtomic replaces path with data (mode 0600), creating its
// directory, so a crash leaves either the old file or the new one.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	return atomicfile.Write(path, data, 0o600)
}
