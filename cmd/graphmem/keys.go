package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/graphmem/graphmem/api"
)

// reloadKeysOnHUP reads the keys file again on every SIGHUP and serves its
// keys from then on, without a restart: keys can be rotated and revoked
// while agents keep their connections. Requests in flight keep the tenant
// they were authenticated with. A file that cannot be read or parsed, or
// that holds no key, changes nothing: the old keys stay and the log says
// why (a half-written file must not lock every client out, nor turn auth
// off).
func reloadKeysOnHUP(ctx context.Context, path string, keys *api.KeyRing, log *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			reloadKeys(path, keys, log)
		}
	}
}

// reloadKeys is one reload; see reloadKeysOnHUP.
func reloadKeys(path string, keys *api.KeyRing, log *slog.Logger) {
	if path == "" {
		log.Warn("SIGHUP: keys not reloaded: they come from GRAPHMEM_API_KEYS, not a file (set GRAPHMEM_API_KEYS_FILE to reload keys)")
		return
	}
	src, err := os.ReadFile(path)
	if err != nil {
		log.Error("SIGHUP: keys not reloaded; the old keys stay", "file", path, "error", err)
		return
	}
	next, err := api.ParseKeys(string(src))
	if err == nil {
		err = keys.Replace(next)
	}
	if err != nil {
		log.Error("SIGHUP: keys not reloaded; the old keys stay", "file", path, "error", err)
		return
	}
	log.Info("SIGHUP: keys reloaded", "file", path, "keys", next.Len(), "read_only", next.ReadOnly())
}
