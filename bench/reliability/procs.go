package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// replica is one `graphmem serve` process the suite starts, kills and
// starts again on the same address.
type replica struct {
	bin, addr, logPath string
	env                []string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

func newReplica(bin, addr, neo4jURI, logPath string, extra ...string) *replica {
	env := os.Environ()
	env = append(env,
		"GRAPHMEM_NEO4J_URI="+neo4jURI,
		"GRAPHMEM_LISTEN_ADDR="+addr,
		"GRAPHMEM_EMBEDDER=off", // the suite is about durability, not vectors; it keeps a run short
		"GRAPHMEM_LOG_FORMAT=json",
		// A dead worker's job comes back after its lease: short, so a run
		// with 20 kills does not wait 20 default leases.
		"GRAPHMEM_JOB_LEASE=5s",
		"GRAPHMEM_JOB_BACKOFF=500ms",
		"GRAPHMEM_SESSION_IDLE_CLOSE=0", // the suite closes every session itself
		"GRAPHMEM_RETENTION_EVERY=0",
	)
	return &replica{bin: bin, addr: addr, logPath: logPath, env: append(env, extra...)}
}

func (r *replica) base() string { return "http://" + r.addr }

// start launches the process; it does not wait for readiness.
func (r *replica) start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	logf, err := os.OpenFile(r.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(r.bin, "serve")
	cmd.Env = r.env
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start graphmem: %w", err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(done)
	}()
	r.cmd, r.done = cmd, done
	return nil
}

// alive reports whether the last started process still runs.
func (r *replica) alive() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done == nil {
		return false
	}
	select {
	case <-r.done:
		return false
	default:
		return true
	}
}

// kill9 sends SIGKILL (no shutdown, no drain: a crash) and reaps the process.
func (r *replica) kill9() {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// stop ends the process cleanly (SIGTERM, which drains), then kills it.
func (r *replica) stop() {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(40 * time.Second):
		r.kill9()
	}
}

// waitReady polls /readyz until 200, restarting the process when it exited
// (graphmem exits when Neo4j is unreachable at its start).
func (r *replica) waitReady(ctx context.Context, timeout time.Duration) (time.Duration, error) {
	started := time.Now()
	client := &http.Client{Timeout: 3 * time.Second}
	for time.Since(started) < timeout {
		if !r.alive() {
			if err := r.start(); err != nil {
				return 0, err
			}
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.base()+"/readyz", nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(started), nil
			}
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	return 0, fmt.Errorf("graphmem on %s not ready after %s (log: %s)", r.addr, timeout, r.logPath)
}

// neo4j restarts the throwaway Neo4j through `graphmem neo4j stop|start`,
// which read the GRAPHMEM_NEO4J_* variables scripts/lib.sh exported.
type neo4j struct {
	bin, home string
}

// stop ends Neo4j: cleanly (SIGTERM, checkpoint) or, when crash is set,
// with SIGKILL, so the next start runs store recovery.
func (n neo4j) stop(crash bool) error {
	if crash {
		raw, err := os.ReadFile(filepath.Join(n.home, "run", "graphmem-neo4j.pid"))
		if err != nil {
			return fmt.Errorf("neo4j pid file: %w", err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
		if err != nil {
			return fmt.Errorf("neo4j pid file: %w", err)
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			return fmt.Errorf("kill neo4j %d: %w", pid, err)
		}
		for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
		return nil
	}
	out, err := exec.Command(n.bin, "neo4j", "stop").CombinedOutput()
	if err != nil {
		return fmt.Errorf("neo4j stop: %w: %s", err, out)
	}
	return nil
}

// start starts Neo4j, trying again (three tries in all) when a start times
// out: on a loaded machine a JVM start can pass the 2 minute limit.
func (n neo4j) start() error {
	var err error
	for range 3 {
		var out []byte
		if out, err = exec.Command(n.bin, "neo4j", "start").CombinedOutput(); err == nil {
			return nil
		}
		err = fmt.Errorf("neo4j start: %w: %s", err, out)
		fmt.Println("reliability: Neo4j did not start; trying again in 15s")
		time.Sleep(15 * time.Second) // the timed-out JVM lets go of its ports
	}
	return err
}
