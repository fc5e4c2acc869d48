package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/graphmem/graphmem/api/mcp"
	"github.com/graphmem/graphmem/client"
)

// defaultURL is where `graphmem mcp --stdio` finds graphmem when
// GRAPHMEM_URL is unset: `make run`'s address.
const defaultURL = "http://127.0.0.1:8080"

// mcpCommand runs `graphmem mcp --stdio`: MCP on stdin/stdout for desktop
// clients that launch a process (Claude Desktop, Cursor), its tools calling
// a running graphmem over HTTP (GRAPHMEM_URL, GRAPHMEM_API_KEY or
// GRAPHMEM_API_KEY_FILE), never Neo4j: the service stays the one writer.
// It reads none of the server's settings, so it runs wherever the client
// does. Nothing but protocol goes to stdout.
func mcpCommand(ctx context.Context, args []string, getenv func(string) string, stdin io.ReadCloser, stdout io.Writer) error {
	if len(args) != 1 || args[0] != "--stdio" {
		return usageError{"usage: graphmem mcp --stdio   (MCP over stdin/stdout; Streamable HTTP is served at /mcp by graphmem serve)"}
	}
	base := getenv("GRAPHMEM_URL")
	if base == "" {
		base = defaultURL
	}
	key := getenv("GRAPHMEM_API_KEY")
	if file := getenv("GRAPHMEM_API_KEY_FILE"); key == "" && file != "" {
		raw, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("GRAPHMEM_API_KEY_FILE: %w", err)
		}
		key = strings.TrimSpace(string(raw))
	}
	c, err := client.New(base, client.WithAPIKey(key), client.WithRetries(client.DefaultMaxRetries, 5*time.Second),
		client.WithUserAgent("graphmem-mcp-stdio/"+version))
	if err != nil {
		return fmt.Errorf("GRAPHMEM_URL: %w", err)
	}
	return mcp.ServeStdio(ctx, c, version, stdin, nopWriteCloser{stdout})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
