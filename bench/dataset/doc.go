// Package dataset reads the evaluation data graphmem is measured on, in
// one place: the knowledge-update scenarios (the shared visible set and
// the project's own set in bench/data), their check types, and the fixed
// split of the project's own set into a development half and a held-out
// half.
//
// The bench harness, the end-to-end tests and the offline engine's tests
// all read scenarios through it, so the format has one definition. It
// imports nothing of graphmem's: it describes data, not the service.
package dataset
