package config

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func TestDurationUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{`"90s"`, 90 * time.Second, false},
		{`"2m"`, 2 * time.Minute, false},
		{`"1h30m"`, 90 * time.Minute, false},
		{`"1.5s"`, 1500 * time.Millisecond, false},
		{`"250ms"`, 250 * time.Millisecond, false},
		{`"0"`, 0, false},
		{`"-5s"`, -5 * time.Second, false}, // parsed; validation refuses it
		{`"45"`, 45 * time.Second, false},  // a quoted number is seconds too
		{`90`, 90 * time.Second, false},
		{`0`, 0, false},
		{`1.25`, 1250 * time.Millisecond, false},
		{`-1`, -time.Second, false},
		{` 30 `, 30 * time.Second, false},
		{`"2 minutes"`, 0, true},
		{`"90"s`, 0, true},
		{`""`, 0, true},
		{`"5x"`, 0, true},
		{`true`, 0, true},
		{`[1]`, 0, true},
		{`1e300`, 0, true},
		{`"NaN"`, 0, true},
	}
	for _, tt := range tests {
		var d Duration
		err := d.UnmarshalJSON([]byte(tt.in))
		if tt.wantErr {
			if err == nil {
				t.Errorf("%s: got %v, want an error", tt.in, d)
			}
			continue
		}
		if err != nil || d.Std() != tt.want {
			t.Errorf("%s: got %v, %v; want %v", tt.in, d.Std(), err, tt.want)
		}
	}
}

func TestDurationErrorSaysTheForms(t *testing.T) {
	var d Duration
	err := d.UnmarshalJSON([]byte(`"soon"`))
	if !errors.Is(err, errDuration) {
		t.Fatalf("err = %v, want it to wrap the forms hint", err)
	}
}

func TestDurationNullKeepsValue(t *testing.T) {
	d := Duration(time.Second)
	if err := d.UnmarshalJSON([]byte("null")); err != nil || d != Duration(time.Second) {
		t.Errorf("null: got %v, %v; want the value unchanged", d, err)
	}
}

func TestDurationText(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{"90s", 90 * time.Second, false},
		{" 2m ", 2 * time.Minute, false},
		{"15", 15 * time.Second, false},
		{"", 0, true},
		{"abc", 0, true},
	}
	for _, tt := range tests {
		var d Duration
		err := d.UnmarshalText([]byte(tt.in))
		if (err != nil) != tt.wantErr || (!tt.wantErr && d.Std() != tt.want) {
			t.Errorf("UnmarshalText(%q) = %v, %v", tt.in, d.Std(), err)
		}
	}
}

func TestDurationMarshalRoundTrip(t *testing.T) {
	for _, v := range []time.Duration{0, time.Second, 90 * time.Second, 2 * time.Minute, 1500 * time.Millisecond, 36 * time.Hour} {
		d := Duration(v)
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back Duration
		if err := json.Unmarshal(b, &back); err != nil || back != d {
			t.Errorf("%v: marshalled %s, back %v, %v", v, b, back, err)
		}
		text, _ := d.MarshalText()
		if string(text) != v.String() {
			t.Errorf("MarshalText(%v) = %s, want %s", v, text, v.String())
		}
	}
	if got := Duration(2 * time.Minute).String(); got != "2m0s" {
		t.Errorf("String = %q, want 2m0s", got)
	}
	if b, _ := json.Marshal(Duration(90 * time.Second)); string(b) != `"1m30s"` {
		t.Errorf("JSON = %s, want \"1m30s\"", b)
	}
}
