package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-dap"
	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/adapter"
	"github.com/ndb-project/ndb/adapter/daptest"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/session"
)

// dapClient serves one DAP client in process, as `ndb dap` does with opt.
func dapClient(t *testing.T, opt session.Options) *daptest.Client {
	srv := adapter.NewServer(adapter.Config{Workers: 1, Log: zerolog.Nop(), Session: opt})
	a, b := net.Pipe()
	done := make(chan struct{})
	go func() { srv.ServeConn(context.Background(), b); close(done) }()
	t.Cleanup(func() { a.Close(); <-done; srv.Close() })
	return daptest.New(t, a, a, daptest.Options{Timeout: 2 * time.Minute})
}

// neuralLines launches count.py in neural mode, steps into it n times, and returns
// the line of each stop.
func neuralLines(t *testing.T, c *daptest.Client, launch map[string]any, n int) []int {
	c.Call("initialize", map[string]any{"adapterID": "ndb"}, nil)
	c.Call("launch", launch, nil)
	c.Event("initialized", nil)
	c.Call("configurationDone", nil, nil)
	var lines []int
	for i := 0; ; i++ {
		if _, ok := c.StoppedOrEnd(); !ok {
			break
		}
		var st dap.StackTraceResponseBody
		c.Call("stackTrace", map[string]any{"threadId": 1}, &st)
		lines = append(lines, st.StackFrames[0].Line)
		if i == n {
			break
		}
		c.Call("stepIn", map[string]any{"threadId": 1}, nil)
	}
	c.Call("disconnect", nil, nil)
	return lines
}

func countLaunch(extra ...any) map[string]any {
	l := map[string]any{"program": filepath.Join("..", "..", "testdata", "programs", "count.py"),
		"entry": `count("berry", "r")`, "mode": "neural", "stopOnEntry": true}
	for i := 0; i+1 < len(extra); i += 2 {
		l[extra[i].(string)] = extra[i+1]
	}
	return l
}

// listenInfer starts `ndb-infer --listen 127.0.0.1:0` and returns its address.
func listenInfer(t *testing.T, bin string) string {
	cmd := exec.Command(bin, "--listen", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, addr, ok := strings.Cut(sc.Text(), "listening on "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			return addr
		}
	}
	t.Fatalf("ndb-infer --listen said no address")
	return ""
}

// A neural DAP session through a pipe-started ndb-infer and one through a listening
// one (the launch's "modelServer") stop at the same lines.
func TestDAPNeuralThroughModelServer(t *testing.T) {
	bin := needInfer(t)
	if _, err := models.DefaultDir(); err != nil {
		t.Skip("no bundled model: ", err)
	}
	viaPipe := neuralLines(t, dapClient(t, session.Options{}), countLaunch(), 5)
	addr := listenInfer(t, bin)
	viaTCP := neuralLines(t, dapClient(t, session.Options{}), countLaunch("modelServer", addr), 5)
	if len(viaPipe) < 2 || fmt.Sprint(viaPipe) != fmt.Sprint(viaTCP) {
		t.Errorf("stops through a pipe %v, through --listen %v", viaPipe, viaTCP)
	}
	// `ndb dap --model-server ADDR` is the default of launches that name none.
	viaFlag := neuralLines(t, dapClient(t, session.Options{ModelServer: addr}), countLaunch(), 5)
	if fmt.Sprint(viaFlag) != fmt.Sprint(viaPipe) {
		t.Errorf("stops through --model-server %v, want %v", viaFlag, viaPipe)
	}
}

// A checkpoint that does not load is a launch error naming it.
func TestDAPBadCheckpointIsALaunchError(t *testing.T) {
	needInfer(t)
	bad := t.TempDir()
	c := dapClient(t, session.Options{})
	c.Call("initialize", map[string]any{"adapterID": "ndb"}, nil)
	seq := c.Send("launch", countLaunch("model", bad))
	m := c.Await("the launch's response", func(m daptest.Msg) bool { return m.Type == "response" && m.RequestSeq == seq })
	if m.Success || !strings.Contains(m.String(), bad) {
		t.Errorf("launch with an empty checkpoint folder: %s", m)
	}
}
