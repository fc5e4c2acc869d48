package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
)

// PortStore is what export and import need of the graph.
type PortStore interface {
	ExportUser(ctx context.Context, tenant, userID string, emit func(graph.ExportLine) error) error
	ExportTenant(ctx context.Context, tenant string, emit func(graph.ExportLine) error) error
	HasUser(ctx context.Context, tenant, userID string) (bool, error)
	ImportBatch(ctx context.Context, tenant string, lines []graph.ExportLine, ids graph.EntityIDMap) (graph.ImportStats, error)
}

// ExportStats says how much an export wrote.
type ExportStats struct {
	Lines int   // lines written, the end line included
	Bytes int64 // bytes written
}

// endLine closes every export: a reader that does not find it knows the
// file was cut short (a stream broken by a network error, a full disk).
type endLine struct {
	Kind  string `json:"kind"` // "end"
	Lines int    `json:"lines"`
}

// ExportUser writes one user's memory as NDJSON (docs/export.md) to w. A
// user the tenant does not know is ErrNotFound, reported before anything
// is written, so an HTTP handler can still answer with a problem.
func ExportUser(ctx context.Context, store PortStore, tenant, userID string, w io.Writer) (ExportStats, error) {
	ok, err := store.HasUser(ctx, tenant, userID)
	if err != nil {
		return ExportStats{}, err
	}
	if !ok {
		return ExportStats{}, errs.NotFound("user %q", userID)
	}
	return writeExport(w, func(emit func(graph.ExportLine) error) error {
		return store.ExportUser(ctx, tenant, userID, emit)
	})
}

// ExportTenant writes every user of the tenant as NDJSON to w.
func ExportTenant(ctx context.Context, store PortStore, tenant string, w io.Writer) (ExportStats, error) {
	return writeExport(w, func(emit func(graph.ExportLine) error) error {
		return store.ExportTenant(ctx, tenant, emit)
	})
}

func writeExport(w io.Writer, run func(emit func(graph.ExportLine) error) error) (ExportStats, error) {
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	n := 0
	err := run(func(l graph.ExportLine) error {
		n++
		return enc.Encode(l)
	})
	if err == nil {
		n++
		err = enc.Encode(endLine{Kind: "end", Lines: n})
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return ExportStats{Lines: n, Bytes: cw.n}, fmt.Errorf("export: %w", err)
	}
	return ExportStats{Lines: n, Bytes: cw.n}, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ImportOptions tune an import.
type ImportOptions struct {
	// Tenant receives the memory; empty: the tenant the file came from.
	Tenant string
	// BatchLines is how many lines go into one transaction (default 500).
	BatchLines int
	// Progress, when set, is called after each batch.
	Progress func(ImportProgress)
}

// ImportProgress is an import's state after a batch.
type ImportProgress struct {
	Bytes int64 // bytes of the file read so far (the decoder reads ahead a little)
	Stats graph.ImportStats
}

// ImportResult is what an import did.
type ImportResult struct {
	Tenant string // the tenant imported into
	UserID string // the user of a user export; empty for a tenant export
	Stats  graph.ImportStats
}

// Import reads an export from r and writes it into a tenant in batches (a
// user's nodes before its relationships, as the export wrote them). Nodes
// and facts that exist are left alone, so importing twice changes nothing;
// entities the tenant already holds under another id are merged onto. A
// file that is not an export, of another version, or cut short (no end
// line, or a count that does not match) is ErrInvalid; the batches before
// the fault stay imported, and importing the whole file again completes it.
func Import(ctx context.Context, store PortStore, r io.Reader, opt ImportOptions) (ImportResult, error) {
	batchLines := opt.BatchLines
	if batchLines <= 0 {
		batchLines = 500
	}
	cr := &countReader{r: r}
	dec := json.NewDecoder(bufio.NewReaderSize(cr, 256<<10))
	dec.UseNumber()
	var res ImportResult
	ids := graph.EntityIDMap{}
	var batch []graph.ExportLine
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		first := res.Stats.Lines + 1
		st, err := store.ImportBatch(ctx, res.Tenant, batch, ids)
		if err != nil {
			return fmt.Errorf("import lines %d to %d: %w", first, first+len(batch)-1, err)
		}
		res.Stats.Add(st)
		batch = batch[:0]
		if opt.Progress != nil {
			opt.Progress(ImportProgress{Bytes: cr.n, Stats: res.Stats})
		}
		return nil
	}
	lines, ended := 0, false
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return res, fmt.Errorf("import: %w: line %d is not JSON: %w", errs.ErrInvalid, lines+1, err)
		}
		lines++
		if ended {
			return res, fmt.Errorf("import: %w: line %d follows the end line", errs.ErrInvalid, lines)
		}
		var l graph.ExportLine
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&l); err != nil {
			return res, fmt.Errorf("import: %w: line %d: %w", errs.ErrInvalid, lines, err)
		}
		switch {
		case lines == 1 && l.Kind != "header":
			return res, fmt.Errorf("import: %w: line 1 is not an export header (kind %q)", errs.ErrInvalid, l.Kind)
		case lines == 1:
			if l.Format != graph.ExportFormat || l.Version != graph.ExportVersion {
				return res, fmt.Errorf("import: %w: format %q version %d (this build reads %s version %d)",
					errs.ErrInvalid, l.Format, l.Version, graph.ExportFormat, graph.ExportVersion)
			}
			res.Tenant, res.UserID = opt.Tenant, l.UserID
			if res.Tenant == "" {
				res.Tenant = l.Tenant
			}
			if res.Tenant == "" {
				return res, fmt.Errorf("import: %w: the header names no tenant; give one", errs.ErrInvalid)
			}
		case l.Kind == "header":
			return res, fmt.Errorf("import: %w: line %d is a second header", errs.ErrInvalid, lines)
		case l.Kind == "end":
			var e endLine
			_ = json.Unmarshal(raw, &e)
			if e.Lines != lines {
				return res, fmt.Errorf("import: %w: the end line counts %d lines, the file has %d", errs.ErrInvalid, e.Lines, lines)
			}
			ended = true
			continue
		}
		batch = append(batch, l)
		if len(batch) >= batchLines {
			if err := flush(); err != nil {
				return res, err
			}
		}
	}
	if lines == 0 {
		return res, fmt.Errorf("import: %w: the file is empty", errs.ErrInvalid)
	}
	if err := flush(); err != nil {
		return res, err
	}
	if !ended {
		return res, fmt.Errorf("import: %w: the file ends without its end line (cut short?); what it held is imported", errs.ErrInvalid)
	}
	return res, nil
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
