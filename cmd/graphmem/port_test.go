package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/memory"
)

// TestImportProgress: a terminal gets one bar rewritten in place and a
// newline at the end; anything else gets plain lines (the first at once,
// then at most one every few seconds), never a carriage return.
func TestImportProgress(t *testing.T) {
	step := func(bytes int64, lines int) memory.ImportProgress {
		return memory.ImportProgress{Bytes: bytes, Stats: graph.ImportStats{Lines: lines, NodesCreated: lines / 2}}
	}
	var tty bytes.Buffer
	p := newProgress(&tty, true, 1000)
	p.update(step(500, 10))
	p.update(step(1000, 20))
	p.finish()
	out := tty.String()
	if strings.Count(out, "\r") != 2 || !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 ||
		!strings.Contains(out, " 50%") || !strings.Contains(out, "100%") || !strings.Contains(out, "[###############...............]") {
		t.Fatalf("terminal progress: %q", out)
	}

	var plain bytes.Buffer
	p = newProgress(&plain, false, 1000)
	p.update(step(500, 10))
	p.update(step(1000, 20)) // within the interval: not written
	p.finish()
	if out := plain.String(); out != "import: 50% of 1000 B read, 10 lines, 5 nodes, 0 relationships created\n" {
		t.Fatalf("plain progress: %q", out)
	}
}

// TestExportImportUsage: flags stand anywhere; a missing subject or file
// is a usage error (exit status 2) before anything connects.
func TestExportImportUsage(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tenant := fs.String("tenant", "", "")
	pos, err := parseArgs(fs, []string{"file.ndjson", "--tenant", "t2"})
	if err != nil || !slices.Equal(pos, []string{"file.ndjson"}) || *tenant != "t2" {
		t.Fatalf("parseArgs: %v %v %q", pos, err, *tenant)
	}
	for _, args := range [][]string{{"export"}, {"export", "--user"}, {"export", "--user", "u", "extra"}, {"import"},
		{"import", "a", "b"}, {"import", "--batch", "0", "f"}} {
		err := run(t.Context(), args, func(string) string { return "" }, nil, io.Discard, io.Discard)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// TestRetentionFile: policies by tenant and "*"; unknown fields, bad
// tenant names and out-of-range days are configuration errors naming the
// variable.
func TestRetentionFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"*": {"raw_text_days": 90}, "acme": {"fact_days": 365, "insight_days": 30}}`)
	got, err := loadRetention(good)
	if err != nil || got["*"].RawTextDays != 90 || got["acme"].FactDays != 365 || got["acme"].InsightDays != 30 || len(got) != 2 {
		t.Fatalf("good file: %+v %v", got, err)
	}
	for name, body := range map[string]string{
		"unknown.json": `{"acme": {"raw_days": 3}}`,
		"tenant.json":  `{"a b": {"fact_days": 3}}`,
		"range.json":   `{"acme": {"fact_days": -1}}`,
	} {
		p := write(name, body)
		_, err := loadConfig(func(k string) string { return map[string]string{"GRAPHMEM_RETENTION_FILE": p}[k] },
			[]string{"GRAPHMEM_RETENTION_FILE=" + p})
		if err == nil || !strings.Contains(err.Error(), "RETENTION_FILE") {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err = loadConfig(func(string) string { return "" }, []string{"GRAPHMEM_RETENTION_EVERY=10s"})
	if err == nil || !strings.Contains(err.Error(), "RETENTION_EVERY") {
		t.Errorf("RETENTION_EVERY=10s: %v", err)
	}
}
