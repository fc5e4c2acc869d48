package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestSecondSignalEndsTheProcess runs itself as a child that shuts down
// slowly after the first SIGINT; the second SIGINT must end it.
func TestSecondSignalEndsTheProcess(t *testing.T) {
	if os.Getenv("GRAPHMEM_TEST_SIGNAL_CHILD") == "1" {
		ctx, stop := signalContext(context.Background())
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("shutting down")
		time.Sleep(30 * time.Second) // a shutdown that hangs
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSignalEndsTheProcess$")
	cmd.Env = append(os.Environ(), "GRAPHMEM_TEST_SIGNAL_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewScanner(out)
	expect := func(want string) {
		t.Helper()
		for lines.Scan() {
			if lines.Text() == want {
				return
			}
		}
		t.Fatalf("child never said %q", want)
	}
	expect("ready")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	expect("shutting down")
	// The handler is released right after ctx is cancelled; give that a moment.
	time.Sleep(100 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("child exited with %v, want killed by SIGINT", err)
		}
		if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
			t.Fatalf("child ended with %v, want killed by SIGINT", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a second SIGINT did not end the process")
	}
}
