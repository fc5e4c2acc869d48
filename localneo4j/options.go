package localneo4j

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Defaults for a server that shares two cores with graphmem and its tests.
const (
	DefaultVersion        = "5.26.29"
	DefaultBrowserVersion = "5.24.0" // the last Browser published on Maven Central
	DefaultBoltPort       = 7687
	DefaultHTTPPort       = 7474
	DefaultHeap           = "1g"
	DefaultPageCache      = "512m"
	DefaultStartTimeout   = 120 * time.Second
	// DefaultStopTimeout bounds a clean shutdown; Neo4j checkpoints on
	// SIGTERM, which takes 10-15 s on a small store.
	DefaultStopTimeout = 90 * time.Second
)

// Options describe one local server. The zero value of a field means its
// default; Home and LibDir are required.
type Options struct {
	Home           string // conf, data, logs and run folders of this server
	LibDir         string // the fetched jars, shared by every Home
	Version        string // Neo4j version on Maven Central
	BrowserVersion string // Neo4j Browser version on Maven Central
	BoltPort       int
	HTTPPort       int
	Heap           string // JVM heap, e.g. "512m", "1g"
	PageCache      string // page cache, e.g. "256m"
	JavaBin        string // java executable; default $JAVA_HOME/bin/java or "java"
	MavenBin       string // mvn executable; default "mvn"
	StartTimeout   time.Duration
	StopTimeout    time.Duration
	// GuideHosts are hosts Neo4j Browser may fetch `:play` guides and
	// `:style` files from, besides guides.neo4j.com, localhost and
	// 127.0.0.1 (where graphmem serves its guide by default): graphmem's
	// own host when it listens on another address.
	GuideHosts []string
	// ProcDir is the proc filesystem that identifies the server's process
	// (pid files alone cannot tell a recycled pid apart); default /proc.
	ProcDir string
	// Progress receives human-readable progress lines (fetching, starting,
	// waiting). Nil discards them.
	Progress io.Writer
	Log      *slog.Logger
}

var (
	sizePattern = regexp.MustCompile(`^[0-9]+[kmgKMG]?$`)
	hostPattern = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$`)
)

// defaultGuideHosts are always allowed: Neo4j's own default
// (guides.neo4j.com, localhost) and graphmem's default address.
var defaultGuideHosts = []string{"guides.neo4j.com", "localhost", "127.0.0.1"}

// guideHostList is the value of browser.remote_content_hostname_whitelist.
func (o Options) guideHostList() string {
	hosts := slices.Clone(defaultGuideHosts)
	for _, h := range o.GuideHosts {
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return strings.Join(hosts, ",")
}

// ValidSize reports whether s is a memory size the server accepts (512m,
// 1g), so callers can check their settings before anything starts.
func ValidSize(s string) bool { return sizePattern.MatchString(s) }

// withDefaults fills unset fields and validates the rest, listing every
// problem at once.
func (o Options) withDefaults() (Options, error) {
	var errs []error
	if o.Home == "" {
		errs = append(errs, errors.New("home folder is required"))
	}
	if o.LibDir == "" {
		errs = append(errs, errors.New("lib folder is required"))
	}
	if o.Version == "" {
		o.Version = DefaultVersion
	}
	if o.BrowserVersion == "" {
		o.BrowserVersion = DefaultBrowserVersion
	}
	if o.BoltPort == 0 {
		o.BoltPort = DefaultBoltPort
	}
	if o.HTTPPort == 0 {
		o.HTTPPort = DefaultHTTPPort
	}
	if o.Heap == "" {
		o.Heap = DefaultHeap
	}
	if o.PageCache == "" {
		o.PageCache = DefaultPageCache
	}
	if o.MavenBin == "" {
		o.MavenBin = "mvn"
	}
	if o.ProcDir == "" {
		o.ProcDir = "/proc"
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.StopTimeout <= 0 {
		o.StopTimeout = DefaultStopTimeout
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	for name, port := range map[string]int{"bolt port": o.BoltPort, "http port": o.HTTPPort} {
		if port < 1 || port > 65535 {
			errs = append(errs, fmt.Errorf("%s %d is outside 1-65535", name, port))
		}
	}
	if o.BoltPort == o.HTTPPort {
		errs = append(errs, fmt.Errorf("bolt and http ports must differ (both %d)", o.BoltPort))
	}
	for name, v := range map[string]string{"heap": o.Heap, "page cache": o.PageCache} {
		if !ValidSize(v) {
			errs = append(errs, fmt.Errorf("%s %q must look like 512m or 1g", name, v))
		}
	}
	for _, h := range o.GuideHosts {
		if !hostPattern.MatchString(h) {
			errs = append(errs, fmt.Errorf("guide host %q must be a host name or IPv4 address (no scheme, port or path)", h))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return o, fmt.Errorf("local neo4j options: %w", err)
	}
	if abs, err := filepath.Abs(o.Home); err == nil {
		o.Home = abs
	}
	if abs, err := filepath.Abs(o.LibDir); err == nil {
		o.LibDir = abs
	}
	return o, nil
}

// BoltURI is the driver URI of the server.
func (o Options) BoltURI() string { return fmt.Sprintf("bolt://127.0.0.1:%d", o.BoltPort) }

// HTTPURL is the base URL of the HTTP API and Browser.
func (o Options) HTTPURL() string { return fmt.Sprintf("http://127.0.0.1:%d", o.HTTPPort) }

func (o Options) pidFile() string   { return filepath.Join(o.Home, "run", "graphmem-neo4j.pid") }
func (o Options) logDir() string    { return filepath.Join(o.Home, "logs") }
func (o Options) confDir() string   { return filepath.Join(o.Home, "conf") }
func (o Options) stdoutLog() string { return filepath.Join(o.logDir(), "stdout.log") }

// NeoLog is the server's main log file, where users look when it fails.
func (o Options) NeoLog() string { return filepath.Join(o.logDir(), "neo4j.log") }
