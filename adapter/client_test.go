package adapter

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-dap"
	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/adapter/daptest"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// client is the package's tests' DAP client: daptest's synchronous client with
// ndb's codec (its custom request included) and the requests and conversations the
// tests share. Each request method sends one request (>>) and expect reads the next
// message (<<) and checks its type, so a test reads as a transcript.
type client struct {
	*daptest.Client
	t    testing.TB
	conn io.Writer // for bytes that are no message
}

// readTimeout bounds a wait for the server's next message: a hang fails the test
// instead of blocking it (no test asserts how long anything takes).
const readTimeout = 20 * time.Second

func newClient(t testing.TB, conn io.ReadWriter) *client {
	return &client{Client: daptest.New(t, conn, conn, daptest.Options{Name: "ndb", Timeout: readTimeout, Decoder: newCodec()}), t: t, conn: conn}
}

// request sends a request with the given arguments (any JSON-marshalable value).
func (c *client) request(command string, args any) int {
	c.t.Helper()
	return c.Send(command, args)
}

// raw sends bytes as one framed message.
func (c *client) raw(content []byte) {
	c.t.Helper()
	c.SendRaw(content)
}

// next reads the server's next message.
func (c *client) next() dap.Message {
	c.t.Helper()
	return c.Next()
}

// expectClosed checks that the server closes the connection next.
func (c *client) expectClosed() {
	c.t.Helper()
	c.ExpectClosed()
}

func dump(m dap.Message) string { return daptest.Dump(m) }

// expect reads the next message and checks that it is a T.
func expect[T dap.Message](c *client) T {
	c.t.Helper()
	return daptest.Expect[T](c.Client)
}

// expectError reads an error response with the given id and returns its message.
func (c *client) expectError(command string, id int) string {
	c.t.Helper()
	return c.ExpectError(command, id)
}

// expectStopped reads a stopped event with the given reason.
func (c *client) expectStopped(reason string) *dap.StoppedEvent {
	c.t.Helper()
	e := expect[*dap.StoppedEvent](c)
	if e.Body.Reason != reason {
		c.t.Fatalf("expected a stop for %q, got %s", reason, dump(e))
	}
	return e
}

// expectOutput reads an output event of a category and returns its text.
func (c *client) expectOutput(category string) string {
	c.t.Helper()
	e := expect[*dap.OutputEvent](c)
	if e.Body.Category != category {
		c.t.Fatalf("expected %s output, got %s", category, dump(e))
	}
	return e.Body.Output
}

// expectExit reads exited (with the code) and terminated.
func (c *client) expectExit(code int) {
	c.t.Helper()
	e := expect[*dap.ExitedEvent](c)
	if e.Body.ExitCode != code {
		c.t.Fatalf("exit code %d, want %d", e.Body.ExitCode, code)
	}
	expect[*dap.TerminatedEvent](c)
}

// The requests, as a client sends them.

func (c *client) initialize() {
	c.request("initialize", map[string]any{"clientID": "ndb-test", "adapterID": "ndb", "linesStartAt1": true, "columnsStartAt1": true})
}

func (c *client) launch(args map[string]any) { c.request("launch", args) }

func (c *client) setBreakpoints(path string, lines ...int) {
	bps := []map[string]any{}
	for _, n := range lines {
		bps = append(bps, map[string]any{"line": n})
	}
	c.request("setBreakpoints", map[string]any{"source": map[string]any{"path": path}, "breakpoints": bps})
}

func (c *client) setExceptionBreakpoints(filters ...string) {
	if filters == nil {
		filters = []string{}
	}
	c.request("setExceptionBreakpoints", map[string]any{"filters": filters})
}

func (c *client) configurationDone()    { c.request("configurationDone", nil) }
func (c *client) threads()              { c.request("threads", nil) }
func (c *client) stackTrace(thread int) { c.request("stackTrace", map[string]any{"threadId": thread}) }
func (c *client) scopes(frame int)      { c.request("scopes", map[string]any{"frameId": frame}) }
func (c *client) variables(ref int) {
	c.request("variables", map[string]any{"variablesReference": ref})
}
func (c *client) step(command string) { c.request(command, map[string]any{"threadId": 1}) }
func (c *client) reverseStep(kind string) {
	c.request(ReverseStepCommand, map[string]any{"threadId": 1, "kind": kind})
}
func (c *client) disconnect() { c.request("disconnect", map[string]any{}) }
func (c *client) evaluate(expr string, frame int) {
	c.request("evaluate", map[string]any{"expression": expr, "frameId": frame, "context": "watch"})
}

// Conversations that most tests share.

// start runs initialize and launch; it returns after the launch response.
func (c *client) start(launchArgs map[string]any) {
	c.t.Helper()
	c.initialize()                     // >> initialize
	expect[*dap.InitializeResponse](c) // << initialize
	c.launch(launchArgs)               // >> launch
	expect[*dap.InitializedEvent](c)   // << initialized
	expect[*dap.LaunchResponse](c)     // << launch
}

// topFrame asks for the stack of a thread and returns it, innermost first.
func (c *client) stack(thread int) []dap.StackFrame {
	c.t.Helper()
	c.stackTrace(thread)
	return expect[*dap.StackTraceResponse](c).Body.StackFrames
}

// scopeNamed returns the variables reference of a frame's scope.
func (c *client) scopeNamed(frame int, name string) int {
	c.t.Helper()
	c.scopes(frame)
	r := expect[*dap.ScopesResponse](c)
	for _, s := range r.Body.Scopes {
		if s.Name == name {
			return s.VariablesReference
		}
	}
	c.t.Fatalf("frame %d has no scope %q: %s", frame, name, dump(r))
	return 0
}

// vars returns a variables reference's variables as name -> variable.
func (c *client) vars(ref int) (map[string]dap.Variable, []string) {
	c.t.Helper()
	c.variables(ref)
	r := expect[*dap.VariablesResponse](c)
	m := map[string]dap.Variable{}
	var names []string
	for _, v := range r.Body.Variables {
		m[v.Name] = v
		names = append(names, v.Name)
	}
	return m, names
}

// locals returns the top frame's locals as name=repr lines.
func (c *client) locals() string {
	c.t.Helper()
	frames := c.stack(1)
	vs, names := c.vars(c.scopeNamed(frames[0].Id, "Locals"))
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s=%s ", n, vs[n].Value)
	}
	return strings.TrimSpace(b.String())
}

// at checks the top frame's function and line.
func (c *client) at(fn string, line int) {
	c.t.Helper()
	frames := c.stack(1)
	if len(frames) == 0 || frames[0].Name != fn || frames[0].Line != line {
		c.t.Fatalf("expected to be in %s at line %d, stack is %+v", fn, line, frames)
	}
}

// Servers.

var (
	poolOnce sync.Once
	pool     *trace.Pool
	poolErr  error
)

// testPool is one tracer pool shared by the tests of this package.
func testPool(t testing.TB) *trace.Pool {
	t.Helper()
	poolOnce.Do(func() {
		pool, poolErr = trace.NewPool(context.Background(), trace.PoolOptions{Workers: 2, Log: zerolog.Nop()})
	})
	if poolErr != nil {
		t.Fatalf("starting the tracer: %v", poolErr)
	}
	return pool
}

func testConfig(t testing.TB) Config {
	return Config{Session: session.Options{Tracer: testPool(t)}, Log: testLog(t)}
}

// testLog writes the server's log to the test's log when NDB_TEST_LOG is set.
func testLog(t testing.TB) zerolog.Logger {
	if os.Getenv("NDB_TEST_LOG") == "" {
		return zerolog.Nop()
	}
	return zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel)
}

// pipeClient serves one client over an in-memory pipe, as stdio would.
func pipeClient(t testing.TB, cfg Config) *client {
	t.Helper()
	srv := NewServer(cfg)
	return pipeClientOf(t, srv)
}

func pipeClientOf(t testing.TB, srv *Server) *client {
	t.Helper()
	a, b := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeConn(context.Background(), b) }()
	t.Cleanup(func() {
		a.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeConn: %v", err)
			}
		case <-time.After(readTimeout):
			t.Error("the server did not end after the client closed the connection")
		}
	})
	return newClient(t, a)
}

// tcpServer serves clients on a local TCP port and returns its address.
func tcpServer(t testing.TB, cfg Config) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(readTimeout):
			t.Error("the server did not stop")
		}
	})
	return ln.Addr().String()
}

func tcpClient(t testing.TB, addr string) *client {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return newClient(t, conn)
}

// transports runs a test over an in-memory pipe (as stdio) and over TCP.
func transports(t *testing.T, test func(t *testing.T, c *client)) {
	t.Run("stdio", func(t *testing.T) { test(t, pipeClient(t, testConfig(t))) })
	t.Run("tcp", func(t *testing.T) { test(t, tcpClient(t, tcpServer(t, testConfig(t)))) })
}

// Test programs.

func program(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "testdata", "programs", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// entry returns a test program's entry call from entries.txt ("" for a script).
func entry(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "programs", "entries.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if file, call, ok := strings.Cut(line, " "); ok && file == name {
			return call
		}
	}
	return ""
}

// launchArgs are the launch arguments of a test program in recorded mode.
func launchArgs(t testing.TB, name string, extra ...any) map[string]any {
	t.Helper()
	m := map[string]any{"type": "ndb", "request": "launch", "name": "test", "program": program(t, name), "entry": entry(t, name), "mode": "recorded"}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}
