//go:build cgo

package embed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// ortEnv guards ONNX Runtime's environment, which the binding keeps for the
// whole process (one loaded library, one environment). This is the one piece
// of package state: every Local shares it, the first loads the library and
// the last to close unloads it, and two embedders may not ask for different
// libraries.
var ortEnv struct {
	sync.Mutex
	lib  string
	refs int
}

func acquireORT(lib string) error {
	ortEnv.Lock()
	defer ortEnv.Unlock()
	abs, err := filepath.Abs(lib)
	if err != nil {
		return err
	}
	if ortEnv.refs > 0 {
		if abs != ortEnv.lib {
			return fmt.Errorf("ONNX Runtime is already loaded from %s in this process; it cannot also load %s", ortEnv.lib, abs)
		}
		ortEnv.refs++
		return nil
	}
	ort.SetSharedLibraryPath(abs)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("load ONNX Runtime %s (it must be release %s, which the Go binding's C API matches): %w", abs, ORTVersion, err)
	}
	ortEnv.lib, ortEnv.refs = abs, 1
	return nil
}

func releaseORT() {
	ortEnv.Lock()
	defer ortEnv.Unlock()
	if ortEnv.refs--; ortEnv.refs == 0 {
		_ = ort.DestroyEnvironment()
		ortEnv.lib = ""
	}
}

// Local is the in-process sentence embedder: a BERT-family encoder run by
// ONNX Runtime on the CPU, fed by the Go WordPiece tokenizer, pooled and
// normalized in Go. It is safe for concurrent use: ONNX Runtime runs
// concurrent calls on one session, each on its caller's thread (with
// Threads 1), so parallel callers use parallel cores.
type Local struct {
	cfg     LocalConfig
	tok     *Tokenizer
	session *ort.DynamicAdvancedSession
	inputs  []string // the model's inputs in the order they are fed
	output  string
	pooled  bool // the output is already one vector per text
	dims    int
	name    string

	closeOnce sync.Once
	running   sync.WaitGroup // calls in flight, waited for by Close
	mu        sync.RWMutex   // guards closed
	closed    bool
}

// NewLocal loads the tokenizer, ONNX Runtime and the model. Missing files are
// an ErrModelMissing that names `make model`.
func NewLocal(cfg LocalConfig) (*Local, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := cfg.checkFiles(); err != nil {
		return nil, err
	}
	tok, err := LoadTokenizer(cfg.TokenizerFile)
	if err != nil {
		return nil, err
	}
	if err := acquireORT(cfg.LibraryFile); err != nil {
		return nil, err
	}
	l, err := newLocalSession(cfg, tok)
	if err != nil {
		releaseORT()
		return nil, err
	}
	return l, nil
}

func newLocalSession(cfg LocalConfig, tok *Tokenizer) (*Local, error) {
	var model []byte // the rewritten model, for int8 compute; nil: the file as it is
	if cfg.Compute == ComputeInt8 {
		raw, err := os.ReadFile(cfg.ModelFile)
		if err != nil {
			return nil, fmt.Errorf("read model %s: %w", cfg.ModelFile, err)
		}
		if model, _, err = Int8Compute(raw); err != nil {
			return nil, fmt.Errorf("model %s: %w", cfg.ModelFile, err)
		}
	}
	var ins, outs []ort.InputOutputInfo
	var err error
	if model != nil {
		ins, outs, err = ort.GetInputOutputInfoWithONNXData(model)
	} else {
		ins, outs, err = ort.GetInputOutputInfo(cfg.ModelFile)
	}
	if err != nil {
		return nil, fmt.Errorf("read model %s: %w", cfg.ModelFile, err)
	}
	l := &Local{cfg: cfg, tok: tok, name: cfg.ModelName}
	if l.name == "" {
		l.name = strings.TrimSuffix(filepath.Base(cfg.ModelFile), filepath.Ext(cfg.ModelFile))
	}
	for _, in := range ins {
		switch in.Name {
		case "input_ids", "attention_mask", "token_type_ids":
			if in.DataType != ort.TensorElementDataTypeInt64 {
				return nil, fmt.Errorf("model %s: input %s is %s; int64 ids are supported", cfg.ModelFile, in.Name, in.DataType)
			}
			l.inputs = append(l.inputs, in.Name)
		default:
			return nil, fmt.Errorf("model %s: unknown input %q (a BERT encoder takes input_ids, attention_mask and token_type_ids)", cfg.ModelFile, in.Name)
		}
	}
	if !contains(l.inputs, "input_ids") || !contains(l.inputs, "attention_mask") {
		return nil, fmt.Errorf("model %s: needs input_ids and attention_mask inputs, has %v", cfg.ModelFile, l.inputs)
	}
	out, err := pickOutput(outs)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", cfg.ModelFile, err)
	}
	l.output, l.pooled = out.Name, len(out.Dimensions) == 2
	l.dims = int(out.Dimensions[len(out.Dimensions)-1])
	if l.dims <= 0 {
		return nil, fmt.Errorf("model %s: output %s has no fixed size (%v)", cfg.ModelFile, out.Name, out.Dimensions)
	}
	if cfg.Dimensions != 0 && cfg.Dimensions != l.dims {
		return nil, fmt.Errorf("model %s gives %d dimensions, the configuration says %d", cfg.ModelFile, l.dims, cfg.Dimensions)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("session options: %w", err)
	}
	defer opts.Destroy()
	for _, set := range []func() error{
		func() error { return opts.SetIntraOpNumThreads(cfg.Threads) },
		func() error { return opts.SetInterOpNumThreads(1) },
		func() error { return opts.SetExecutionMode(ort.ExecutionModeSequential) },
		func() error { return opts.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableAll) },
		// Pool threads that spin while waiting for work burn a core
		// Neo4j could use; they sleep instead.
		func() error { return opts.AddSessionConfigEntry("session.intra_op.allow_spinning", "0") },
	} {
		if err := set(); err != nil {
			return nil, fmt.Errorf("session options: %w", err)
		}
	}
	if model != nil {
		l.session, err = ort.NewDynamicAdvancedSessionWithONNXData(model, l.inputs, []string{l.output}, opts)
	} else {
		l.session, err = ort.NewDynamicAdvancedSession(cfg.ModelFile, l.inputs, []string{l.output}, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("load model %s: %w", cfg.ModelFile, err)
	}
	return l, nil
}

// pickOutput chooses the token states (rank 3) by their usual names, else a
// pooled sentence vector (rank 2), else the first rank-3 output.
func pickOutput(outs []ort.InputOutputInfo) (ort.InputOutputInfo, error) {
	for _, want := range []string{"last_hidden_state", "token_embeddings", "sentence_embedding"} {
		for _, o := range outs {
			if o.Name == want {
				return o, checkOutput(o)
			}
		}
	}
	for _, o := range outs {
		if len(o.Dimensions) == 3 {
			return o, checkOutput(o)
		}
	}
	return ort.InputOutputInfo{}, fmt.Errorf("no output of token states or sentence vectors among %d outputs", len(outs))
}

func checkOutput(o ort.InputOutputInfo) error {
	if o.DataType != ort.TensorElementDataTypeFloat {
		return fmt.Errorf("output %s is %s; float32 is supported", o.Name, o.DataType)
	}
	if len(o.Dimensions) != 2 && len(o.Dimensions) != 3 {
		return fmt.Errorf("output %s has rank %d; 2 or 3 is supported", o.Name, len(o.Dimensions))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Dimensions is the size of every vector.
func (l *Local) Dimensions() int { return l.dims }

// Model names the model the vectors belong to.
func (l *Local) Model() string { return l.name }

// Tokenizer is the tokenizer the embedder feeds the model with.
func (l *Local) Tokenizer() *Tokenizer { return l.tok }

// ErrClosed means the embedder was closed.
var ErrClosed = errors.New("embedder closed")

// Embed returns one unit-length vector per text, in order. Texts are
// encoded, sorted by length and run in batches of at most BatchSize, each
// padded to its own longest text. The context is checked between batches
// and stops a running batch when it is cancelled.
func (l *Local) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	l.mu.RLock()
	if l.closed {
		l.mu.RUnlock()
		return nil, ErrClosed
	}
	l.running.Add(1)
	l.mu.RUnlock()
	defer l.running.Done()

	ids := make([][]int32, len(texts))
	for i, t := range texts {
		ids[i] = l.tok.Encode(t, l.cfg.MaxTokens)
	}
	out := make([][]float32, len(texts))
	for _, b := range makeBatches(ids, l.cfg.BatchSize) {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("embed: %w", err)
		}
		vecs, err := l.run(ctx, b)
		if err != nil {
			return nil, fmt.Errorf("embed: %w", err)
		}
		for r, i := range b.index {
			out[i] = vecs[r]
		}
	}
	return out, nil
}

// run feeds one batch to the model and pools its output.
func (l *Local) run(ctx context.Context, b batch) ([][]float32, error) {
	rows, width := len(b.ids), b.width
	n := rows * width
	idData := make([]int64, n)
	maskData := make([]int64, n)
	lengths := make([]int, rows)
	pad := int64(l.tok.PadID())
	for r, row := range b.ids {
		lengths[r] = len(row)
		for t := range width {
			if t < len(row) {
				idData[r*width+t] = int64(row[t])
				maskData[r*width+t] = 1
			} else {
				idData[r*width+t] = pad
			}
		}
	}
	shape := ort.NewShape(int64(rows), int64(width))
	var values []ort.Value
	defer func() {
		for _, v := range values {
			_ = v.Destroy()
		}
	}()
	for _, name := range l.inputs {
		data := idData
		switch name {
		case "attention_mask":
			data = maskData
		case "token_type_ids":
			data = make([]int64, n) // one segment: all zero
		}
		t, err := ort.NewTensor(shape, data)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", name, err)
		}
		values = append(values, t)
	}
	var hidden []float32
	var outShape ort.Shape
	if l.pooled {
		hidden, outShape = make([]float32, rows*l.dims), ort.NewShape(int64(rows), int64(l.dims))
	} else {
		hidden, outShape = make([]float32, n*l.dims), ort.NewShape(int64(rows), int64(width), int64(l.dims))
	}
	outT, err := ort.NewTensor(outShape, hidden)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	defer outT.Destroy()

	runOpts, err := ort.NewRunOptions()
	if err != nil {
		return nil, fmt.Errorf("run options: %w", err)
	}
	defer runOpts.Destroy()
	stop := context.AfterFunc(ctx, func() { _ = runOpts.Terminate() })
	err = l.session.RunWithOptions(values, []ort.Value{outT}, runOpts)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("run model: %w", err)
	}
	switch {
	case l.pooled:
		out := make([][]float32, rows)
		for r := range rows {
			out[r] = normalize(hidden[r*l.dims : (r+1)*l.dims : (r+1)*l.dims])
		}
		return out, nil
	case l.cfg.Pooling == "cls":
		return clsPool(hidden, rows, width, l.dims), nil
	default:
		return meanPool(hidden, rows, width, l.dims, lengths), nil
	}
}

// Close waits for calls in flight, frees the model and, with the last
// embedder, unloads ONNX Runtime. Embed fails with ErrClosed afterwards.
func (l *Local) Close() error {
	l.closeOnce.Do(func() {
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
		l.running.Wait()
		_ = l.session.Destroy()
		releaseORT()
	})
	return nil
}
