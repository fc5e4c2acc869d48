package localneo4j

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOptionsListEveryProblem(t *testing.T) {
	_, err := New(Options{BoltPort: 70000, HTTPPort: 70000, Heap: "lots"})
	if err == nil {
		t.Fatal("invalid options accepted")
	}
	for _, want := range []string{"home folder is required", "lib folder is required", "outside 1-65535", "must differ", `heap "lots"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestConfigIsLoopbackOnlyWithChosenPorts(t *testing.T) {
	home := t.TempDir()
	s, err := New(Options{Home: home, LibDir: filepath.Join(home, "lib"), BoltPort: 17001, HTTPPort: 17002, PageCache: "64m"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.writeConfig(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(home, "conf", "neo4j.conf"))
	if err != nil {
		t.Fatal(err)
	}
	conf := string(raw)
	for _, want := range []string{
		"server.default_listen_address=127.0.0.1",
		"server.bolt.listen_address=127.0.0.1:17001",
		"server.bolt.advertised_address=127.0.0.1:17001",
		"server.http.listen_address=127.0.0.1:17002",
		"server.memory.pagecache.size=64m",
		"dbms.usage_report.enabled=false",
		// Auth is off: only the server's own Browser origin may call it from a web page.
		"dbms.security.http_access_control_allow_origin=http://127.0.0.1:17002",
	} {
		if !strings.Contains(conf, want+"\n") {
			t.Errorf("neo4j.conf lacks %q", want)
		}
	}
	if strings.Contains(conf, "0.0.0.0") {
		t.Error("neo4j.conf must never listen on all interfaces")
	}
	if s.Options().BoltURI() != "bolt://127.0.0.1:17001" {
		t.Errorf("BoltURI = %s", s.Options().BoltURI())
	}
}

func TestStatusIgnoresStalePidFile(t *testing.T) {
	home := t.TempDir()
	s, err := New(Options{Home: home, LibDir: filepath.Join(home, "lib")})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	// pid 1 is alive but is not a Neo4j on this home: never signal it.
	if err := os.WriteFile(s.Options().pidFile(), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st := s.Status(t.Context()); st.Running {
		t.Fatalf("stale pid file reported as running: %+v", st)
	}
	if err := s.Stop(t.Context()); err == nil {
		t.Fatal("Stop on a stale pid file must report not running")
	}
}

func TestJVMFlagsCarryRequiredOpens(t *testing.T) {
	flags := strings.Join(jvmFlags("512m", "/x/tmp"), " ")
	for _, want := range []string{"-Xmx512m", "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "-Djava.io.tmpdir=/x/tmp"} {
		if !strings.Contains(flags, want) {
			t.Errorf("JVM flags lack %s", want)
		}
	}
}

func TestWithoutProcTheManagerRefusesToRun(t *testing.T) {
	home := t.TempDir()
	s, err := New(Options{Home: home, LibDir: filepath.Join(home, "lib"), ProcDir: filepath.Join(home, "no-proc")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Supported(); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Supported = %v, want ErrUnsupported", err)
	}
	if _, err := s.Start(t.Context()); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Start = %v, want ErrUnsupported", err)
	}
	if err := s.Stop(t.Context()); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Stop = %v, want ErrUnsupported", err)
	}
	if s, _ := New(Options{Home: home, LibDir: filepath.Join(home, "lib")}); s.Supported() != nil {
		t.Fatalf("/proc exists here but Supported = %v", s.Supported())
	}
}

// TestConfigAllowsGraphmemsGuide: Neo4j Browser fetches `:play` guides
// only from allowed hosts, so the local server lists graphmem's default
// address and any host it is given, and refuses what is not a host.
func TestConfigAllowsGraphmemsGuide(t *testing.T) {
	home := t.TempDir()
	s, err := New(Options{Home: home, LibDir: filepath.Join(home, "lib"), GuideHosts: []string{"memory.internal", "127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.writeConfig(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(home, "conf", "neo4j.conf"))
	if err != nil {
		t.Fatal(err)
	}
	want := "\nbrowser.remote_content_hostname_whitelist=guides.neo4j.com,localhost,127.0.0.1,memory.internal\n"
	if !strings.Contains(string(raw), want) {
		t.Errorf("neo4j.conf lacks %q", strings.TrimSpace(want))
	}
	_, err = New(Options{Home: home, LibDir: home, GuideHosts: []string{"http://evil/x", "a,b"}})
	if err == nil || !strings.Contains(err.Error(), `guide host "http://evil/x"`) || !strings.Contains(err.Error(), `guide host "a,b"`) {
		t.Errorf("bad guide hosts: %v", err)
	}
}
