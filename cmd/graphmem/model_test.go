package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/embed"
)

func TestModelCommand(t *testing.T) {
	getenv := func(string) string { return "" }
	var usage usageError
	for _, args := range [][]string{{"model"}, {"model", "pull"}, {"model", "fetch", "extra"}} {
		if err := run(context.Background(), args, getenv, nil, io.Discard, io.Discard); !errors.As(err, &usage) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
	// verify on an empty folder names what is missing and how to get it,
	// and downloads nothing.
	var out strings.Builder
	err := run(context.Background(), []string{"model", "verify", "-dir", t.TempDir()}, getenv, nil, &out, io.Discard)
	if !errors.Is(err, embed.ErrModelMissing) || !strings.Contains(err.Error(), "make model") {
		t.Errorf("verify of an empty folder: %v, want ErrModelMissing naming make model", err)
	}
}
