package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/graphmem/graphmem/api"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/memory"
)

// Export and import talk to Neo4j directly, as an operator's tools: a
// whole-tenant export has no API key to go through, and an import into an
// empty database must not need a running service. The service's own
// export is GET /v1/users/{user_id}/export.

const exportUsage = `usage: graphmem export --user USER [--tenant TENANT] [-o FILE]
       graphmem export --tenant TENANT [-o FILE]      (every user of the tenant)
writes NDJSON (docs/export.md) to FILE or stdout; TENANT defaults to "` + api.DefaultTenant + `" (the tenant without API keys)`

const importUsage = `usage: graphmem import [--tenant TENANT] FILE    (FILE "-" reads stdin)
imports an export into TENANT (default: the tenant it was exported from); importing twice changes nothing`

// parseArgs parses flags wherever they stand among the positional
// arguments (`import FILE --tenant T` as well as `import --tenant T FILE`).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// openGraph connects to the configured Neo4j (the local one when no URI is
// set: it must be running).
func openGraph(ctx context.Context, cfg Config, log *slog.Logger) (*graph.Store, error) {
	if cfg.embedded() {
		srv, err := localServer(cfg, io.Discard, log)
		if err != nil {
			return nil, err
		}
		st := srv.Status(ctx)
		if !st.Running {
			return nil, errors.New("the local Neo4j is not running: start it (graphmem neo4j start) or set GRAPHMEM_NEO4J_URI")
		}
		cfg.Neo4jURI = st.BoltURI
	}
	store, err := graph.Open(ctx, graph.Config{
		URI: cfg.Neo4jURI, Username: cfg.Neo4jUser, Password: cfg.neo4jPassword(), Database: cfg.Neo4jDatabase,
		QueryTimeout: cfg.Neo4jTimeout, ExtraFactTypes: cfg.ExtraFactTypes, EmbeddingDimensions: 0, // export and import copy properties; the lane embeds imported memories
		AppVersion: version,
	}, log)
	if err != nil {
		return nil, fmt.Errorf("connect to Neo4j: %w (check GRAPHMEM_NEO4J_URI and credentials)", err)
	}
	return store, nil
}

func exportCommand(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	user := fs.String("user", "", "")
	tenant := fs.String("tenant", "", "")
	out := fs.String("o", "", "")
	pos, err := parseArgs(fs, args)
	if err != nil || len(pos) > 0 || (*user == "" && *tenant == "") {
		return usageError{exportUsage}
	}
	if *tenant == "" {
		*tenant = api.DefaultTenant
	}
	log := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	store, err := openGraph(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer store.Close(context.WithoutCancel(ctx))

	w, done := stdout, func() error { return nil }
	if *out != "" && *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		w, done = f, f.Close
		defer f.Close()
	}
	start := time.Now()
	var st memory.ExportStats
	what := fmt.Sprintf("tenant %q", *tenant)
	if *user != "" {
		what = fmt.Sprintf("user %q of tenant %q", *user, *tenant)
		st, err = memory.ExportUser(ctx, store, *tenant, *user, w)
	} else {
		st, err = memory.ExportTenant(ctx, store, *tenant, w)
	}
	if err == nil {
		err = done()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "exported %s: %d lines, %s in %s\n", what, st.Lines, byteSize(st.Bytes), time.Since(start).Round(time.Millisecond))
	return nil
}

func importCommand(ctx context.Context, cfg Config, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tenant := fs.String("tenant", "", "")
	batch := fs.Int("batch", 500, "")
	pos, err := parseArgs(fs, args)
	if err != nil || len(pos) != 1 || *batch < 1 {
		return usageError{importUsage}
	}
	var in io.Reader = os.Stdin
	var size int64
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		}
		in = f
	}
	log := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	store, err := openGraph(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer store.Close(context.WithoutCancel(ctx))
	if _, err := store.ApplySchema(ctx); err != nil { // an empty database has no constraints yet
		return fmt.Errorf("apply schema: %w", err)
	}
	bar := newProgress(stderr, isTerminal(stderr), size)
	start := time.Now()
	res, err := memory.Import(ctx, store, in, memory.ImportOptions{Tenant: *tenant, BatchLines: *batch, Progress: bar.update})
	bar.finish()
	if err != nil {
		return err
	}
	who := "tenant " + res.Tenant
	if res.UserID != "" {
		who = fmt.Sprintf("user %q into tenant %q", res.UserID, res.Tenant)
	}
	fmt.Fprintf(stderr, "imported %s: %d lines, %d nodes and %d relationships created, %d nodes already there (%d entities merged onto existing ones) in %s\n",
		who, res.Stats.Lines, res.Stats.NodesCreated, res.Stats.RelsCreated, res.Stats.NodesExisting, res.Stats.EntitiesMerged,
		time.Since(start).Round(time.Millisecond))
	return nil
}

// progress draws a bar on a terminal (rewriting one line) and plain lines,
// at most every few seconds, anywhere else (a log, a CI job).
type progress struct {
	w     io.Writer
	tty   bool
	size  int64
	last  time.Time
	drawn bool
}

func newProgress(w io.Writer, tty bool, size int64) *progress {
	return &progress{w: w, tty: tty, size: size}
}

const plainProgressEvery = 5 * time.Second

func (p *progress) update(pr memory.ImportProgress) {
	if p.tty {
		fmt.Fprintf(p.w, "\r%s", p.line(pr))
		p.drawn = true
		return
	}
	if time.Since(p.last) < plainProgressEvery {
		return
	}
	p.last = time.Now()
	counts := fmt.Sprintf("%d lines, %d nodes, %d relationships created", pr.Stats.Lines, pr.Stats.NodesCreated, pr.Stats.RelsCreated)
	if p.size > 0 {
		fmt.Fprintf(p.w, "import: %.0f%% of %s read, %s\n", p.frac(pr)*100, byteSize(p.size), counts)
		return
	}
	fmt.Fprintf(p.w, "import: %s read, %s\n", byteSize(pr.Bytes), counts)
}

func (p *progress) frac(pr memory.ImportProgress) float64 {
	return min(float64(pr.Bytes)/float64(p.size), 1)
}

// line is the bar a terminal shows.
func (p *progress) line(pr memory.ImportProgress) string {
	counts := fmt.Sprintf("%d lines, %d nodes, %d relationships", pr.Stats.Lines, pr.Stats.NodesCreated, pr.Stats.RelsCreated)
	if p.size <= 0 {
		return fmt.Sprintf("%s read, %s", byteSize(pr.Bytes), counts)
	}
	frac := p.frac(pr)
	const width = 30
	full := int(frac * width)
	return fmt.Sprintf("[%s%s] %3.0f%%  %s  ", strings.Repeat("#", full), strings.Repeat(".", width-full), frac*100, counts)
}

func (p *progress) finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// retentionFileEntry is one policy of GRAPHMEM_RETENTION_FILE.
type retentionFileEntry struct {
	RawTextDays int `json:"raw_text_days"`
	FactDays    int `json:"fact_days"`
	InsightDays int `json:"insight_days"`
}

// loadRetention reads GRAPHMEM_RETENTION_FILE: a JSON object of policies
// by tenant, "*" for every tenant without its own, e.g.
// {"*": {"raw_text_days": 90}, "acme": {"fact_days": 365, "insight_days": 180}}.
func loadRetention(path string) (map[string]memory.RetentionPolicy, error) {
	if path == "" {
		return nil, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in map[string]retentionFileEntry
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make(map[string]memory.RetentionPolicy, len(in))
	for t, p := range in {
		if t != "*" && !api.ValidTenant(t) {
			return nil, fmt.Errorf("%s: %q is not a tenant name (or \"*\")", path, t)
		}
		for _, d := range []int{p.RawTextDays, p.FactDays, p.InsightDays} {
			if d < 0 || d > 36500 {
				return nil, fmt.Errorf("%s: tenant %q: days must be within 0-36500", path, t)
			}
		}
		out[t] = memory.RetentionPolicy(p)
	}
	return out, nil
}
