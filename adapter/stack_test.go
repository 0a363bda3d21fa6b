package adapter

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// frameLines renders a stack as "name line; ...".
func frameLines(frames []dap.StackFrame) string {
	var b strings.Builder
	for _, f := range frames {
		fmt.Fprintf(&b, "%s %d; ", f.Name, f.Line)
	}
	return b.String()
}

// In recorded mode the stack after a jump is the real one: Continue from the entry of
// a script to a breakpoint in count shows count, main at its call and <module> at its
// call (not count under <module> at line 1), with the callers' real locals; Reverse
// (reverseContinue) goes back to the latest earlier stop on a breakpoint line, then to
// the entry.
func TestStackAfterJumpsAndReverseContinue(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	path := program(t, "callchain.py")
	c.start(launchArgs(t, "callchain.py", "stopOnEntry", true))
	c.setBreakpoints(path, 5)
	expect[*dap.SetBreakpointsResponse](c)
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	entryFrames := c.stack(1)
	if got := frameLines(entryFrames); got != "<module> 1; " {
		t.Fatalf("stack at entry: %s", got)
	}

	const want = "count 5; main 11; <module> 16; "
	c.step("continue")               // >> continue
	expect[*dap.ContinueResponse](c) // << continue
	c.expectStopped("breakpoint")    // << stopped (breakpoint)
	c.stackTrace(1)                  // >> stackTrace
	r := expect[*dap.StackTraceResponse](c)
	first := r.Body.StackFrames
	if got := frameLines(first); got != want || r.Body.TotalFrames != 3 {
		t.Fatalf("stack at the breakpoint: %s (totalFrames %d), want %s", got, r.Body.TotalFrames, want)
	}
	mainVars, _ := c.vars(c.scopeNamed(first[1].Id, "Locals"))
	if mainVars["word"].Value != "'berry'" {
		t.Errorf("main's locals at its call: %+v", mainVars)
	}
	if got := c.locals(); got != "s='berry' t='r' n=0 c='r'" {
		t.Errorf("count's locals: %s", got)
	}

	c.step("continue") // the second 'r'
	expect[*dap.ContinueResponse](c)
	c.expectStopped("breakpoint")
	second := c.stack(1)
	if got := frameLines(second); got != want {
		t.Fatalf("stack at the second stop: %s", got)
	}
	// Frame ids are never reused: VS Code redraws the stack only when they differ.
	for i := range second {
		if second[i].Id == first[i].Id || second[i].Id == entryFrames[0].Id {
			t.Errorf("frame %d has id %d at two stops", i, second[i].Id)
		}
	}
	// An id from the previous stop answers for the frame at its depth now: VS Code shows
	// the previous stop's frames until the rest of the new stack is loaded.
	staleVars, _ := c.vars(c.scopeNamed(first[0].Id, "Locals"))
	if staleVars["n"].Value != "1" {
		t.Errorf("the previous stop's top frame id: Locals %+v, want the current n=1", staleVars)
	}
	// A page of the stack, as VS Code asks for it (the top frame, then the rest).
	c.request("stackTrace", map[string]any{"threadId": 1, "startFrame": 1, "levels": 19})
	page := expect[*dap.StackTraceResponse](c).Body
	if got := frameLines(page.StackFrames); got != "main 11; <module> 16; " || page.TotalFrames != 3 {
		t.Errorf("frames from 1: %s (totalFrames %d)", got, page.TotalFrames)
	}

	c.step("reverseContinue")               // >> reverseContinue
	expect[*dap.ReverseContinueResponse](c) // << reverseContinue
	e := c.expectStopped("breakpoint")      // << stopped at the first 'r'
	if len(e.Body.HitBreakpointIds) != 1 || e.Body.HitBreakpointIds[0] != 5 {
		t.Errorf("hit breakpoints: %v", e.Body.HitBreakpointIds)
	}
	if got := frameLines(c.stack(1)); got != want {
		t.Fatalf("stack after reverseContinue: %s", got)
	}
	if got := c.locals(); got != "s='berry' t='r' n=0 c='r'" {
		t.Errorf("reverseContinue stopped at the wrong line-5 state: %s", got)
	}
	c.step("reverseContinue") // no earlier breakpoint line: the entry
	expect[*dap.ReverseContinueResponse](c)
	c.expectStopped("entry")
	c.at("<module>", 1)
}

// frameless stands in for the neural backend: a replay whose states carry no frame
// ids and which does not tell its real stack, as a model's predictions do not.
type frameless struct{ b session.Backend }

func (f frameless) Entry(ctx context.Context) (grammar.State, error) {
	st, err := f.b.Entry(ctx)
	st.Frame = 0
	return st, err
}

func (f frameless) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	out, err := f.b.Do(ctx, a)
	out.State.Frame = 0
	return out, err
}

func (f frameless) Close() error { return f.b.Close() }

func framelessFactory(t *testing.T) session.NeuralFactory {
	return func(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
		rec, err := testPool(t).Record(ctx, prog.Path, prog.Source, prog.Entry, trace.Limits{})
		if err != nil {
			return nil, err
		}
		return frameless{session.NewReplay(rec)}, nil
	}
}

// In neural mode a jump lands in a frame whose callers were never predicted: the
// stack shows that frame and one label frame for the unknown chain, with no source,
// no line and no scopes; never a caller line made up from the entry state.
func TestNeuralStackAfterAJumpShowsAGap(t *testing.T) {
	cfg := testConfig(t)
	cfg.Session.Neural = framelessFactory(t)
	c := pipeClient(t, cfg)
	path := program(t, "callchain.py")
	c.start(launchArgs(t, "callchain.py", "mode", "neural", "stopOnEntry", true))
	c.setBreakpoints(path, 5)
	expect[*dap.SetBreakpointsResponse](c)
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	c.step("continue")
	expect[*dap.ContinueResponse](c)
	c.expectStopped("breakpoint")
	frames := c.stack(1)
	if got := frameLines(frames); got != "count 5; (frames not predicted) 0; " {
		t.Fatalf("stack after the jump: %s", got)
	}
	gap := frames[1]
	if gap.PresentationHint != "label" || gap.Source != nil {
		t.Errorf("the gap frame: %+v", gap)
	}
	c.scopes(gap.Id)
	if sc := expect[*dap.ScopesResponse](c).Body.Scopes; len(sc) != 0 {
		t.Errorf("the gap frame has scopes: %+v", sc)
	}
	// Reverse: back by the backend's inverse steps to the entry (no earlier line 5).
	c.step("reverseContinue")
	expect[*dap.ReverseContinueResponse](c)
	c.expectStopped("entry")
	if got := frameLines(c.stack(1)); got != "<module> 1; " {
		t.Errorf("stack after reverseContinue: %s", got)
	}
}
