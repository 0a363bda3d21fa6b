package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/go-dap"
	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// conversation frames a sequence of requests as a client would send them.
func conversation(t testing.TB, reqs ...[2]any) []byte {
	var b bytes.Buffer
	for i, r := range reqs {
		m := map[string]any{"seq": i + 1, "type": "request", "command": r[0]}
		if r[1] != nil {
			m["arguments"] = r[1]
		}
		content, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := dap.WriteBaseMessage(&b, content); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

type args = map[string]any

// fuzzServer is a server whose launches return one canned recording of count.py, so
// that fuzzing runs no Python per input.
func fuzzServer(t testing.TB) *Server {
	path := program(t, "count.py")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rec, err := p.Record(context.Background(), path, string(src), `count("berry", "r")`, trace.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return NewServer(Config{Session: session.Options{Tracer: canned{rec}}, Log: zerolog.Nop()})
}

// canned is a tracer whose every program is one recording.
type canned struct{ rec *trace.Recording }

func (c canned) Record(context.Context, string, string, string, trace.Limits) (*trace.Recording, error) {
	return c.rec, nil
}

func (c canned) Parse(context.Context, trace.ParseRequest) (trace.ParseResult, error) {
	return c.rec.Parsed, nil
}

// FuzzServer feeds arbitrary bytes to a server over an in-memory pipe: it must not
// panic, and must end the connection once the input ends.
func FuzzServer(f *testing.F) {
	path := program(f, "count.py")
	f.Add(conversation(f,
		[2]any{"initialize", args{"clientID": "fuzz", "linesStartAt1": true}},
		[2]any{"launch", args{"program": path, "entry": `count("berry", "r")`, "stopOnEntry": true, "maxSteps": 50}},
		[2]any{"setBreakpoints", args{"source": args{"path": path}, "breakpoints": []args{{"line": 5}, {"line": 9}}}},
		[2]any{"setExceptionBreakpoints", args{"filters": []string{"raised", "uncaught"}}},
		[2]any{"configurationDone", nil},
		[2]any{"threads", nil},
		[2]any{"stackTrace", args{"threadId": 1, "startFrame": 0, "levels": 20}},
		[2]any{"scopes", args{"frameId": 1000}},
		[2]any{"variables", args{"variablesReference": 1000}},
		[2]any{"evaluate", args{"expression": "s[0] == 'b' and len(s) > 2", "frameId": 1000, "context": "hover"}},
		[2]any{"next", args{"threadId": 1}},
		[2]any{"stepIn", args{"threadId": 1}},
		[2]any{"continue", args{"threadId": 1}},
		[2]any{"setVariable", args{"variablesReference": 1001, "name": "n", "value": "5"}},
		[2]any{"stepOut", args{"threadId": 1}},
		[2]any{"stepBack", args{"threadId": 1}},
		[2]any{ReverseStepCommand, args{"threadId": 1, "kind": "into"}},
		[2]any{"reverseContinue", args{"threadId": 1}},
		[2]any{"exceptionInfo", args{"threadId": 1}},
		[2]any{"breakpointLocations", args{"source": args{"path": path}, "line": 1, "endLine": 9}},
		[2]any{"pause", args{"threadId": 1}},
		[2]any{"terminate", nil},
		[2]any{"disconnect", nil},
	))
	f.Add(conversation(f, [2]any{"launch", args{"program": path, "mode": "compare"}}, [2]any{"goto", args{}}, [2]any{"fooBar", nil}))
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 9\r\n\r\n{\"seq\":1}Content-Length: 99999999999\r\n\r\n"))
	f.Add([]byte("Content-Length: 5\r\n\r\n[1,2]"))
	f.Add([]byte("\r\n\r\n"))
	f.Add([]byte{})
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := net.Pipe()
		done := make(chan error, 1)
		go func() { done <- srv.ServeConn(context.Background(), b) }()
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			io.Copy(io.Discard, a)
		}()
		a.Write(data)
		a.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("the server did not end after its input ended")
		}
		wg.Wait()
	})
}

// FuzzRequest sends one request with arbitrary arguments to a session stopped at its
// entry state (and then a step and a stack trace): every handler must answer
// without panicking.
func FuzzRequest(f *testing.F) {
	path := program(f, "count.py")
	prefix := conversation(f,
		[2]any{"initialize", nil},
		[2]any{"launch", args{"program": path, "stopOnEntry": true}},
		[2]any{"configurationDone", nil},
		[2]any{"stackTrace", args{"threadId": 1}},
		[2]any{"scopes", args{"frameId": 1000}},
	)
	for _, s := range []struct{ cmd, args string }{
		{"variables", `{"variablesReference": 1000, "start": 1, "count": 1, "filter": "indexed"}`},
		{"evaluate", `{"expression": "s[1:]", "frameId": 1000}`},
		{"setVariable", `{"variablesReference": 1000, "name": "s", "value": "'x'"}`},
		{"setBreakpoints", `{"source": {"path": "` + path + `"}, "lines": [1, 2, -4, 99999999999]}`},
		{"stackTrace", `{"threadId": 1, "startFrame": -5, "levels": -1}`},
		{"breakpointLocations", `{"source": {}, "line": 3, "endLine": 1}`},
		{ReverseStepCommand, `{"kind": "call"}`},
		{"setExceptionBreakpoints", `{"filters": ["raised"], "filterOptions": [{"filterId": "x"}]}`},
		{"launch", `{"program": "` + path + `"}`},
		{"next", `{"threadId": 2}`},
	} {
		f.Add(s.cmd, []byte(s.args))
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, command string, arguments []byte) {
		content, err := json.Marshal(map[string]any{"seq": 99, "type": "request", "command": command, "arguments": json.RawMessage(arguments)})
		if err != nil {
			content = append([]byte(`{"seq": 99, "type": "request", "command": "x", "arguments": `), arguments...)
			content = append(content, '}')
		}
		var in bytes.Buffer
		in.Write(prefix)
		dap.WriteBaseMessage(&in, content)
		in.Write(conversation(t, [2]any{"stepIn", args{"threadId": 1}}, [2]any{"stackTrace", args{"threadId": 1}}))
		a, b := net.Pipe()
		done := make(chan error, 1)
		go func() { done <- srv.ServeConn(context.Background(), b) }()
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			io.Copy(io.Discard, a)
		}()
		a.Write(in.Bytes())
		a.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("the server did not end after its input ended")
		}
		wg.Wait()
	})
}
