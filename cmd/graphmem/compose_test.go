package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestComposeUsesKnownVariables keeps docker-compose.yml honest: it cannot
// run here (no Docker engine), so this checks that every GRAPHMEM_ variable
// it sets is one the service reads, and that both services have health
// checks and graphmem requires API keys (it listens on all interfaces).
func TestComposeUsesKnownVariables(t *testing.T) {
	raw, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	compose := string(raw)
	known := map[string]bool{}
	for _, f := range configFields(Config{}) {
		known[f.Name] = true
	}
	for _, m := range regexp.MustCompile(`\b(GRAPHMEM_[A-Z_]+)\s*:`).FindAllStringSubmatch(compose, -1) {
		if !known[m[1]] {
			t.Errorf("docker-compose.yml sets %s, which graphmem does not read", m[1])
		}
	}
	for _, want := range []string{"image: neo4j:5.26-community", "GRAPHMEM_API_KEYS: ${GRAPHMEM_API_KEYS:?", "GRAPHMEM_NEO4J_URI: bolt://neo4j:7687", "condition: service_healthy",
		"NEO4J_browser_remote__content__hostname__whitelist: guides.neo4j.com,localhost,127.0.0.1"} {
		if !strings.Contains(compose, want) {
			t.Errorf("docker-compose.yml lacks %q", want)
		}
	}
	// Metrics have their own listener, and its port is never published.
	if !strings.Contains(compose, "GRAPHMEM_METRICS_ADDR: 0.0.0.0:9090") || strings.Contains(compose, `"9090:`) || strings.Contains(compose, ":9090\"") {
		t.Error("docker-compose.yml must serve /metrics on an unpublished listener (GRAPHMEM_METRICS_ADDR: 0.0.0.0:9090, no 9090 in ports)")
	}
	if strings.Count(compose, "healthcheck:") != 2 {
		t.Error("both services need a healthcheck")
	}
	docker, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FROM golang:1.26 AS build", `CMD ["/graphmem", "healthcheck"]`, "./cmd/graphmem"} {
		if !strings.Contains(string(docker), want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	// The build context leaves out local state (the Neo4j jars alone are
	// hundreds of MB), and `make docker` stamps the version.
	ignore, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".neo4j", "bin", "bench/out", ".git", "*.test"} {
		if !slices.Contains(strings.Fields(string(ignore)), want) {
			t.Errorf(".dockerignore lacks %s", want)
		}
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(makefile), "docker build --build-arg VERSION=$(VERSION)") {
		t.Error("make docker does not pass the version to the image build")
	}
}
