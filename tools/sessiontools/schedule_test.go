package sessiontools

import (
	"strings"
	"testing"
	"time"
)

func TestParseSchedule(t *testing.T) {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		spec      string
		prompt    string
		next      time.Time
		every     time.Duration
		wantError string
	}{
		{"in 10m run the tests", "run the tests", now.Add(10 * time.Minute), 0, ""},
		{"every 1h check the build", "check the build", now.Add(time.Hour), time.Hour, ""},
		{"at 2026-12-01T08:00:00Z deploy notes", "deploy notes", time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), 0, ""},
		{"every 10s too often", "", time.Time{}, 0, "at least"},
		{"in soon x y", "", time.Time{}, 0, "duration"},
		{"tomorrow 9am x", "", time.Time{}, 0, "not in, every or at; write: in DURATION PROMPT"},
		{"in 10m", "", time.Time{}, 0, "write:"},
	}
	for _, tc := range cases {
		prompt, next, every, err := ParseSchedule(tc.spec, now)
		if tc.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantError) {
				t.Errorf("ParseSchedule(%q) error %v, want %q", tc.spec, err, tc.wantError)
			}
			continue
		}
		if err != nil || prompt != tc.prompt || !next.Equal(tc.next) || every != tc.every {
			t.Errorf("ParseSchedule(%q) = %q %s %s %v", tc.spec, prompt, next, every, err)
		}
	}
}
