package main

import (
	"strconv"
	"strings"
)

// promSamples is a /metrics page read from Prometheus' text exposition
// format: every sample's value by metric name, label sets kept apart. The
// harness reads only a few counters and gauges, so it parses the format
// itself rather than depend on the Prometheus libraries.
type promSamples map[string][]promSample

type promSample struct {
	Labels string // the raw label set without braces ("" when none)
	Value  float64
}

// parsePromText reads the text format: "# ..." lines are skipped, each
// other line is `name[{labels}] value [timestamp]`. Lines that do not parse
// are skipped, as a scraper would ignore what it does not understand.
func parsePromText(text string) promSamples {
	out := promSamples{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, labels, rest := line, "", ""
		if i := strings.IndexByte(line, '{'); i >= 0 {
			// Label values may hold spaces or braces inside quotes: find
			// the closing brace outside a quoted string.
			j := closingBrace(line, i)
			if j < 0 {
				continue
			}
			name, labels, rest = line[:i], line[i+1:j], line[j+1:]
		} else {
			var ok bool
			name, rest, ok = strings.Cut(line, " ")
			if !ok {
				continue
			}
		}
		f := strings.Fields(rest)
		if len(f) == 0 || name == "" {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		out[name] = append(out[name], promSample{Labels: labels, Value: v})
	}
	return out
}

// closingBrace returns the index of the '}' that closes the '{' at open,
// skipping quoted label values (with backslash escapes); -1 if none.
func closingBrace(s string, open int) int {
	quoted := false
	for i := open + 1; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == '}':
			return i
		}
	}
	return -1
}

// sum adds every sample of a metric over its label sets; ok is false when
// the page has no sample of that name (the metric does not exist there, or
// a labelled counter was never incremented).
func (p promSamples) sum(name string) (v float64, ok bool) {
	ss, ok := p[name]
	for _, s := range ss {
		v += s.Value
	}
	return v, ok
}

// byLabel returns the samples of a metric keyed by the value of one label.
func (p promSamples) byLabel(name, label string) map[string]float64 {
	out := map[string]float64{}
	for _, s := range p[name] {
		out[labelValue(s.Labels, label)] += s.Value
	}
	return out
}

// labelValue reads one label's value from a raw label set such as
// `kind="raw",outcome="ok"` ("" when absent).
func labelValue(labels, name string) string {
	for labels != "" {
		k, rest, ok := strings.Cut(labels, "=")
		if !ok || !strings.HasPrefix(rest, `"`) {
			return ""
		}
		// Find the closing quote, honouring escapes.
		end := -1
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\\' {
				i++
				continue
			}
			if rest[i] == '"' {
				end = i
				break
			}
		}
		if end < 0 {
			return ""
		}
		if strings.TrimSpace(k) == name {
			v, err := strconv.Unquote(rest[:end+1])
			if err != nil {
				return rest[1:end]
			}
			return v
		}
		labels = strings.TrimPrefix(strings.TrimSpace(rest[end+1:]), ",")
	}
	return ""
}
