package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The harness can measure several graphmem servers in one run (make bench
// starts one with vectors on and one with vectors off), each by name. Every
// retrieval phase runs on each, in the order given, and the report puts
// them side by side. The servers may share one Neo4j: each then has its own
// tenant (an API key), so their memories never mix.

// serverSpec is one server to measure.
type serverSpec struct {
	Name string
	Addr string
	PID  int
	// Key is the API key (from BENCH_API_KEY_<NAME>); empty sends none.
	Key string
}

var serverName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,15}$`)

// namedValues is a repeatable flag of name=value pairs, in order.
type namedValues struct {
	names  []string
	values map[string]string
}

func (n *namedValues) String() string {
	if n == nil {
		return ""
	}
	var parts []string
	for _, k := range n.names {
		parts = append(parts, k+"="+n.values[k])
	}
	return strings.Join(parts, ",")
}

// Set accepts "name=value", or several separated by commas.
func (n *namedValues) Set(s string) error {
	if n.values == nil {
		n.values = map[string]string{}
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok || v == "" {
			return fmt.Errorf("%q: want name=value", item)
		}
		if !serverName.MatchString(k) {
			return fmt.Errorf("%q: a server name is lower-case letters, digits, - and _ (at most 16), starting with a letter", k)
		}
		if _, dup := n.values[k]; dup {
			return fmt.Errorf("%q given twice", k)
		}
		n.names = append(n.names, k)
		n.values[k] = v
	}
	return nil
}

// buildServers combines -server and -server-pid; without -server the
// single server of -addr/-graphmem-pid is named "graphmem". getenv reads
// each server's API key from BENCH_API_KEY_<NAME> (upper case, - as _).
func buildServers(servers, pids namedValues, addr string, pid int, getenv func(string) string) ([]serverSpec, error) {
	if len(servers.names) == 0 {
		return []serverSpec{{Name: "graphmem", Addr: addr, PID: pid, Key: getenv("BENCH_API_KEY")}}, nil
	}
	var out []serverSpec
	for _, name := range servers.names {
		s := serverSpec{Name: name, Addr: strings.TrimRight(servers.values[name], "/"), Key: getenv(keyEnv(name))}
		if !strings.HasPrefix(s.Addr, "http://") && !strings.HasPrefix(s.Addr, "https://") {
			return nil, fmt.Errorf("-server %s=%s: want an http(s) URL", name, s.Addr)
		}
		if v, ok := pids.values[name]; ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("-server-pid %s=%s: want a process id", name, v)
			}
			s.PID = n
		}
		out = append(out, s)
	}
	for _, name := range pids.names {
		if _, ok := servers.values[name]; !ok {
			return nil, fmt.Errorf("-server-pid %s: no -server of that name", name)
		}
	}
	return out, nil
}

// keyEnv is the variable holding a server's API key.
func keyEnv(name string) string {
	return "BENCH_API_KEY_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}
