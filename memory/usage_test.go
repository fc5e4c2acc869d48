package memory

import (
	"testing"
	"time"
)

// TestBudgetWindows: windows are aligned to UTC multiples of their length,
// so every replica computes the same window for the same instant.
func TestBudgetWindows(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		window     time.Duration
		at         time.Time
		start, end string
	}{
		{0, time.Date(2026, 11, 25, 0, 30, 0, 0, berlin), "2026-11-24T00:00:00Z", "2026-11-25T00:00:00Z"}, // 23:30 UTC
		{24 * time.Hour, time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC), "2026-11-25T00:00:00Z", "2026-11-26T00:00:00Z"},
		{time.Hour, time.Date(2026, 11, 25, 9, 59, 59, 0, time.UTC), "2026-11-25T09:00:00Z", "2026-11-25T10:00:00Z"},
		{20 * time.Second, time.Date(2026, 11, 25, 9, 0, 41, 0, time.UTC), "2026-11-25T09:00:40Z", "2026-11-25T09:01:00Z"},
	} {
		start, end := Budget{Tokens: 1, Window: tc.window}.windowOf(tc.at)
		if start.Format(time.RFC3339) != tc.start || end.Format(time.RFC3339) != tc.end {
			t.Errorf("window %s at %s: %s-%s, want %s-%s", tc.window, tc.at, start.Format(time.RFC3339), end.Format(time.RFC3339), tc.start, tc.end)
		}
	}
}
