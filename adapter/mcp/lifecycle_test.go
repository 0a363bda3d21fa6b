package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
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

// Three clients with five sessions each, all at once: every session answers its
// own program's states (run under -race).
func TestConcurrentSessions(t *testing.T) {
	srv := newServer(t, testConfig(t))
	words := []string{"berry", "r", "error", "rare", "mirror", "xyz", "rrrr", "carrot", "", "river", "barrier", "rr", "arrears", "b", "terror"}
	var wg sync.WaitGroup
	for c := range 3 {
		cs := connect(t, srv, nil)
		for k := range 5 {
			word := words[c*5+k]
			mode := []string{"recorded", "neural", "compare"}[k%3]
			wg.Add(1)
			go func() {
				defer wg.Done()
				id, entry := start(t, cs, mode, "entry", fmt.Sprintf("count(%q, 'r')", word))
				if entry.Locals[0].Value != fmt.Sprintf("'%s'", word) {
					t.Errorf("%s entry: %+v", word, entry)
				}
				step(t, cs, id, "step_into")
				var st State
				callOK(t, cs, ToolRunTo, map[string]any{"session": id, "lines": []int{6}}, &st)
				want := strings.Count(word, "r")
				if mode != "recorded" { // the stand-in of the model starts counting at 1
					want++
				}
				if mode == "compare" {
					if n, _ := localOf(State{Point: *st.Recorded}, "n"); n != fmt.Sprint(want-1) {
						t.Errorf("%s: recorded side at line 6: %+v", word, st.Recorded)
					}
				}
				if n, _ := localOf(st, "n"); st.Line != 6 || n != fmt.Sprint(want) {
					t.Errorf("%s (%s) at line 6: %+v", word, mode, st)
				}
				if st, _ := step(t, cs, id, "continue"); st.Exit != "normal" {
					t.Errorf("%s: continue: %+v", word, st)
				}
				callOK(t, cs, ToolEndSession, map[string]any{"session": id}, &EndOutput{})
			}()
		}
	}
	wg.Wait()
	if n := srv.OpenSessions(); n != 0 {
		t.Errorf("%d sessions open after every end_session", n)
	}
}

func localOf(st State, name string) (string, bool) {
	for _, v := range st.Locals {
		if v.Name == name {
			return v.Value, true
		}
	}
	return "", false
}

// Calls on one session from several goroutines run one at a time: each step moves
// the session once.
func TestConcurrentCallsOnOneSession(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	id, _ := start(t, cs, "recorded")
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			step(t, cs, id, "step_into")
		}()
	}
	wg.Wait()
	// call 1, line 2, 3, 4 (c='b'), 3, 4 (c='e'), 3: six steps from the call.
	var gs GetStateOutput
	callOK(t, cs, ToolGetState, map[string]any{"session": id}, &gs)
	if c, _ := localOf(gs.State, "c"); gs.State.Line != 3 || c != "'e'" {
		t.Errorf("after six concurrent step_into: %+v", gs.State)
	}
}

func TestMaxSessions(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxSessions = 2
	cs := connect(t, newServer(t, cfg), nil)
	a, _ := start(t, cs, "recorded")
	start(t, cs, "recorded")
	args := map[string]any{"program": "count.py", "entry": `count("berry", "r")`, "mode": "recorded"}
	expectError(t, cs, ToolStartSession, args, "2 sessions are open", "--max-sessions 2", "end_session")
	expectError(t, cs, ToolPredict, map[string]any{"program": "count.py", "action": "step_into"}, "--max-sessions 2")
	callOK(t, cs, ToolEndSession, map[string]any{"session": a}, &EndOutput{})
	start(t, cs, "recorded")
}

// fakeClock is the idle timeout's clock in tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestIdleTimeout(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	cfg := testConfig(t)
	cfg.IdleTimeout, cfg.Now = time.Hour, clock.now
	srv := newServer(t, cfg)
	cs := connect(t, srv, nil)
	idle, _ := start(t, cs, "recorded")
	used, _ := start(t, cs, "recorded")
	clock.add(40 * time.Minute)
	step(t, cs, used, "step_into")
	if closed := srv.reg.sweep(); len(closed) != 0 {
		t.Fatalf("closed before the timeout: %v", closed)
	}
	clock.add(30 * time.Minute) // idle: 70 min, used: 30 min
	if closed := srv.reg.sweep(); len(closed) != 1 || closed[0] != idle {
		t.Fatalf("closed %v, want [%s]", closed, idle)
	}
	expectError(t, cs, ToolStep, map[string]any{"session": idle, "action": "step_into"}, "closed after 1h0m0s idle", "--idle-timeout", "start_session")
	if st, _ := step(t, cs, used, "step_into"); st.Line != 3 {
		t.Errorf("the session in use after the sweep: %+v", st)
	}
	if srv.OpenSessions() != 1 {
		t.Errorf("%d open sessions, want 1", srv.OpenSessions())
	}
}

// blocking is a backend whose actions wait until they are cancelled: a prediction
// that takes forever.
type blocking struct {
	started, cancelled chan struct{}
}

func (b *blocking) Entry(context.Context) (grammar.State, error) {
	return grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Func: "count", Locals: grammar.Locals{{Name: "s", Repr: "'berry'"}}}, nil
}

func (b *blocking) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	b.started <- struct{}{}
	<-ctx.Done()
	b.cancelled <- struct{}{}
	return session.Outcome{}, ctx.Err()
}

func (b *blocking) Close() error { return nil }

func blockingServer(t *testing.T) (*Server, *blocking) {
	b := &blocking{started: make(chan struct{}, 1), cancelled: make(chan struct{}, 1)}
	cfg := testConfig(t)
	cfg.Session.Neural = func(context.Context, *session.Program, session.Options) (session.Backend, error) { return b, nil }
	return newServer(t, cfg), b
}

func waitFor(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(callTimeout):
		t.Fatalf("no %s", what)
	}
}

// The client's cancellation cancels the prediction in flight; the session stays.
func TestCancelStep(t *testing.T) {
	srv, b := blockingServer(t)
	cs := connect(t, srv, nil)
	id, _ := start(t, cs, "neural")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolStep, Arguments: map[string]any{"session": id, "action": "step_over"}})
		done <- err
	}()
	waitFor(t, b.started, "prediction")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v", err)
	}
	waitFor(t, b.cancelled, "cancellation of the prediction in flight")
	var gs GetStateOutput
	callOK(t, cs, ToolGetState, map[string]any{"session": id}, &gs)
	if gs.State.Event != "call" || gs.State.Line != 1 {
		t.Errorf("the session after a cancelled step: %+v", gs.State)
	}
}

// end_session cancels a step in flight on the session, which says so.
func TestEndSessionDuringStep(t *testing.T) {
	srv, b := blockingServer(t)
	cs := connect(t, srv, nil)
	id, _ := start(t, cs, "neural")
	done := make(chan string, 1)
	go func() {
		done <- expectError(t, cs, ToolStep, map[string]any{"session": id, "action": "step_into"}, "was ended while it was stepping")
	}()
	waitFor(t, b.started, "prediction")
	callOK(t, cs, ToolEndSession, map[string]any{"session": id}, &EndOutput{})
	<-done
	if srv.OpenSessions() != 0 {
		t.Errorf("%d sessions open", srv.OpenSessions())
	}
}

// scripted stands in for the model without recording anything: it predicts line 2.
type scripted struct{ entry grammar.State }

func (s *scripted) Entry(context.Context) (grammar.State, error) { return s.entry, nil }
func (s *scripted) Do(context.Context, grammar.Action) (session.Outcome, error) {
	// A decoded prediction names no function.
	return session.Outcome{State: grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: 2}, Locals: grammar.Locals{{Name: "path", Repr: "'x'"}}}}, nil
}
func (s *scripted) Peek(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	return s.Do(ctx, a)
}
func (s *scripted) Close() error { return nil }

// A neural session, and predict, parse the program and never run it: a program that
// would write a file does not.
func TestNeuralNeverRunsTheProgram(t *testing.T) {
	p, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dir := t.TempDir()
	marker := filepath.Join(dir, "written")
	prog := filepath.Join(dir, "writes.py")
	src := fmt.Sprintf("def f(path):\n    open(path, 'w').write('ran')\n    return 1\n\nopen(%q, 'w').write('ran')\n", marker)
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Session.Tracer = p
	cfg.Session.Neural = func(ctx context.Context, prog *session.Program, _ session.Options) (session.Backend, error) {
		return &scripted{entry: grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Func: "f", Locals: grammar.Locals{{Name: "path", Repr: "'x'"}}}}, nil
	}
	cs := connect(t, newServer(t, cfg), nil)
	var out StartOutput
	callOK(t, cs, ToolStartSession, map[string]any{"program": prog, "entry": fmt.Sprintf("f(%q)", marker)}, &out)
	if st, txt := step(t, cs, out.Session, "step_into"); st.Function != "f" || !strings.HasPrefix(txt, "line 2 in f  open(path, 'w').write('ran')") {
		t.Errorf("a predicted state's function, from the derived stack: %+v %q", st, txt)
	}
	step(t, cs, out.Session, "step_over")
	callOK(t, cs, ToolPredict, map[string]any{"program": prog, "entry": fmt.Sprintf("f(%q)", marker), "action": "step_over"}, &PredictOutput{})
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a neural session ran the program: it wrote its file")
	}
	if st := p.Stats(); st["trace"] != 0 || st["check"] != 0 || st["parse"] != 2 {
		t.Errorf("tracer requests of neural sessions: %v", st)
	}
}

// The streamable HTTP transport, on both protocol generations: the 2025-11-25
// handshake with an MCP session, and the stateless 2026-07-28 protocol (the SDK's
// default); ndb sessions are named by id either way.
func TestStreamableHTTP(t *testing.T) {
	srv := newServer(t, testConfig(t))
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("protocol "+version, func(t *testing.T) {
			ctx := context.Background()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "0"}, nil).
				Connect(ctx, &sdk.StreamableClientTransport{Endpoint: hs.URL}, &sdk.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			id, _ := start(t, cs, "recorded")
			if st, _ := step(t, cs, id, "step_into"); st.Line != 2 {
				t.Errorf("step_into over HTTP: %+v", st)
			}
			expectError(t, cs, ToolStep, map[string]any{"session": "nope", "action": "step_into"}, "unknown session")
			callOK(t, cs, ToolEndSession, map[string]any{"session": id}, &EndOutput{})
		})
	}
}

// panicky is a backend with a bug: its steps panic.
type panicky struct{ scripted }

func (p *panicky) Do(context.Context, grammar.Action) (session.Outcome, error) {
	panic("index out of range")
}

// A panic in a tool call is a tool error; the server and the session stay up.
func TestPanicIsAToolError(t *testing.T) {
	cfg := testConfig(t)
	cfg.Session.Neural = func(context.Context, *session.Program, session.Options) (session.Backend, error) {
		return &panicky{scripted{entry: grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Func: "count"}}}, nil
	}
	cs := connect(t, newServer(t, cfg), nil)
	id, _ := start(t, cs, "neural")
	expectError(t, cs, ToolStep, map[string]any{"session": id, "action": "step_into"}, "internal error in ndb (index out of range)", "still up")
	var gs GetStateOutput
	callOK(t, cs, ToolGetState, map[string]any{"session": id}, &gs)
	if gs.State.Line != 1 {
		t.Errorf("the session after a panic: %+v", gs.State)
	}
	start(t, cs, "recorded")
}
