package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
)

// Embedder turns texts into sentence vectors of Dimensions() floats, one per
// text in order. Vectors of one embedder are comparable with each other by
// cosine; those of different models are not, which is why Model() names the
// model the vectors belong to.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dimensions() int
	Model() string
}

// ErrModelMissing means the local model's files are not where the
// configuration says. The local embedder is graphmem's default, so a missing
// file is an error that names the command that installs it, never a silent
// fall-back to no vectors.
var ErrModelMissing = errors.New("local embedding model files missing")

// ErrNoCgo means this binary was built without cgo, which ONNX Runtime needs.
var ErrNoCgo = errors.New("built without cgo")

// LocalConfig describes the in-process embedder: a BERT-family sentence
// encoder exported to ONNX, its WordPiece tokenizer and the ONNX Runtime
// library. Any model of the family runs with the same code: set ModelFile and
// TokenizerFile (and Pooling when it pools on [CLS]); Dimensions is read from
// the model.
type LocalConfig struct {
	ModelFile     string // ONNX model whose output is the token states (or a pooled vector)
	TokenizerFile string // tokenizer.json (or a BERT vocab.txt) of the same model
	LibraryFile   string // ONNX Runtime shared library, libonnxruntime.so.<version>
	ModelName     string // reported by Model(); empty: the model file's name

	// Dimensions, when set, must equal the model's output size: a guard
	// for a vector index of fixed size. 0 takes the model's.
	Dimensions int
	// Pooling is "mean" (mean over the real tokens, the sentence-
	// transformers default) or "cls" (the [CLS] state). Empty: mean.
	Pooling string
	// MaxTokens caps a text's word pieces, [CLS] and [SEP] included.
	// 0: DefaultMaxTokens.
	MaxTokens int
	// Threads is the ONNX Runtime threads one call uses. 0: DefaultThreads.
	Threads int
	// BatchSize is the most texts run through the model at once.
	// 0: DefaultBatchSize.
	BatchSize int
	// Compute is how the matrix products run: ComputeFP32 (empty, the
	// default: int8 weights are folded back to fp32 at load) or
	// ComputeInt8 (the products that do not read a LayerNorm run on ONNX
	// Runtime's int8 kernels, see Int8Compute: a fifth less CPU, vectors a
	// little further from the reference model's).
	Compute string
}

// Compute modes of LocalConfig.
const (
	ComputeFP32 = "fp32"
	ComputeInt8 = "int8"
)

const (
	// DefaultMaxTokens is 128: all-MiniLM-L6-v2 was trained on sequences
	// of 128 word pieces (its tokenizer.json truncates there), a
	// conversational turn rarely reaches it (see docs/embedding.md), and
	// attention's cost grows with the square of the length.
	DefaultMaxTokens = 128
	// DefaultThreads is one thread per call: a second thread cuts a
	// call's wall time by a sixth for 37-40% more CPU, and on a two-core
	// machine that also runs Neo4j a search's query embedding and the
	// embedding lane should each take one core at most. Parallelism
	// comes from concurrent calls.
	DefaultThreads = 1
	// DefaultBatchSize is 32 texts: a batch of 32 turns costs a fifth
	// less CPU per turn than one at a time, 64 costs no less than 32 and
	// holds the lane twice as long (docs/embedding.md).
	DefaultBatchSize = 32
	// maxPositions is BERT's position-embedding table size.
	maxPositions = 512
)

// withDefaults fills the zero settings and checks the rest.
func (c LocalConfig) withDefaults() (LocalConfig, error) {
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.Threads == 0 {
		c.Threads = DefaultThreads
	}
	if c.BatchSize == 0 {
		c.BatchSize = DefaultBatchSize
	}
	if c.Pooling == "" {
		c.Pooling = "mean"
	}
	if c.Compute == "" {
		c.Compute = ComputeFP32
	}
	var errs []error
	if c.MaxTokens < 3 || c.MaxTokens > maxPositions {
		errs = append(errs, fmt.Errorf("max tokens %d outside 3-%d", c.MaxTokens, maxPositions))
	}
	if c.Threads < 1 || c.BatchSize < 1 {
		errs = append(errs, fmt.Errorf("threads (%d) and batch size (%d) must be positive", c.Threads, c.BatchSize))
	}
	if c.Compute != ComputeFP32 && c.Compute != ComputeInt8 {
		errs = append(errs, fmt.Errorf("compute %q must be %s or %s", c.Compute, ComputeFP32, ComputeInt8))
	}
	if c.Pooling != "mean" && c.Pooling != "cls" {
		errs = append(errs, fmt.Errorf("pooling %q must be mean or cls", c.Pooling))
	}
	if c.Dimensions < 0 {
		errs = append(errs, fmt.Errorf("dimensions %d is negative", c.Dimensions))
	}
	if len(errs) > 0 {
		return c, fmt.Errorf("local embedder: %w", errors.Join(errs...))
	}
	return c, nil
}

// checkFiles reports every configured file that is absent, naming the
// command that installs the default ones.
func (c LocalConfig) checkFiles() error {
	var missing []string
	for _, f := range []struct{ what, path string }{
		{"model", c.ModelFile}, {"tokenizer", c.TokenizerFile}, {"ONNX Runtime library", c.LibraryFile},
	} {
		if f.path == "" {
			missing = append(missing, f.what+" (not configured)")
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			missing = append(missing, fmt.Sprintf("%s %s", f.what, f.path))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %v; run `make model` (or `graphmem model fetch`) to install the default model, "+
			"or point the embedder's settings at your own files", ErrModelMissing, missing)
	}
	return nil
}

// batch is a run of texts of similar length, padded to the longest.
type batch struct {
	index []int     // position of each row in the caller's texts
	ids   [][]int32 // word-piece ids per row, unpadded
	width int       // longest row
}

// makeBatches orders the encoded texts by length and cuts them into batches
// of at most size rows, so each batch pads little: a turn of 12 word pieces
// does not pay for a neighbour of 120. A batch also ends where the next
// text would make padding more than maxPadding of the batch's real word
// pieces, however few rows it has: the embedding lane claims turns and the
// summaries written beside them together, and one summary of 128 word pieces
// padded thirty turns of 30 to its length, three times their cost (20
// instead of 67 texts/s in BenchmarkEmbedLaneClaim).
func makeBatches(ids [][]int32, size int) []batch {
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(ids[order[a]]) < len(ids[order[b]]) })
	var out []batch
	var cur batch
	real := 0
	for _, i := range order {
		w := len(ids[i])
		if len(cur.index) > 0 && (len(cur.index) == size || float64((len(cur.index)+1)*w) > (1+maxPadding)*float64(real+w)) {
			out = append(out, cur)
			cur, real = batch{}, 0
		}
		cur.index = append(cur.index, i)
		cur.ids = append(cur.ids, ids[i])
		cur.width = max(cur.width, w)
		real += w
	}
	if len(cur.index) > 0 {
		out = append(out, cur)
	}
	return out
}

// maxPadding is the share of padding a batch may carry over its real word
// pieces: one batch costs less per text than several smaller ones (a fifth,
// at 32 turns), but not when most of what it computes is padding.
const maxPadding = 0.25

// meanPool averages the states of a row's real tokens (mask 1, [CLS] and
// [SEP] included, as sentence-transformers does) from hidden, laid out
// [rows][width][dims], and L2-normalizes the result.
func meanPool(hidden []float32, rows, width, dims int, lengths []int) [][]float32 {
	out := make([][]float32, rows)
	for r := range rows {
		v := make([]float32, dims)
		acc := make([]float64, dims)
		base := r * width * dims
		for t := range lengths[r] {
			row := hidden[base+t*dims : base+(t+1)*dims]
			for d, x := range row {
				acc[d] += float64(x)
			}
		}
		n := float64(max(lengths[r], 1))
		for d := range v {
			v[d] = float32(acc[d] / n)
		}
		out[r] = normalize(v)
	}
	return out
}

// clsPool takes each row's first state ([CLS]) and L2-normalizes it.
func clsPool(hidden []float32, rows, width, dims int) [][]float32 {
	out := make([][]float32, rows)
	for r := range rows {
		v := make([]float32, dims)
		copy(v, hidden[r*width*dims:r*width*dims+dims])
		out[r] = normalize(v)
	}
	return out
}

// normalize scales v to unit length in place (a zero vector stays zero):
// cosine similarity is then a dot product.
func normalize(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return v
	}
	inv := 1 / math.Sqrt(s)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
	return v
}

// Cosine is the cosine similarity of two vectors of equal length.
func Cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
