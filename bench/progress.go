package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// progress prints timestamped lines so a long run shows it is alive.
type progress struct {
	mu     *sync.Mutex
	w      io.Writer
	start  time.Time
	tick   time.Duration
	prefix string
}

func newProgress(w io.Writer, tick time.Duration) *progress {
	return &progress{mu: &sync.Mutex{}, w: w, start: time.Now(), tick: tick}
}

// named returns a progress whose lines start with [name], sharing the
// writer and clock.
func (p *progress) named(name string) *progress {
	return &progress{mu: p.mu, w: p.w, start: p.start, tick: p.tick, prefix: "[" + name + "] "}
}

func (p *progress) Printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "  [%6.1fs] %s%s\n", time.Since(p.start).Seconds(), p.prefix, fmt.Sprintf(format, args...))
}

// every prints label: status() every tick until the returned stop is
// called (stop may be called more than once).
func (p *progress) every(label string, status func() string) (stop func()) {
	done := make(chan struct{})
	var once sync.Once
	go func() {
		t := time.NewTicker(p.tick)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.Printf("%s: %s", label, status())
			}
		}
	}()
	return func() { once.Do(func() { close(done) }) }
}

// procMem is the memory of a process from /proc/<pid>/status: VmHWM is
// the peak resident set since it started, VmRSS the current one.
type procMem struct {
	PID       int     `json:"pid"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
	RSSMB     float64 `json:"rss_mb"`
}

func readProcMem(pid int) (procMem, error) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return procMem{PID: pid}, err
	}
	return parseProcStatus(pid, string(raw)), nil
}

func parseProcStatus(pid int, status string) procMem {
	m := procMem{PID: pid}
	for _, line := range strings.Split(status, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		switch k {
		case "VmHWM":
			m.PeakRSSMB = round4(kb / 1024)
		case "VmRSS":
			m.RSSMB = round4(kb / 1024)
		}
	}
	return m
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat CPU times; it is 100
// on every Linux architecture Go supports.
const clockTicks = 100

// cpuSeconds returns the user+system CPU time a process has used.
func cpuSeconds(pid int) (float64, bool) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStatCPU(string(raw))
}

// parseStatCPU reads utime and stime (fields 14 and 15) from a stat line;
// the command name in parentheses may hold spaces, so fields are counted
// after its closing parenthesis.
func parseStatCPU(stat string) (float64, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseFloat(f[11], 64)
	s, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return (u + s) / clockTicks, true
}

// cpuProbe measures the CPU time graphmem and Neo4j spend over a span, so
// a latency or throughput figure says where the time went.
type cpuProbe map[string]int

type cpuMark map[string]float64

// jitSuffix names the part of a JVM's CPU its JIT compiler threads spent
// ("neo4j" + jitSuffix), measured per thread beside the process total. On
// a freshly started Neo4j, HotSpot's compilers take a large share of its
// CPU for many minutes (docs/pipeline.md), and that share is the JVM
// warming up, not the work a statement costs once warm.
const jitSuffix = "_jit"

func (p cpuProbe) mark() cpuMark {
	m := cpuMark{}
	for name, pid := range p {
		if pid > 0 {
			if v, ok := cpuSeconds(pid); ok {
				m[name] = v
			}
			if name == "neo4j" {
				if v, ok := jitSeconds(pid); ok {
					m[name+jitSuffix] = v
				}
			}
		}
	}
	return m
}

// jitSeconds sums the CPU time of a JVM's JIT compiler threads, which
// HotSpot names "C1 CompilerThread<n>" and "C2 CompilerThread<n>" (cut to
// 15 bytes by Linux). Threads that ended since are not counted, so a
// compiler thread HotSpot retired within a span (it adds and removes them
// with the queue's length) takes its time with it: the figure is a lower
// bound.
func jitSeconds(pid int) (float64, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, false
	}
	total := 0.0
	for _, t := range tasks {
		raw, err := os.ReadFile(dir + "/" + t.Name() + "/stat")
		if err != nil {
			continue // the thread ended meanwhile
		}
		if !isCompilerThread(string(raw)) {
			continue
		}
		if v, ok := parseStatCPU(string(raw)); ok {
			total += v
		}
	}
	return total, true
}

// isCompilerThread reports whether a task's stat line names a HotSpot JIT
// compiler thread.
func isCompilerThread(stat string) bool {
	i, j := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
	if i < 0 || j < i {
		return false
	}
	name := stat[i+1 : j]
	return strings.HasPrefix(name, "C1 CompilerThre") || strings.HasPrefix(name, "C2 CompilerThre")
}

// perUnit returns the CPU milliseconds each process spent per unit of work
// since start (nil when nothing was measured).
func (p cpuProbe) perUnit(start cpuMark, units int) map[string]float64 {
	if units <= 0 || len(start) == 0 {
		return nil
	}
	end := p.mark()
	out := map[string]float64{}
	for name, v := range start {
		if e, ok := end[name]; ok {
			out[name] = round4((e - v) * 1000 / float64(units))
		}
	}
	return out
}
