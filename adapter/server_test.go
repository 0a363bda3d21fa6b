package adapter

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/go-dap"
)

func TestListenAddr(t *testing.T) {
	for in, want := range map[string]string{
		":4711":          "127.0.0.1:4711",
		"4711":           "127.0.0.1:4711",
		"0.0.0.0:4711":   "0.0.0.0:4711",
		"localhost:9":    "localhost:9",
		"[::1]:4711":     "[::1]:4711",
		" :0 ":           "127.0.0.1:0",
		"example.org:80": "example.org:80",
	} {
		if got, err := ListenAddr(in); err != nil || got != want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "host", ":port", "1.2.3.4:99999", "70000"} {
		if got, err := ListenAddr(bad); err == nil {
			t.Errorf("ListenAddr(%q) = %q, want an error", bad, got)
		}
	}
}

// Several clients at once on one TCP server, each its own session: they step the
// same program to different places and never see each other's state.
func TestSeveralClientsAtOnce(t *testing.T) {
	addr := tcpServer(t, testConfig(t))
	const clients = 4
	var wg sync.WaitGroup
	for k := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(fmt.Sprintf("client%d", k), func(t *testing.T) {
				c := tcpClient(t, addr)
				name := []string{"count.py", "nested_calls.py"}[k%2]
				c.start(launchArgs(t, name, "stopOnEntry", true))
				c.configurationDone()
				expect[*dap.ConfigurationDoneResponse](c)
				c.expectStopped("entry")
				for range k + 1 {
					c.step("stepIn")
					expect[*dap.StepInResponse](c)
					c.expectStopped("step")
				}
				frames := c.stack(1)
				wantLine := map[string][]int{"count.py": {2, 3, 4, 5}, "nested_calls.py": {13, 14, 15, 6}}[name][k]
				if frames[0].Line != wantLine {
					t.Errorf("%s after %d steps: line %d, want %d", name, k+1, frames[0].Line, wantLine)
				}
				c.disconnect()
				expect[*dap.DisconnectResponse](c)
				c.expectClosed()
			})
		}()
	}
	wg.Wait()
}

// ServeStdio over real pipes, as `ndb dap` runs it.
func TestServeStdio(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(testConfig(t))
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	c := newClient(t, struct {
		io.Reader
		io.Writer
		io.Closer
	}{outR, inW, inW})
	c.start(launchArgs(t, "count.py"))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectExit(0)
	c.disconnect()
	expect[*dap.DisconnectResponse](c)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(readTimeout):
		t.Fatal("ServeStdio did not return after disconnect")
	}
	c.expectClosed()
}

// Close ends every connection of a server.
func TestServerClose(t *testing.T) {
	srv := NewServer(testConfig(t))
	c := pipeClientOf(t, srv)
	c.initialize()
	expect[*dap.InitializeResponse](c)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	c.expectClosed()
	if err := srv.ServeConn(context.Background(), nopConn{}); err == nil {
		t.Error("a closed server served a connection")
	}
}

type nopConn struct{}

func (nopConn) Read([]byte) (int, error)    { return 0, io.EOF }
func (nopConn) Write(p []byte) (int, error) { return len(p), nil }
func (nopConn) Close() error                { return nil }
