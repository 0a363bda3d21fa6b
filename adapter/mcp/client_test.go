package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// The tests drive the server through the SDK's own client over in-memory
// transports, as an agent's MCP client would: call a tool, read its structured
// content and text, or its isError message.

// callTimeout bounds one tool call: a hang fails the test (no test asserts how
// long anything takes).
const callTimeout = 60 * time.Second

var (
	poolOnce sync.Once
	pool     *trace.Pool
	poolErr  error
)

// testPool is one tracer pool shared by the package's tests.
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

func testLog(t testing.TB) zerolog.Logger {
	if os.Getenv("NDB_TEST_LOG") == "" {
		return zerolog.Nop()
	}
	return zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel)
}

// testConfig serves the repository's testdata programs with the shared tracer and
// a stand-in for the model (neural sessions replay the program with n = 0 changed
// to n = 1, so compare mode has a difference to show).
func testConfig(t testing.TB) Config {
	return Config{Session: session.Options{Tracer: testPool(t), Neural: editedFactory(t)}, Dir: programs(t), Log: testLog(t)}
}

func programs(t testing.TB) string {
	dir, err := filepath.Abs("../../testdata/programs")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// newServer starts a server that the test closes.
func newServer(t testing.TB, cfg Config) *Server {
	srv := NewServer(cfg)
	t.Cleanup(func() { srv.Close() })
	return srv
}

// connect connects a new client to srv over in-memory transports.
func connect(t testing.TB, srv *Server, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, opts).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool and returns its result (tool errors included: see expectError).
func call(t testing.TB, cs *sdk.ClientSession, tool string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error: %v", tool, args, err)
	}
	return res
}

// callOK calls a tool that must succeed and decodes its structured content into
// out; it returns the result's text.
func callOK(t testing.TB, cs *sdk.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res := call(t, cs, tool, args)
	txt := textOf(res)
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", tool, args, txt)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", tool, b, err)
	}
	return txt
}

// expectError calls a tool that must fail with a tool error (isError) whose
// message holds every one of want.
func expectError(t testing.TB, cs *sdk.ClientSession, tool string, args map[string]any, want ...string) string {
	t.Helper()
	res := call(t, cs, tool, args)
	msg := textOf(res)
	if !res.IsError {
		t.Fatalf("%s %v: no error; got %s", tool, args, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s %v: error %q does not say %q", tool, args, msg, w)
		}
	}
	return msg
}

func textOf(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// start opens a session on count.py's count("berry", "r") and returns its id and
// entry state.
func start(t testing.TB, cs *sdk.ClientSession, mode string, extra ...any) (string, State) {
	t.Helper()
	args := map[string]any{"program": "count.py", "entry": `count("berry", "r")`, "mode": mode}
	for i := 0; i+1 < len(extra); i += 2 {
		args[extra[i].(string)] = extra[i+1]
	}
	var out StartOutput
	callOK(t, cs, ToolStartSession, args, &out)
	if out.Session == "" || out.Mode != mode {
		t.Fatalf("start_session: %+v", out)
	}
	return out.Session, out.State
}

// step takes one action and returns the new state.
func step(t testing.TB, cs *sdk.ClientSession, id, action string) (State, string) {
	t.Helper()
	var st State
	txt := callOK(t, cs, ToolStep, map[string]any{"session": id, "action": action}, &st)
	return st, txt
}

// editedFactory stands in for the neural backend: it replays a recording of the
// program with `n = 0` changed to `n = 1`, takes set_variable edits of the current
// state, and predicts without moving (Peek) from the entry state.
func editedFactory(t testing.TB) session.NeuralFactory {
	return func(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
		src := strings.Replace(prog.Source, "n = 0", "n = 1", 1)
		rec, err := testPool(t).Record(ctx, prog.Path, src, prog.Entry, trace.Limits{})
		if err != nil {
			return nil, err
		}
		return &fakeNeural{Replay: session.NewReplay(rec), rec: rec}, nil
	}
}

type fakeNeural struct {
	*session.Replay
	rec *trace.Recording
	cur grammar.State
}

func (f *fakeNeural) Entry(ctx context.Context) (grammar.State, error) {
	st, err := f.Replay.Entry(ctx)
	f.cur = st
	return st, err
}

func (f *fakeNeural) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	out, err := f.Replay.Do(ctx, a)
	f.cur = out.State
	return out, err
}

// Peek answers from a fresh replay: the fake predicts only from the entry state.
func (f *fakeNeural) Peek(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	r := session.NewReplay(f.rec)
	if _, err := r.Entry(ctx); err != nil {
		return session.Outcome{}, err
	}
	return r.Do(ctx, a)
}

func (f *fakeNeural) SetVariable(name, repr string) (grammar.State, error) {
	st := f.cur
	st.Locals = st.Locals.Clone()
	for i := range st.Locals {
		if st.Locals[i].Name == name {
			st.Locals[i].Repr = repr
			f.cur = st
			return st, nil
		}
	}
	return grammar.State{}, &notLocal{name}
}

type notLocal struct{ name string }

func (e *notLocal) Error() string { return e.name + " is not a local of the current state" }

// waitABit yields while a test polls for something asynchronous.
func waitABit() { time.Sleep(20 * time.Millisecond) }
