//go:build integration

package main

import (
	"os"
	"path/filepath"
)

// testModelDirEnv names the folder of the local embedder's files that the
// end-to-end tests use; make test sets it to the checkout's .models after
// `graphmem model fetch`.
const testModelDirEnv = "GRAPHMEM_TEST_MODEL_DIR"

// embedderVars are the settings that give a test's service the embedder
// `make run` has: the local one, on the files make test fetched. Without
// them (go test run by hand before `make model`) the service runs with
// vectors off, which every test but the vector ones also passes with.
func embedderVars() map[string]string {
	dir := os.Getenv(testModelDirEnv)
	if dir == "" {
		if abs, err := filepath.Abs("../../.models"); err == nil {
			if _, err := os.Stat(filepath.Join(abs, "all-MiniLM-L6-v2")); err == nil {
				dir = abs
			}
		}
	}
	if dir == "" {
		return map[string]string{"GRAPHMEM_EMBEDDER": "off"}
	}
	return map[string]string{"GRAPHMEM_EMBEDDER": "local", "GRAPHMEM_MODEL_DIR": dir}
}

// embedderKV is embedderVars as envOf's key, value list.
func embedderKV() []string {
	var kv []string
	for k, v := range embedderVars() {
		kv = append(kv, k, v)
	}
	return kv
}
