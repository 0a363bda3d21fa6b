package adapter

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-dap"
	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// editedFactory stands in for the neural backend in compare mode: it replays a
// recording of the program with `n = 0` changed to `n = 1`, so the two threads
// differ in n from line 3 on.
func editedFactory(t *testing.T) session.NeuralFactory {
	return func(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
		src := strings.Replace(prog.Source, "n = 0", "n = 1", 1)
		rec, err := testPool(t).Record(ctx, prog.Path, src, prog.Entry, trace.Limits{})
		if err != nil {
			return nil, err
		}
		return session.NewReplay(rec), nil
	}
}

func TestCompareMode(t *testing.T) {
	cfg := testConfig(t)
	cfg.Session.Neural = editedFactory(t)
	c := pipeClient(t, cfg)
	c.start(launchArgs(t, "count.py", "mode", "compare", "stopOnEntry", true))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	c.threads() // >> threads
	th := expect[*dap.ThreadsResponse](c).Body.Threads
	if len(th) != 2 || th[0].Name != "predicted" || th[1].Name != "recorded" {
		t.Fatalf("threads: %+v", th)
	}
	for range 2 {
		c.step("stepIn")                    // >> stepIn
		expect[*dap.StepInResponse](c)      // << stepIn
		e := expect[*dap.ContinuedEvent](c) // << continued: both threads move
		if !e.Body.AllThreadsContinued {
			t.Errorf("continued: %+v", e.Body)
		}
		if s := c.expectStopped("step"); !s.Body.AllThreadsStopped { // << stopped
			t.Errorf("stopped: %+v", s.Body)
		}
	}
	pred := c.stack(threadPredicted)
	rec := c.stack(threadRecorded)
	if len(pred) != 1 || len(rec) != 1 || pred[0].Line != 3 || rec[0].Line != 3 || pred[0].Id == rec[0].Id {
		t.Fatalf("stacks: predicted %+v, recorded %+v", pred, rec)
	}
	diffs, names := c.vars(c.scopeNamed(pred[0].Id, "Differences"))
	if len(names) != 1 || diffs["n"].Value != "predicted 1, recorded 0" {
		t.Errorf("differences: %v %+v", names, diffs)
	}
	predLocals, _ := c.vars(c.scopeNamed(pred[0].Id, "Locals"))
	recLocals, _ := c.vars(c.scopeNamed(rec[0].Id, "Locals"))
	if predLocals["n"].Value != "1" || recLocals["n"].Value != "0" {
		t.Errorf("locals: predicted %+v, recorded %+v", predLocals, recLocals)
	}
	c.scopes(rec[0].Id)
	for _, s := range expect[*dap.ScopesResponse](c).Body.Scopes {
		if s.Name == "Differences" {
			t.Error("the recorded thread has a Differences scope")
		}
	}
	c.evaluate("n", rec[0].Id)
	if r := expect[*dap.EvaluateResponse](c); r.Body.Result != "0" {
		t.Errorf("n on the recorded thread: %s", r.Body.Result)
	}
	c.request("stepOut", map[string]any{"threadId": threadRecorded}) // either thread steps both
	expect[*dap.StepOutResponse](c)
	expect[*dap.ContinuedEvent](c)
	c.expectStopped("step")
	pred = c.stack(threadPredicted)
	diffs, _ = c.vars(c.scopeNamed(pred[0].Id, "Differences"))
	if diffs["value"].Value != "predicted 3, recorded 2" {
		t.Errorf("return value difference: %+v", diffs)
	}
	c.step("continue")
	expect[*dap.ContinueResponse](c)
	expect[*dap.ContinuedEvent](c)
	c.expectExit(0)
}

// blocking is a backend whose actions wait until they are cancelled: a prediction
// that takes forever, to test pause and disconnect.
type blocking struct {
	mu      sync.Mutex
	started chan struct{}
	closed  bool
}

func (b *blocking) Entry(context.Context) (grammar.State, error) {
	return grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Func: "count", Locals: grammar.Locals{{Name: "s", Repr: "'berry'"}}}, nil
}

func (b *blocking) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	b.started <- struct{}{}
	<-ctx.Done()
	return session.Outcome{}, ctx.Err()
}

func (b *blocking) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

func blockingConfig(t *testing.T) (Config, *blocking) {
	b := &blocking{started: make(chan struct{}, 1)}
	cfg := testConfig(t)
	cfg.Session.Neural = func(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
		if prog.Recording != nil {
			t.Error("the neural backend was given a recording")
		}
		return b, nil
	}
	return cfg, b
}

func TestPauseCancelsAPrediction(t *testing.T) {
	cfg, b := blockingConfig(t)
	c := pipeClient(t, cfg)
	c.start(launchArgs(t, "count.py", "mode", "neural", "stopOnEntry", true))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	c.step("next")               // >> next
	expect[*dap.NextResponse](c) // << next (the prediction runs)
	<-b.started
	c.stackTrace(1) // >> stackTrace while running
	c.expectError("stackTrace", ErrRunning)
	c.threads() // threads is answered while running
	expect[*dap.ThreadsResponse](c)
	c.setBreakpoints(program(t, "count.py"), 3) // so is setBreakpoints
	expect[*dap.SetBreakpointsResponse](c)
	c.request("pause", map[string]any{"threadId": 1}) // >> pause
	expect[*dap.PauseResponse](c)                     // << pause
	c.expectStopped("pause")                          // << stopped (pause)
	c.at("count", 1)                                  // nothing moved
	c.request("pause", map[string]any{"threadId": 1}) // pausing a stopped program is harmless
	expect[*dap.PauseResponse](c)
}

func TestDisconnectWhileRunning(t *testing.T) {
	cfg, b := blockingConfig(t)
	c := pipeClient(t, cfg)
	c.start(launchArgs(t, "count.py", "mode", "neural"))
	c.configurationDone() // starts a continue that blocks
	expect[*dap.ConfigurationDoneResponse](c)
	<-b.started
	c.disconnect()                     // >> disconnect
	expect[*dap.DisconnectResponse](c) // << disconnect
	c.expectClosed()
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		t.Error("the backend was not closed")
	}
}

func TestTerminateWhileRunning(t *testing.T) {
	cfg, b := blockingConfig(t)
	c := pipeClient(t, cfg)
	c.start(launchArgs(t, "count.py", "mode", "neural"))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	<-b.started
	c.request("terminate", map[string]any{}) // >> terminate
	expect[*dap.TerminateResponse](c)        // << terminate
	expect[*dap.TerminatedEvent](c)          // << terminated
	c.disconnect()
	expect[*dap.DisconnectResponse](c)
	c.expectClosed()
}

// A neural session parses the program and never runs it: the tracer is asked for no
// trace and no check.
func TestNeuralNeverRunsTheProgram(t *testing.T) {
	p, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cfg, _ := blockingConfig(t)
	cfg.Session.Tracer = p
	c := pipeClient(t, cfg)
	c.start(launchArgs(t, "count.py", "mode", "neural", "stopOnEntry", true))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	c.disconnect()
	expect[*dap.DisconnectResponse](c)
	stats := p.Stats()
	if stats["trace"] != 0 || stats["check"] != 0 || stats["parse"] != 1 {
		t.Errorf("tracer requests of a neural session: %v", stats)
	}
}

func TestNeuralSyntaxError(t *testing.T) {
	cfg, _ := blockingConfig(t)
	c := pipeClient(t, cfg)
	path := t.TempDir() + "/bad.py"
	if err := os.WriteFile(path, []byte("x = (\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.initialize()
	expect[*dap.InitializeResponse](c)
	c.launch(map[string]any{"program": path, "mode": "neural"})
	if msg := c.expectError("launch", ErrProgram); !strings.Contains(msg, "syntax error") {
		t.Errorf("neural syntax error: %s", msg)
	}
}

// editableReplay stands in for a neural backend that can change variables: a replay
// whose current state takes edits.
type editableReplay struct {
	*session.Replay
	cur grammar.State
}

func (e *editableReplay) Entry(ctx context.Context) (grammar.State, error) {
	st, err := e.Replay.Entry(ctx)
	e.cur = st
	return st, err
}

func (e *editableReplay) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	out, err := e.Replay.Do(ctx, a)
	e.cur = out.State
	return out, err
}

func (e *editableReplay) SetVariable(name, repr string) (grammar.State, error) {
	st := e.cur
	st.Locals = st.Locals.Clone()
	for i := range st.Locals {
		if st.Locals[i].Name == name {
			st.Locals[i].Repr = repr
			e.cur = st
			return st, nil
		}
	}
	return grammar.State{}, fmt.Errorf("%s is not a local of the current state", name)
}

func TestNeuralModeSetVariable(t *testing.T) {
	cfg := testConfig(t)
	cfg.Session.Neural = func(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
		if opt.Temperature != 0.5 || opt.Seed != 9 || prog.Recording != nil || len(prog.Parsed.Executable) == 0 {
			t.Errorf("factory got %+v, parse %+v", opt, prog.Parsed)
		}
		rec, err := testPool(t).Record(ctx, prog.Path, prog.Source, prog.Entry, trace.Limits{})
		if err != nil {
			return nil, err
		}
		return &editableReplay{Replay: session.NewReplay(rec)}, nil
	}
	c := pipeClient(t, cfg)
	c.start(launchArgs(t, "count.py", "mode", "neural", "stopOnEntry", true, "temperature", 0.5, "seed", 9))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	for range 2 {
		c.step("next")
		expect[*dap.NextResponse](c)
		c.expectStopped("step")
	}
	frames := c.stack(1)
	locals := c.scopeNamed(frames[0].Id, "Locals")
	c.request("setVariable", map[string]any{"variablesReference": locals, "name": "n", "value": "5"}) // >> setVariable
	r := expect[*dap.SetVariableResponse](c)                                                          // << setVariable
	if r.Body.Value != "5" || r.Body.Type != "int" {
		t.Errorf("setVariable: %+v", r.Body)
	}
	vs, _ := c.vars(locals)
	if vs["n"].Value != "5" {
		t.Errorf("locals after setVariable: %+v", vs)
	}
	c.evaluate("n + 0 if False else n", frames[0].Id)
	c.expectError("evaluate", ErrEvaluate)
	c.evaluate("n", frames[0].Id)
	if r := expect[*dap.EvaluateResponse](c); r.Body.Result != "5" {
		t.Errorf("n after setVariable: %s", r.Body.Result)
	}
	c.request("setVariable", map[string]any{"variablesReference": locals, "name": "zz", "value": "1"})
	if msg := c.expectError("setVariable", ErrSetVariable); !strings.Contains(msg, "zz is not a local") {
		t.Errorf("unknown variable: %s", msg)
	}
	c.step("continue")
	expect[*dap.ContinueResponse](c)
	c.expectExit(0)
}
