package main

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/internal/loopback"
)

// stderrOf runs fn with os.Stderr captured and returns what it wrote.
func stderrOf(t *testing.T, fn func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	out := make(chan string)
	go func() { b, _ := io.ReadAll(r); out <- string(b) }()
	defer func() { os.Stderr = old }()
	fn()
	w.Close()
	return <-out
}

// ndb-infer --listen follows ndb's one loopback rule: an address beyond this
// machine is refused (a usage error naming --allow-remote) unless the flag is
// given, and then the server warns on stderr what anyone who connects can do.
func TestListenBeyondLoopbackNeedsAllowRemote(t *testing.T) {
	var err error
	msg := stderrOf(t, func() { err = runServe(context.Background(), []string{"--listen", "0.0.0.0:0"}) })
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), loopback.Flag) || !strings.Contains(err.Error(), "model server") {
		t.Errorf("--listen 0.0.0.0:0: %v, want a usage error naming %s", err, loopback.Flag)
	}
	if msg != "" {
		t.Errorf("a refused --listen wrote %q", msg)
	}
	if err := runServe(context.Background(), []string{"--listen", "host:port"}); !errors.As(err, &ue) {
		t.Errorf("--listen host:port: %v, want a usage error", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // serve nothing: the listener closes at once
	msg = stderrOf(t, func() { err = runServe(ctx, []string{"--listen", "0.0.0.0:0", loopback.Flag}) })
	if err != nil {
		t.Errorf("--listen 0.0.0.0:0 %s: %v", loopback.Flag, err)
	}
	if !strings.Contains(msg, "WARNING") || !strings.Contains(msg, loopback.RiskModelServer) || !strings.Contains(msg, "listening on 0.0.0.0:") {
		t.Errorf("--listen 0.0.0.0:0 %s wrote %q, want the warning and the address", loopback.Flag, msg)
	}

	msg = stderrOf(t, func() { err = runServe(ctx, []string{"--listen", "0"}) })
	if err != nil || strings.Contains(msg, "WARNING") || !strings.Contains(msg, "listening on 127.0.0.1:") {
		t.Errorf("--listen 0: %v, %q: want loopback and no warning", err, msg)
	}
}
