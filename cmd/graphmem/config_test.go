package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphmem/graphmem/api"
	"github.com/graphmem/graphmem/graph"
	"github.com/graphmem/graphmem/jobs"
	"github.com/graphmem/graphmem/retrieval"
)

func envOf(kv ...string) (func(string) string, []string) {
	m := map[string]string{}
	var environ []string
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
		environ = append(environ, kv[i]+"="+kv[i+1])
	}
	return func(k string) string { return m[k] }, environ
}

func TestDefaultsAreValid(t *testing.T) {
	getenv, environ := envOf()
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	if cfg.ListenAddr != "127.0.0.1:8080" || !cfg.embedded() || cfg.LLMBaseURL != "" {
		t.Fatalf("defaults = %+v", cfg)
	}
}

// The settings' defaults are written in the env tags (for `graphmem config`
// and the README) and in the packages that apply them when a value is
// zero; they must say the same.
func TestDefaultsMatchThePackagesDefaults(t *testing.T) {
	getenv, environ := envOf()
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"MAX_BODY_BYTES", cfg.MaxBodyBytes, int64(api.DefaultMaxBodyBytes)},
		{"REQUEST_TIMEOUT", cfg.RequestTimeout, api.DefaultRequestTimeout},
		{"JOB_MAX_ATTEMPTS", cfg.JobMaxAttempts, graph.DefaultJobMaxAttempts},
		{"JOB_LEASE", cfg.JobLease, jobs.DefaultLease},
		{"JOB_BACKOFF", cfg.JobBackoff, jobs.DefaultBaseBackoff},
		{"WORKERS", cfg.Workers, jobs.DefaultConcurrency},
		{"SEARCH_*", cfg.searchConfig(), retrieval.DefaultConfig()},
		{"RAW_CACHE_TURNS", cfg.rawCacheTurns(), graph.DefaultRawCacheTurns},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("GRAPHMEM_%s defaults to %v, its package to %v", c.name, c.got, c.want)
		}
	}
}

func TestEveryProblemIsListedAtOnce(t *testing.T) {
	getenv, environ := envOf(
		"GRAPHMEM_LISTEN_ADDR", "nope",
		"GRAPHMEM_LOG_LEVEL", "loud",
		"GRAPHMEM_NEO4J_URI", "http://x",
		"GRAPHMEM_LLM_BASE_URL", "ftp://llm",
		"GRAPHMEM_API_KEYS", "acme:short",
		"GRAPHMEM_EMBEDDING_MODEL", "m", "GRAPHMEM_EMBEDDING_DIMENSIONS", "9000",
	)
	_, err := loadConfig(getenv, environ)
	if err == nil {
		t.Fatal("invalid config accepted")
	}
	for _, want := range []string{"GRAPHMEM_LISTEN_ADDR", "GRAPHMEM_LOG_LEVEL", "GRAPHMEM_NEO4J_URI",
		"GRAPHMEM_LLM_BASE_URL", "GRAPHMEM_API_KEYS", "GRAPHMEM_EMBEDDING_DIMENSIONS", "6 problems"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %s:\n%v", want, err)
		}
	}
}

func TestRequestTimeoutIsCappedAtTheLongRequestDeadline(t *testing.T) {
	getenv, environ := envOf("GRAPHMEM_REQUEST_TIMEOUT", "11m")
	_, err := loadConfig(getenv, environ)
	if err == nil || !strings.Contains(err.Error(), "GRAPHMEM_REQUEST_TIMEOUT: 11m0s exceeds 10m0s") {
		t.Fatalf("error = %v", err)
	}
	getenv, environ = envOf("GRAPHMEM_REQUEST_TIMEOUT", "10m")
	if _, err := loadConfig(getenv, environ); err != nil {
		t.Fatalf("10m refused: %v", err)
	}
}

func TestMetricsAddrNeedsItsOwnAddress(t *testing.T) {
	getenv, environ := envOf("GRAPHMEM_METRICS_ADDR", "127.0.0.1:8080")
	if _, err := loadConfig(getenv, environ); err == nil || !strings.Contains(err.Error(), "GRAPHMEM_METRICS_ADDR") {
		t.Fatalf("metrics on the API address accepted: %v", err)
	}
	getenv, environ = envOf("GRAPHMEM_METRICS_ADDR", "9090")
	if _, err := loadConfig(getenv, environ); err == nil || !strings.Contains(err.Error(), "not host:port") {
		t.Fatalf("bad metrics address accepted: %v", err)
	}
	getenv, environ = envOf("GRAPHMEM_METRICS_ADDR", "0.0.0.0:9090")
	if _, err := loadConfig(getenv, environ); err != nil {
		t.Fatal(err)
	}
}

func TestTypedParseErrorsNameTheVariable(t *testing.T) {
	getenv, environ := envOf("GRAPHMEM_WORKERS", "many")
	_, err := loadConfig(getenv, environ)
	if err == nil || !strings.Contains(err.Error(), "GRAPHMEM_WORKERS") {
		t.Fatalf("error = %v", err)
	}
}

func TestConfigFileAndSecretFiles(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "llm.key")
	if err := os.WriteFile(keyFile, []byte("sk-from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	confFile := filepath.Join(dir, "graphmem.env")
	if err := os.WriteFile(confFile, []byte("GRAPHMEM_WORKERS=7\nGRAPHMEM_LOG_LEVEL=debug\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv, environ := envOf("GRAPHMEM_CONFIG_FILE", confFile, "GRAPHMEM_LOG_LEVEL", "warn",
		"GRAPHMEM_LLM_API_KEY_FILE", keyFile, "GRAPHMEM_LLM_BASE_URL", "http://127.0.0.1:11434/v1")
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Workers != 7 || cfg.LogLevel != "warn" {
		t.Fatalf("file value or env override lost: workers=%d level=%s", cfg.Workers, cfg.LogLevel)
	}
	if cfg.llmAPIKey() != "sk-from-file" {
		t.Fatalf("key from file = %q", cfg.llmAPIKey())
	}
}

func TestSecretsAreMaskedWhenLogged(t *testing.T) {
	getenv, environ := envOf("GRAPHMEM_LLM_API_KEY", "sk-very-secret", "GRAPHMEM_NEO4J_PASSWORD", "hunter2hunter2",
		"GRAPHMEM_API_KEYS", "acme:0123456789abcdef0123")
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("cfg", "config", cfg)
	printConfig(&buf, cfg)
	for _, secret := range []string{"sk-very-secret", "hunter2", "0123456789abcdef0123"} {
		if strings.Contains(buf.String(), secret) {
			t.Fatalf("secret %q leaked: %s", secret, buf.String())
		}
	}
	if !strings.Contains(buf.String(), "********") {
		t.Fatal("no masked value shown")
	}
}

func TestRefusesOpenServiceOnNonLoopback(t *testing.T) {
	getenv, environ := envOf("GRAPHMEM_LISTEN_ADDR", "0.0.0.0:8080", "GRAPHMEM_NEO4J_URI", "bolt://127.0.0.1:1")
	var out bytes.Buffer
	err := run(context.Background(), nil, getenv, environ, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "refusing to serve without API keys") {
		t.Fatalf("run = %v", err)
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "[::1]:80": true, "localhost:1": true,
		"0.0.0.0:8080": false, ":8080": false, "10.1.2.3:80": false} {
		if got := isLoopback(addr); got != want {
			t.Errorf("isLoopback(%q) = %v", addr, got)
		}
	}
}

func TestUnknownCommandIsUsageError(t *testing.T) {
	getenv, environ := envOf()
	err := run(context.Background(), []string{"frobnicate"}, getenv, environ, &bytes.Buffer{}, &bytes.Buffer{})
	var u usageError
	if err == nil || !asUsage(err, &u) {
		t.Fatalf("run(frobnicate) = %v", err)
	}
}

func asUsage(err error, u *usageError) bool {
	v, ok := err.(usageError)
	if ok {
		*u = v
	}
	return ok
}

// TestLateSettingsAreCheckedUpFront covers settings that used to fail only
// after the local Neo4j had started: they are listed with the rest.
func TestLateSettingsAreCheckedUpFront(t *testing.T) {
	dir := t.TempDir()
	profiles := filepath.Join(dir, "profiles.json")
	if err := os.WriteFile(profiles, []byte(`{"tiny": {"type": "noop"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv, environ := envOf(
		"GRAPHMEM_CONDENSER_PROFILE", "huge",
		"GRAPHMEM_CONDENSER_PROFILES_FILE", profiles,
		"GRAPHMEM_EXTRA_FACT_TYPES", "OWNS_BOAT,owns car",
		"GRAPHMEM_NEO4J_HEAP", "lots",
		"GRAPHMEM_NEO4J_PAGECACHE", "1 g",
		"GRAPHMEM_WORKER_TENANTS", "acme,-bad",
	)
	_, err := loadConfig(getenv, environ)
	if err == nil {
		t.Fatal("invalid config accepted")
	}
	for _, want := range []string{`GRAPHMEM_CONDENSER_PROFILE: "huge" is not a profile`, "tiny", `GRAPHMEM_EXTRA_FACT_TYPES: "owns car"`,
		`GRAPHMEM_NEO4J_HEAP: "lots"`, `GRAPHMEM_NEO4J_PAGECACHE: "1 g"`, `GRAPHMEM_WORKER_TENANTS: "-bad"`, "5 problems"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %s:\n%v", want, err)
		}
	}

	// A profile the file defines is accepted; a broken file is reported.
	getenv, environ = envOf("GRAPHMEM_CONDENSER_PROFILE", "tiny", "GRAPHMEM_CONDENSER_PROFILES_FILE", profiles)
	if _, err := loadConfig(getenv, environ); err != nil {
		t.Fatalf("profile from the file refused: %v", err)
	}
	getenv, environ = envOf("GRAPHMEM_CONDENSER_PROFILES_FILE", filepath.Join(dir, "missing.json"))
	if _, err := loadConfig(getenv, environ); err == nil || !strings.Contains(err.Error(), "GRAPHMEM_CONDENSER_PROFILES_FILE:") {
		t.Fatalf("missing profiles file: %v", err)
	}
}

// TestServeBindsBeforeStartingNeo4j: a busy listen address fails at once,
// before the local Neo4j is started (the test points its Bolt port at the
// same busy port, so a start attempt would fail differently).
func TestServeBindsBeforeStartingNeo4j(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	dir := t.TempDir()
	getenv, environ := envOf("GRAPHMEM_LISTEN_ADDR", l.Addr().String(), "GRAPHMEM_NEO4J_BOLT_PORT", port,
		"GRAPHMEM_NEO4J_HOME", filepath.Join(dir, "home"), "GRAPHMEM_NEO4J_LIB", filepath.Join(dir, "lib"))
	var out bytes.Buffer
	err = run(t.Context(), []string{"serve"}, getenv, environ, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "listen on "+l.Addr().String()) {
		t.Fatalf("run = %v", err)
	}
}

func TestSearchWeightsReachTheSearchConfig(t *testing.T) {
	getenv, environ := envOf("GRAPHMEM_SEARCH_WEIGHTS", "text=2,vector=0.1,graph=0.3,recency=0.2",
		"GRAPHMEM_SEARCH_TIER_WEIGHTS", "entity=0.9")
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	sc := cfg.searchConfig()
	if sc.WeightText != 2 || sc.WeightVector != 0.1 || sc.WeightGraph != 0.3 || sc.WeightRecency != 0.2 || sc.TierWeights["entity"] != 0.9 ||
		sc.TierWeights["fact"] != retrieval.DefaultConfig().TierWeights["fact"] {
		t.Fatalf("search config = %+v", sc)
	}
	getenv, environ = envOf("GRAPHMEM_SEARCH_WEIGHTS", "txt=1", "GRAPHMEM_SEARCH_TIER_WEIGHTS", "facts=1")
	_, err = loadConfig(getenv, environ)
	if err == nil || !strings.Contains(err.Error(), "graph, recency, text, vector") || !strings.Contains(err.Error(), "entity, event, fact, insight, raw") {
		t.Fatalf("unknown names: %v", err)
	}
}

// TestJSONLogsDurationsInMilliseconds: a duration reads as milliseconds in
// the JSON log, not as integer nanoseconds, and secrets stay masked.
func TestJSONLogsDurationsInMilliseconds(t *testing.T) {
	var buf bytes.Buffer
	newLogger(&buf, "info", "json").Info("done", "took", 1500*time.Microsecond, "api_key", "sk-very-secret")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line["took_ms"] != 1.5 || line["took"] != nil || strings.Contains(buf.String(), "sk-very-secret") {
		t.Fatalf("log line: %s", buf.String())
	}
}

// TestQueryComputeIsChecked: the local embedder's query side takes int8 or
// fp32, and anything else is refused by name before the model is loaded.
func TestQueryComputeIsChecked(t *testing.T) {
	getenv, environ := envOf("GRAPHMEM_EMBEDDING_QUERY_COMPUTE", "fp16")
	_, err := loadConfig(getenv, environ)
	if err == nil || !strings.Contains(err.Error(), "GRAPHMEM_EMBEDDING_QUERY_COMPUTE") {
		t.Fatalf("fp16 query compute: error %v, want one naming GRAPHMEM_EMBEDDING_QUERY_COMPUTE", err)
	}
	getenv, environ = envOf("GRAPHMEM_EMBEDDING_QUERY_COMPUTE", "fp32")
	if _, err := loadConfig(getenv, environ); err != nil {
		t.Fatalf("fp32 query compute refused: %v", err)
	}
}

// TestRawCacheTurns: 0 turns the raw turn cache off (graph.Config reads 0
// as its default, a negative size as off); a size out of range is refused
// naming the variable.
func TestRawCacheTurns(t *testing.T) {
	getenv, environ := envOf("GRAPHMEM_RAW_CACHE_TURNS", "0")
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.rawCacheTurns(); got >= 0 {
		t.Errorf("RAW_CACHE_TURNS=0 gives graph.Config.RawCacheTurns %d, want a negative size (off)", got)
	}
	getenv, environ = envOf("GRAPHMEM_RAW_CACHE_TURNS", "-5")
	if _, err := loadConfig(getenv, environ); err == nil || !strings.Contains(err.Error(), "GRAPHMEM_RAW_CACHE_TURNS") {
		t.Fatalf("a negative size: error %v, want one naming GRAPHMEM_RAW_CACHE_TURNS", err)
	}
}
