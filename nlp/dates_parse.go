package nlp

import (
	"errors"
	"strings"
	"time"
)

// ErrUnknownTimestamp is returned by ParseTimestamp for text in none of the
// layouts it knows.
var ErrUnknownTimestamp = errors.New("unknown timestamp layout")

// timestampLayouts are tried in order. The last ones are the conversational
// session stamps of datasets such as LoCoMo ("1:56 pm on 8 May, 2023").
var timestampLayouts = []string{
	time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05",
	"2006-01-02 15:04", "2006-01-02",
	"3:04 pm on 2 January, 2006", "3:04 pm on 2 Jan, 2006", "3:04 pm on 2 January 2006",
	"3:04 pm on January 2, 2006", "2 January, 2006", "2 January 2006", "January 2, 2006",
}

// ParseTimestamp reads a timestamp: RFC 3339, ISO dates, and the spoken
// session stamps "1:56 pm on 8 May, 2023" or "8 May 2023". Times without a
// zone are UTC.
func ParseTimestamp(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	norm := strings.ReplaceAll(strings.ReplaceAll(s, " PM", " pm"), " AM", " am")
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, norm); err == nil {
			return t, nil
		}
	}
	return time.Time{}, ErrUnknownTimestamp
}
