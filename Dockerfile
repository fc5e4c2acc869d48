# syntax=docker/dockerfile:1
# Multi-stage build: a static graphmem binary on a distroless base.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=docker
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/graphmem ./cmd/graphmem

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/graphmem /graphmem
# In a container graphmem listens on all interfaces, so API keys are required
# (it refuses to start without them); compose passes GRAPHMEM_API_KEYS.
ENV GRAPHMEM_LISTEN_ADDR=0.0.0.0:8080 \
    GRAPHMEM_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 CMD ["/graphmem", "healthcheck"]
ENTRYPOINT ["/graphmem"]
CMD ["serve"]
