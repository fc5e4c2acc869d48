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
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	tick  time.Duration
}

func newProgress(w io.Writer, tick time.Duration) *progress {
	return &progress{w: w, start: time.Now(), tick: tick}
}

func (p *progress) Printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "  [%6.1fs] %s\n", time.Since(p.start).Seconds(), fmt.Sprintf(format, args...))
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
