//go:build integration

package main

import (
	"bufio"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// cdp drives a headless Chromium over the DevTools protocol: just enough
// (one page, evaluate, type, screenshot) to use Neo4j Browser as a person
// would. The WebSocket client is a minimal RFC 6455 one (text frames,
// client masking, no extensions), so the test needs no new module.
type cdp struct {
	t    *testing.T
	conn net.Conn
	rd   *bufio.Reader
	mu   sync.Mutex
	next int
}

// startChromium launches Chromium headless with remote debugging on a free
// port and connects to its first page.
func startChromium(t *testing.T, chromium string) *cdp {
	t.Helper()
	// Not t.TempDir: Chromium's helpers may still write there for a moment
	// after it ends, which would fail the test's own cleanup.
	dir, err := os.MkdirTemp("", "graphmem-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--remote-debugging-port=0", "--remote-allow-origins=*", "--user-data-dir="+dir, "--window-size=1600,1000",
		"--hide-scrollbars", "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its helpers end with it
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		time.Sleep(200 * time.Millisecond)
		_ = os.RemoveAll(dir)
	})
	var port string
	for deadline := time.Now().Add(30 * time.Second); ; {
		raw, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
		if lines := strings.Split(string(raw), "\n"); err == nil && len(lines) > 1 && lines[0] != "" {
			port = lines[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("chromium did not open its DevTools port")
		}
		time.Sleep(100 * time.Millisecond)
	}
	resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var targets []struct {
		Type string `json:"type"`
		WS   string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	for _, tg := range targets {
		if tg.Type == "page" {
			c := &cdp{t: t}
			c.dial(tg.WS)
			t.Cleanup(func() { _ = c.conn.Close() })
			return c
		}
	}
	t.Fatalf("chromium has no page: %+v", targets)
	return nil
}

func (c *cdp) dial(wsURL string) {
	u, err := url.Parse(wsURL)
	if err != nil {
		c.t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		c.t.Fatal(err)
	}
	var key [16]byte
	_, _ = rand.Read(key[:])
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
		u.RequestURI(), u.Host, base64.StdEncoding.EncodeToString(key[:]))
	rd := bufio.NewReaderSize(conn, 1<<16)
	resp, err := http.ReadResponse(rd, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		c.t.Fatalf("websocket handshake: %v %v", err, resp)
	}
	c.conn, c.rd = conn, rd
}

func (c *cdp) writeText(payload []byte) error {
	hdr := []byte{0x81}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	_, _ = rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	masked := make([]byte, len(payload))
	for i, b := range payload {
		masked[i] = b ^ mask[i%4]
	}
	_, err := c.conn.Write(append(hdr, masked...))
	return err
}

// readMessage reads one whole text message (continuation frames joined;
// control frames skipped).
func (c *cdp) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(c.rd, h[:]); err != nil {
			return nil, err
		}
		fin, op, n := h[0]&0x80 != 0, h[0]&0x0f, uint64(h[1]&0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(c.rd, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(c.rd, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(c.rd, body); err != nil {
			return nil, err
		}
		switch op {
		case 0x8:
			return nil, errors.New("websocket closed")
		case 0x9, 0xA:
			continue
		}
		msg = append(msg, body...)
		if fin {
			return msg, nil
		}
	}
}

// call sends one command and returns its result, skipping events.
func (c *cdp) call(method string, params map[string]any) json.RawMessage {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	id := c.next
	raw, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	_ = c.conn.SetDeadline(time.Now().Add(60 * time.Second))
	if err := c.writeText(raw); err != nil {
		c.t.Fatalf("cdp %s: %v", method, err)
	}
	for {
		msg, err := c.readMessage()
		if err != nil {
			c.t.Fatalf("cdp %s: %v", method, err)
		}
		var r struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(msg, &r) != nil || r.ID != id {
			continue
		}
		if r.Error != nil {
			c.t.Fatalf("cdp %s: %s", method, r.Error.Message)
		}
		return r.Result
	}
}

// eval evaluates a JavaScript expression in the page and returns its value
// as JSON.
func (c *cdp) eval(expr string) json.RawMessage {
	c.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
	}
	_ = json.Unmarshal(c.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}), &r)
	return r.Result.Value
}

// waitFor polls a boolean JavaScript expression until it holds.
func (c *cdp) waitFor(what, expr string, timeout time.Duration) {
	c.t.Helper()
	for deadline := time.Now().Add(timeout); ; {
		if string(c.eval(expr)) == "true" {
			return
		}
		if time.Now().After(deadline) {
			shot := filepath.Join(c.t.TempDir(), "timeout.png")
			if dst := os.Getenv("GRAPHMEM_TEST_SCREENSHOTS"); dst != "" {
				shot = filepath.Join(dst, "timeout.png")
			}
			c.screenshot(shot)
			c.t.Fatalf("timed out waiting for %s (screenshot %s); the page says: %.1500s", what, shot, c.eval(`document.body.innerText`))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// press sends one key (Enter) to the focused element.
func (c *cdp) press(key string, code int) {
	for _, typ := range []string{"keyDown", "keyUp"} {
		c.call("Input.dispatchKeyEvent", map[string]any{"type": typ, "key": key, "code": key,
			"windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code})
	}
}

// screenshot saves the page as a PNG and returns its size.
func (c *cdp) screenshot(path string) int {
	c.t.Helper()
	var r struct {
		Data string `json:"data"`
	}
	_ = json.Unmarshal(c.call("Page.captureScreenshot", map[string]any{"format": "png"}), &r)
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		c.t.Fatal(err)
	}
	return len(png)
}
