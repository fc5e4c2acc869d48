package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/graphmem/graphmem/localneo4j"
)

// localServer describes the local Neo4j from the configuration.
func localServer(cfg Config, progress io.Writer, log *slog.Logger) (*localneo4j.Server, error) {
	return localneo4j.New(localneo4j.Options{
		Home: cfg.Neo4jHome, LibDir: cfg.Neo4jLib, Version: cfg.Neo4jVersion,
		BoltPort: cfg.Neo4jBoltPort, HTTPPort: cfg.Neo4jHTTPPort,
		Heap: cfg.Neo4jHeap, PageCache: cfg.Neo4jPageCache,
		GuideHosts: guideHosts(cfg.ListenAddr),
		Progress:   progress, Log: log,
	})
}

// guideHosts is graphmem's own host, which Neo4j Browser must be allowed
// to fetch the guide from, when it is not one the local server always
// allows (loopback) and is a name Browser can reach (not 0.0.0.0).
func guideHosts(listenAddr string) []string {
	host, _, err := net.SplitHostPort(listenAddr)
	if err != nil || host == "" || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsUnspecified() || ip.To4() == nil) {
		return nil
	}
	return []string{host}
}

// neo4jCommand implements `graphmem neo4j start|stop|status|fetch`. start
// leaves the server running in the background (data kept in
// GRAPHMEM_NEO4J_HOME); serve reuses a server started this way.
func neo4jCommand(ctx context.Context, cfg Config, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return usageError{"usage: graphmem neo4j start|stop|status|fetch"}
	}
	srv, err := localServer(cfg, stdout, slog.New(slog.NewTextHandler(stdout, nil)))
	if err != nil {
		return err
	}
	switch args[0] {
	case "start":
		st, err := srv.Start(ctx)
		if errors.Is(err, localneo4j.ErrAlreadyRunning) {
			fmt.Fprintf(stdout, "neo4j: already running (pid %d) at %s; nothing to do\n", st.PID, st.BoltURI)
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "neo4j: running (pid %d)\n  bolt:    %s\n  browser: %s/browser/\n  logs:    %s\n  stop:    graphmem neo4j stop\n",
			st.PID, st.BoltURI, st.HTTPURL, st.Log)
		return nil
	case "stop":
		return srv.Stop(ctx)
	case "status":
		st := srv.Status(ctx)
		if !st.Running {
			fmt.Fprintf(stdout, "neo4j: not running (home %s)\n", st.Home)
			return nil
		}
		fmt.Fprintf(stdout, "neo4j: running (pid %d, version %s)\n  bolt:    %s\n  browser: %s/browser/\n  logs:    %s\n",
			st.PID, st.Version, st.BoltURI, st.HTTPURL, st.Log)
		return nil
	case "fetch":
		return localneo4j.EnsureJars(ctx, srv.Options())
	default:
		return usageError{fmt.Sprintf("unknown neo4j command %q; use start, stop, status or fetch", args[0])}
	}
}
