package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeDocumentsConfiguration keeps the README's configuration table
// identical to what the binary reads (regenerate it with
// `graphmem config --markdown`), and the two commands a newcomer needs.
func TestReadmeDocumentsConfiguration(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	if !strings.Contains(readme, configTable()) {
		t.Error("README.md's configuration table is out of date: paste the output of `go run ./cmd/graphmem config --markdown`")
	}
	for _, want := range []string{"make run", "make test", "http://127.0.0.1:7474/browser/", "/v1/search",
		"make demo", ":play http://127.0.0.1:8080/browser/guide.html", "](docs/browser-demo.png)"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not mention %q", want)
		}
	}
}
