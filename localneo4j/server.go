package localneo4j

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"text/template"
	"time"
)

//go:embed neo4j.conf.tmpl
var confTemplate string

// Sentinel errors of the server lifecycle.
var (
	// ErrAlreadyRunning means a server already runs on this Home.
	ErrAlreadyRunning = errors.New("local neo4j already running")
	// ErrNotRunning means Stop found no server on this Home.
	ErrNotRunning = errors.New("local neo4j not running")
	// ErrPortInUse means another process holds a port the server needs.
	ErrPortInUse = errors.New("port in use")
	// ErrStartFailed means the JVM exited or never became ready.
	ErrStartFailed = errors.New("local neo4j failed to start")
	// ErrUnsupported means this machine has no /proc (not Linux): the
	// manager could not tell its server from a recycled pid, so it would
	// start duplicates and never stop them.
	ErrUnsupported = errors.New("the local Neo4j manager needs Linux (/proc)")
)

// Status describes a Home's server as seen from outside.
type Status struct {
	Running bool
	PID     int
	BoltURI string
	HTTPURL string
	Version string // from the discovery document, when reachable
	Home    string
	Log     string
}

// Server manages one local Neo4j on one Home.
type Server struct {
	o Options
}

// New validates the options and returns a manager for that Home. It does
// not touch the disk.
func New(o Options) (*Server, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Server{o: o}, nil
}

// Options returns the effective options, defaults applied.
func (s *Server) Options() Options { return s.o }

// Supported reports ErrUnsupported when the proc filesystem is missing;
// Start and Stop refuse to run without it.
func (s *Server) Supported() error {
	if _, err := os.Stat(filepath.Join(s.o.ProcDir, "self", "cmdline")); err != nil {
		return fmt.Errorf("%w: %s is not available on this machine, so the server's process cannot be identified", ErrUnsupported, s.o.ProcDir)
	}
	return nil
}

// Start fetches the jars when missing, writes the configuration, starts the
// JVM detached from the caller's terminal (so Ctrl-C reaches graphmem, which
// then stops the server in order), and waits until the database answers.
// A server already running on this Home yields ErrAlreadyRunning and its pid.
func (s *Server) Start(ctx context.Context) (Status, error) {
	o := s.o
	if err := s.Supported(); err != nil {
		return Status{}, err
	}
	if st := s.Status(ctx); st.Running {
		return st, fmt.Errorf("%w on %s (pid %d, bolt %s); stop it with `graphmem neo4j stop` or reuse it",
			ErrAlreadyRunning, o.Home, st.PID, st.BoltURI)
	}
	for _, port := range []int{o.BoltPort, o.HTTPPort} {
		if portOpen(port) {
			return Status{}, fmt.Errorf("%w: 127.0.0.1:%d is taken by another process; free it, choose other ports (GRAPHMEM_NEO4J_BOLT_PORT / GRAPHMEM_NEO4J_HTTP_PORT), or point GRAPHMEM_NEO4J_URI at that server",
				ErrPortInUse, port)
		}
	}
	java, err := s.checkJava(ctx)
	if err != nil {
		return Status{}, err
	}
	if err := EnsureJars(ctx, o); err != nil {
		return Status{}, err
	}
	if err := s.writeConfig(); err != nil {
		return Status{}, err
	}
	stdout, err := os.OpenFile(o.stdoutLog(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return Status{}, fmt.Errorf("open %s: %w", o.stdoutLog(), err)
	}
	defer stdout.Close()

	tmp := filepath.Join(o.Home, "tmp")
	args := append(jvmFlags(o.Heap, tmp),
		"-cp", filepath.Join(o.LibDir, "*"),
		"org.neo4j.server.CommunityEntryPoint",
		"--home-dir="+o.Home, "--config-dir="+o.confDir())
	// Not CommandContext: the server must outlive a cancelled start request
	// when the caller wants it detached; Stop ends it.
	cmd := exec.Command(java, args...)
	cmd.Dir = o.Home
	cmd.Stdout, cmd.Stderr = stdout, stdout
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	fmt.Fprintf(o.Progress, "neo4j: starting Neo4j %s on %s (logs: %s)\n", o.Version, o.BoltURI(), o.NeoLog())
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return Status{}, fmt.Errorf("%w: start java: %v", ErrStartFailed, err)
	}
	pid := cmd.Process.Pid
	if err := os.WriteFile(o.pidFile(), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
		_ = cmd.Process.Kill()
		return Status{}, fmt.Errorf("write pid file: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	if err := s.waitReady(ctx, exited); err != nil {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = os.Remove(o.pidFile())
		return Status{}, fmt.Errorf("%w: %v\n--- last lines of %s ---\n%s", ErrStartFailed, err, o.NeoLog(), s.logTail(15))
	}
	fmt.Fprintf(o.Progress, "neo4j: ready in %.1fs; Browser at %s/browser/\n", time.Since(started).Seconds(), o.HTTPURL())
	return s.Status(ctx), nil
}

// Stop sends SIGTERM, which makes Neo4j checkpoint and shut down cleanly,
// and waits for the process to exit; after StopTimeout it kills it.
func (s *Server) Stop(ctx context.Context) error {
	o := s.o
	if err := s.Supported(); err != nil {
		return err
	}
	st := s.Status(ctx)
	if !st.Running {
		_ = os.Remove(o.pidFile())
		return fmt.Errorf("%w on %s", ErrNotRunning, o.Home)
	}
	proc, err := os.FindProcess(st.PID)
	if err != nil {
		return fmt.Errorf("find pid %d: %w", st.PID, err)
	}
	fmt.Fprintf(o.Progress, "neo4j: stopping pid %d (clean shutdown)...\n", st.PID)
	if err := proc.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("signal pid %d: %w", st.PID, err)
	}
	deadline := time.Now().Add(o.StopTimeout)
	for isOurProcess(o.ProcDir, st.PID, o.Home) {
		if time.Now().After(deadline) {
			o.Log.Warn("neo4j did not stop in time; killing it (next start runs recovery)", "pid", st.PID)
			_ = proc.Signal(syscall.SIGKILL)
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for neo4j to stop: %w", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	_ = os.Remove(o.pidFile())
	fmt.Fprintln(o.Progress, "neo4j: stopped")
	return nil
}

// Running is Status without asking the server anything: the pid file and
// the process table only, cheap enough to poll.
func (s *Server) Running() (pid int, ok bool) {
	raw, err := os.ReadFile(s.o.pidFile())
	if err != nil {
		return 0, false
	}
	pid, err = strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil || !isOurProcess(s.o.ProcDir, pid, s.o.Home) {
		return 0, false
	}
	return pid, true
}

// Status reports whether this Home's server runs, from its pid file and the
// process table (a stale pid file after a crash counts as not running).
func (s *Server) Status(ctx context.Context) Status {
	o := s.o
	st := Status{BoltURI: o.BoltURI(), HTTPURL: o.HTTPURL(), Home: o.Home, Log: o.NeoLog()}
	pid, ok := s.Running()
	if !ok {
		return st
	}
	st.Running, st.PID = true, pid
	if d, err := discover(ctx, o.HTTPURL()); err == nil {
		st.Version = d.Version
	}
	return st
}

func (s *Server) writeConfig() error {
	o := s.o
	for _, dir := range []string{"conf", "data", "logs", "plugins", "import", "run", "tmp"} {
		if err := os.MkdirAll(filepath.Join(o.Home, dir), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	var conf bytes.Buffer
	data := struct {
		Options
		TxMemory, GuideHostList string
	}{o, "512m", o.guideHostList()}
	if err := template.Must(template.New("conf").Parse(confTemplate)).Execute(&conf, data); err != nil {
		return fmt.Errorf("render neo4j.conf: %w", err)
	}
	if err := os.WriteFile(filepath.Join(o.confDir(), "neo4j.conf"), conf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write neo4j.conf: %w", err)
	}
	return nil
}

var javaVersionPattern = regexp.MustCompile(`version "(\d+)`)

// checkJava finds java and insists on 17 or 21, the only JDKs Neo4j 5.26
// supports, so a wrong JDK fails with advice rather than a stack trace.
func (s *Server) checkJava(ctx context.Context) (string, error) {
	java := s.o.JavaBin
	if java == "" {
		java = "java"
		if home := os.Getenv("JAVA_HOME"); home != "" {
			java = filepath.Join(home, "bin", "java")
		}
	}
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: Neo4j needs Java 17 or 21 (%s -version failed: %v); install OpenJDK 17 (apt-get install openjdk-17-jre-headless) or set JAVA_HOME",
			ErrMissingTool, java, err)
	}
	m := javaVersionPattern.FindSubmatch(out)
	if m == nil {
		return java, nil // unknown format: let the JVM speak for itself
	}
	if v, _ := strconv.Atoi(string(m[1])); v != 17 && v != 21 {
		return "", fmt.Errorf("%w: Neo4j 5.26 runs on Java 17 or 21, found Java %d; set JAVA_HOME to a JDK 17 or 21", ErrMissingTool, v)
	}
	return java, nil
}

// waitReady polls the HTTP API until the discovery document answers and a
// Cypher statement runs on the default database.
func (s *Server) waitReady(ctx context.Context, exited <-chan error) error {
	o := s.o
	ctx, cancel := context.WithTimeout(ctx, o.StartTimeout)
	defer cancel()
	lastNote := time.Now()
	for {
		if _, err := discover(ctx, o.HTTPURL()); err == nil && runCypher(ctx, o.HTTPURL(), "RETURN 1") == nil {
			return nil
		}
		select {
		case err := <-exited:
			return fmt.Errorf("the JVM exited during startup (%v)", err)
		case <-ctx.Done():
			return fmt.Errorf("not ready after %s: %w", o.StartTimeout, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
		if time.Since(lastNote) > 10*time.Second {
			fmt.Fprintln(o.Progress, "neo4j: still starting...")
			lastNote = time.Now()
		}
	}
}

func (s *Server) logTail(n int) string {
	for _, f := range []string{s.o.NeoLog(), s.o.stdoutLog()} {
		b, err := os.ReadFile(f)
		if err != nil || len(b) == 0 {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		if len(lines) > n {
			lines = lines[len(lines)-n:]
		}
		return strings.Join(lines, "\n")
	}
	return "(no log output)"
}

// jvmFlags are the flags Neo4j's own launcher passes on Java 17, minus
// AlwaysPreTouch (it slows startup for no benefit on a dev machine).
func jvmFlags(heap, tmp string) []string {
	return []string{
		"-Xms" + heap, "-Xmx" + heap,
		"-XX:+UseG1GC", "-XX:-OmitStackTraceInFastThrow",
		"-XX:+UnlockExperimentalVMOptions", "-XX:+TrustFinalNonStaticFields", "-XX:+DisableExplicitGC",
		"-Djdk.nio.maxCachedBufferSize=1024", "-Dio.netty.tryReflectionSetAccessible=true",
		"-Djdk.tls.ephemeralDHKeySize=2048", "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
		"--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
		"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
		"-Dlog4j2.disable.jmx=true", "-Dfile.encoding=UTF-8",
		"-Djava.io.tmpdir=" + tmp, "-Djna.tmpdir=" + tmp,
	}
}

// isOurProcess checks that pid is alive and is a Neo4j started on this Home,
// so a recycled pid from a crashed run is never signalled.
func isOurProcess(procDir string, pid int, home string) bool {
	if pid <= 0 {
		return false
	}
	cmdline, err := os.ReadFile(filepath.Join(procDir, strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return false
	}
	if stat, err := os.ReadFile(filepath.Join(procDir, strconv.Itoa(pid), "stat")); err == nil {
		// A zombie (exited, not yet reaped) is not running.
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			return false
		}
	}
	s := string(cmdline)
	return strings.Contains(s, "CommunityEntryPoint") && strings.Contains(s, "--home-dir="+home+"\x00")
}

func portOpen(port int) bool {
	conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 300*time.Millisecond)
	if err != nil {
		return false
	}
	_ = conn.Close()
	return true
}

type discovery struct {
	Version string `json:"neo4j_version"`
	Bolt    string `json:"bolt_direct"`
}

func discover(ctx context.Context, base string) (discovery, error) {
	var d discovery
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/", nil)
	if err != nil {
		return d, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return d, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return d, fmt.Errorf("discovery: HTTP %d", resp.StatusCode)
	}
	err = json.NewDecoder(resp.Body).Decode(&d)
	return d, err
}

// runCypher runs one statement through the HTTP transaction API; it is how
// readiness is probed without the Bolt driver (which only graph/ imports).
func runCypher(ctx context.Context, base, statement string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	body, _ := json.Marshal(map[string]any{"statements": []map[string]string{{"statement": statement}}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/db/neo4j/tx/commit", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		Errors []struct{ Code, Message string } `json:"errors"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("cypher: HTTP %d", resp.StatusCode)
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return err
	}
	if len(out.Errors) > 0 {
		return fmt.Errorf("cypher: %s: %s", out.Errors[0].Code, out.Errors[0].Message)
	}
	return nil
}
