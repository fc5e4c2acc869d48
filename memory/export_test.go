package memory

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/errs"
	"github.com/graphmem/graphmem/graph"
)

// fakePort exports a fixed set of lines and records imported batches.
type fakePort struct {
	lines   []graph.ExportLine
	users   map[string]bool
	batches [][]graph.ExportLine
	tenants []string
	maps    []graph.EntityIDMap
}

func (f *fakePort) ExportUser(_ context.Context, _, _ string, emit func(graph.ExportLine) error) error {
	for _, l := range f.lines {
		if err := emit(l); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakePort) ExportTenant(ctx context.Context, tenant string, emit func(graph.ExportLine) error) error {
	return f.ExportUser(ctx, tenant, "", emit)
}

func (f *fakePort) HasUser(_ context.Context, _, user string) (bool, error) {
	return f.users[user], nil
}

func (f *fakePort) ImportBatch(_ context.Context, tenant string, lines []graph.ExportLine, ids graph.EntityIDMap) (graph.ImportStats, error) {
	f.batches = append(f.batches, append([]graph.ExportLine(nil), lines...))
	f.tenants = append(f.tenants, tenant)
	f.maps = append(f.maps, ids)
	ids[lines[0].Kind] = "seen" // the map must travel from batch to batch
	return graph.ImportStats{Lines: len(lines), NodesCreated: len(lines)}, nil
}

func portLines(n int) []graph.ExportLine {
	out := []graph.ExportLine{{Kind: "header", Format: graph.ExportFormat, Version: graph.ExportVersion, Tenant: "src", UserID: "alice"}}
	for i := range n {
		out = append(out, graph.ExportLine{Kind: "node", Labels: []string{"Entity"}, Props: map[string]any{"id": strings.Repeat("x", i+1), "f": 1.0}})
	}
	return out
}

// TestExportImportStream: an export ends with a line counting the lines;
// an import batches them (header included), keeps one id map across
// batches, defaults to the source tenant, and refuses a cut or foreign
// file; an unknown user is ErrNotFound before anything is written.
func TestExportImportStream(t *testing.T) {
	ctx := t.Context()
	src := &fakePort{lines: portLines(5), users: map[string]bool{"alice": true}}
	var buf bytes.Buffer
	st, err := ExportUser(ctx, src, "src", "alice", &buf)
	if err != nil || st.Lines != 7 || st.Bytes != int64(buf.Len()) || !strings.HasSuffix(buf.String(), `{"kind":"end","lines":7}`+"\n") {
		t.Fatalf("export: %+v %v\n%s", st, err, buf.String())
	}
	var none bytes.Buffer
	if _, err := ExportUser(ctx, src, "src", "bob", &none); !errors.Is(err, errs.ErrNotFound) || none.Len() != 0 {
		t.Fatalf("unknown user: %v, wrote %q", err, none.String())
	}

	dst := &fakePort{}
	var seen []ImportProgress
	res, err := Import(ctx, dst, bytes.NewReader(buf.Bytes()), ImportOptions{BatchLines: 4, Progress: func(p ImportProgress) { seen = append(seen, p) }})
	if err != nil || res.Tenant != "src" || res.UserID != "alice" || res.Stats.Lines != 6 || len(dst.batches) != 2 ||
		len(dst.batches[0]) != 4 || len(dst.batches[1]) != 2 || len(seen) != 2 || dst.maps[1]["header"] != "seen" {
		t.Fatalf("import: %+v %v batches %d progress %d maps %v", res, err, len(dst.batches), len(seen), dst.maps)
	}
	if f, ok := dst.batches[0][1].Props["f"].(any); !ok || f == nil {
		t.Fatalf("props lost: %v", dst.batches[0][1].Props)
	}
	if _, err := Import(ctx, &fakePort{}, bytes.NewReader(buf.Bytes()), ImportOptions{Tenant: "dst"}); err != nil {
		t.Fatal(err)
	}

	lines := strings.SplitAfter(buf.String(), "\n")
	for name, bad := range map[string]string{
		"cut":         strings.Join(lines[:4], ""),
		"empty":       "",
		"no header":   strings.Join(lines[1:], ""),
		"wrong count": strings.Join(lines[:3], "") + `{"kind":"end","lines":9}` + "\n",
		"after end":   buf.String() + lines[1],
		"version":     strings.Replace(buf.String(), `"version":1`, `"version":2`, 1),
		"not json":    lines[0] + "{oops\n",
	} {
		if _, err := Import(ctx, &fakePort{}, strings.NewReader(bad), ImportOptions{}); !errors.Is(err, errs.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}
