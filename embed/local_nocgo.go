//go:build !cgo

package embed

import (
	"context"
	"errors"
	"fmt"
)

// Local is the in-process sentence embedder. This binary was built without
// cgo, which ONNX Runtime needs, so NewLocal always fails with ErrNoCgo.
type Local struct{}

// ErrClosed means the embedder was closed.
var ErrClosed = errors.New("embedder closed")

// NewLocal fails: ONNX Runtime is loaded through cgo.
func NewLocal(cfg LocalConfig) (*Local, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := cfg.checkFiles(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("local embedder: %w: build graphmem with CGO_ENABLED=1 (and a C compiler) to run the model in process", ErrNoCgo)
}

// Embed is never reached: NewLocal returns no Local without cgo.
func (l *Local) Embed(context.Context, []string) ([][]float32, error) { return nil, ErrNoCgo }

// Dimensions is 0 without cgo.
func (l *Local) Dimensions() int { return 0 }

// Model is empty without cgo.
func (l *Local) Model() string { return "" }

// Tokenizer is nil without cgo.
func (l *Local) Tokenizer() *Tokenizer { return nil }

// Close does nothing without cgo.
func (l *Local) Close() error { return nil }
