//go:build integration

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graphmem/graphmem/embed"
	"github.com/graphmem/graphmem/knowledge"
)

// TestTopicReadingsWithTheLocalModel reads, with the model `make run`
// uses, the topic of questions and statements written for this test (none
// is an example of the ontology or a line of the evaluation sets): the
// providers and software a user relies on read as their own one-value
// topic, not as work, and the topics beside it keep their readings.
func TestTopicReadingsWithTheLocalModel(t *testing.T) {
	dir := os.Getenv(testModelDirEnv)
	if dir == "" {
		dir, _ = filepath.Abs("../../.models")
		if _, err := os.Stat(filepath.Join(dir, "all-MiniLM-L6-v2")); err != nil {
			t.Skip("no model files: run `make model` (make test fetches them and sets " + testModelDirEnv + ")")
		}
	}
	// The service reads topics with its query embedder: int8 compute.
	cfg := embed.DefaultLocalConfig(dir)
	cfg.Compute = embed.ComputeInt8
	emb, err := embed.NewLocal(cfg)
	if err != nil {
		t.Fatalf("local embedder from %s: %v", dir, err)
	}
	defer emb.Close()
	reader := knowledge.NewTopicReader(emb)
	if err := reader.Prepare(t.Context()); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"Which broadband company is the user with?":     "service",
		"Which note-taking app does the user use?":      "service",
		"Which password manager does the user rely on?": "service",
		"We're with BT for broadband.":                  "service",
		"I use Bitwarden for all my passwords.":         "service",
		"Which company does the user work for?":         "work",
		"I'm a pharmacist at a big chain.":              "work",
		"Where has the user settled?":                   "home",
		"What is the user's email?":                     "contact",
		"My email address is jo@example.org.":           "contact",
		"What car is the user driving?":                 "vehicle",
	}
	var texts []string
	for text := range cases {
		texts = append(texts, text)
	}
	vecs, err := emb.Embed(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if got := reader.Read(vecs[i]); got.Topic != cases[text] {
			t.Errorf("%q reads as %q (best %q, %.2f, margin %.2f), want %q", text, got.Topic, got.Best, got.Score, got.Margin, cases[text])
		}
	}
}
