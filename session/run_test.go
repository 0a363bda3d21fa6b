package session_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

var (
	poolOnce sync.Once
	pool     *trace.Pool
	poolErr  error
)

// testPool is one tracer pool shared by the tests that open sessions.
func testPool(t *testing.T) *trace.Pool {
	t.Helper()
	poolOnce.Do(func() {
		pool, poolErr = trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1, Log: zerolog.Nop()})
	})
	if poolErr != nil {
		t.Skipf("no tracer: %v", poolErr)
	}
	return pool
}

// open opens a test program in mode, stopped at its entry state.
func open(t *testing.T, file, entry string, mode session.Mode, opt session.Options) *session.Session {
	t.Helper()
	src, err := os.ReadFile("../testdata/programs/" + file)
	if err != nil {
		t.Fatal(err)
	}
	opt.Tracer = testPool(t)
	s, err := session.Open(context.Background(), session.Program{Path: file, Source: string(src), Entry: entry}, mode, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func run(t *testing.T, s *session.Session, p session.Plan) session.Stop {
	t.Helper()
	stop, err := s.Run(context.Background(), p)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return stop
}

func line(s *session.Session) int { return s.Current().State.Loc.Line }

func TestRunStepsBreakpointsAndExit(t *testing.T) {
	s := open(t, "count.py", `count("berry", "r")`, session.ModeRecorded, session.Options{})
	if stop := run(t, s, session.PlanOf(grammar.StepInto)); stop.Reason != session.StopStep || line(s) != 2 {
		t.Fatalf("step_into: %+v at line %d", stop, line(s))
	}
	// Line 1 is a def (no line event there): it is no breakpoint.
	s.SetBreakpoints([]grammar.Loc{{Line: 5}, {Line: 7}})
	stop := run(t, s, session.PlanContinue)
	if stop.Reason != session.StopBreakpoint || len(stop.Hit) != 1 || stop.Hit[0] != 5 || line(s) != 5 {
		t.Fatalf("continue to the breakpoint: %+v at line %d", stop, line(s))
	}
	s.SetBreakpoints(nil)
	if stop := run(t, s, session.PlanContinue); stop.Reason != session.StopExit || stop.Exit != grammar.ExitNormal {
		t.Fatalf("continue to the end: %+v", stop)
	}
	if err := s.Check(session.PlanOf(grammar.StepOver)); !errors.Is(err, session.ErrEnded) {
		t.Errorf("a forward plan after the end: %v", err)
	}
	if err := s.Check(session.PlanOf(grammar.InvStepOver)); err != nil {
		t.Errorf("a reverse plan after the end: %v", err)
	}
}

func TestRunExceptionFilters(t *testing.T) {
	const entry = `lookup({"a": 1, "b": 2}, ["a", "c"])`
	t.Run("none", func(t *testing.T) {
		s := open(t, "exception_uncaught.py", entry, session.ModeRecorded, session.Options{})
		if stop := run(t, s, session.PlanContinue); stop.Reason != session.StopExit || stop.Exit != grammar.ExitError {
			t.Fatalf("continue: %+v", stop)
		}
	})
	t.Run("uncaught", func(t *testing.T) {
		s := open(t, "exception_uncaught.py", entry, session.ModeRecorded, session.Options{})
		s.SetFilters(session.Filters{Uncaught: true})
		stop := run(t, s, session.PlanContinue)
		if stop.Reason != session.StopException || !stop.Uncaught || stop.Exception != "KeyError('c')" {
			t.Fatalf("continue with the uncaught filter: %+v", stop)
		}
		if st := s.Current().State; st.Event != grammar.EventException || st.Func != "lookup" {
			t.Errorf("stopped at %+v, want the exception that ended lookup", st)
		}
		// From the uncaught exception itself, continue goes on to the exit.
		if stop := run(t, s, session.PlanContinue); stop.Reason != session.StopExit {
			t.Fatalf("continue from the uncaught exception: %+v", stop)
		}
	})
	t.Run("raised", func(t *testing.T) {
		s := open(t, "exception_uncaught.py", entry, session.ModeRecorded, session.Options{})
		s.SetFilters(session.Filters{Raised: true})
		stop := run(t, s, session.PlanContinue)
		if stop.Reason != session.StopException || stop.Uncaught || s.Current().State.Func != "get" {
			t.Fatalf("continue with the raised filter: %+v in %s", stop, s.Current().State.Func)
		}
		// The exception passing up into lookup is the same one: no stop there.
		if stop := run(t, s, session.PlanContinue); stop.Reason != session.StopExit {
			t.Fatalf("continue after the raise: %+v", stop)
		}
	})
}

func TestRunStepLimit(t *testing.T) {
	s := open(t, "count.py", `count("berry", "r")`, session.ModeRecorded, session.Options{MaxSteps: 3})
	s.SetFilters(session.Filters{Raised: true}) // a continue walks step by step
	if stop := run(t, s, session.PlanContinue); stop.Reason != session.StopLimit {
		t.Fatalf("continue past maxSteps: %+v", stop)
	}
	if n := len(s.History()); n != 3 {
		t.Errorf("%d actions taken, want 3", n)
	}
	if err := s.Check(session.PlanOf(grammar.StepInto)); !errors.Is(err, session.ErrMaxSteps) {
		t.Errorf("a plan after maxSteps: %v", err)
	}
}

func TestRunAtStart(t *testing.T) {
	s := open(t, "count.py", `count("berry", "r")`, session.ModeRecorded, session.Options{})
	stop, err := s.Run(context.Background(), session.PlanOf(grammar.InvStepOver))
	if !errors.Is(err, session.ErrAtStart) || stop.Reason != session.StopStep {
		t.Fatalf("a reverse step at the start: %+v, %v", stop, err)
	}
}

// waiting is a backend whose actions wait until they are cancelled.
type waiting struct{ started chan struct{} }

func (w *waiting) Entry(context.Context) (grammar.State, error) {
	return grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{}}, nil
}

func (w *waiting) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	close(w.started)
	<-ctx.Done()
	return session.Outcome{}, ctx.Err()
}

func (w *waiting) Close() error { return nil }

func TestRunPause(t *testing.T) {
	w := &waiting{started: make(chan struct{})}
	factory := func(context.Context, *session.Program, session.Options) (session.Backend, error) { return w, nil }
	s := open(t, "count.py", `count("berry", "r")`, session.ModeNeural, session.Options{Neural: factory})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-w.started; cancel() }()
	stop, err := s.Run(ctx, session.PlanOf(grammar.StepOver))
	if err != nil || stop.Reason != session.StopPause || line(s) != 1 {
		t.Fatalf("a cancelled step: %+v, %v at line %d", stop, err, line(s))
	}
}

func TestOpenNeuralNeedsAFactory(t *testing.T) {
	if session.NeuralAvailable() {
		t.Skip("a neural factory is registered")
	}
	src, err := os.ReadFile("../testdata/programs/count.py")
	if err != nil {
		t.Fatal(err)
	}
	_, err = session.Open(context.Background(), session.Program{Path: "count.py", Source: string(src)}, session.ModeCompare, session.Options{Tracer: testPool(t)})
	if !errors.Is(err, session.ErrNoNeural) {
		t.Fatalf("compare mode without a neural factory: %v", err)
	}
}

func TestOpenProgramErrors(t *testing.T) {
	for _, mode := range []session.Mode{session.ModeRecorded, session.ModeNeural} {
		factory := func(context.Context, *session.Program, session.Options) (session.Backend, error) {
			t.Fatal("the backend was built for a program with a syntax error")
			return nil, nil
		}
		_, err := session.Open(context.Background(), session.Program{Path: "bad.py", Source: "def f(:\n"}, mode, session.Options{Tracer: testPool(t), Neural: factory})
		var pe *session.ProgramError
		if !errors.As(err, &pe) || pe.Kind != "syntax" {
			t.Errorf("%s: a syntax error gave %v", mode, err)
		}
	}
}

// A reverse continue walks back to the latest earlier state on a breakpoint line,
// then, with none earlier, to the entry state; it is not a forward plan.
func TestRunReverseContinue(t *testing.T) {
	if session.PlanReverseContinue.Forward() {
		t.Fatal("a reverse continue is forward")
	}
	s := open(t, "callchain.py", "", session.ModeRecorded, session.Options{})
	s.SetBreakpoints([]grammar.Loc{{Line: 5}})
	run(t, s, session.PlanContinue)
	run(t, s, session.PlanContinue) // the second stop on line 5
	stop := run(t, s, session.PlanReverseContinue)
	if stop.Reason != session.StopBreakpoint || len(stop.Hit) != 1 || stop.Hit[0] != 5 {
		t.Fatalf("reverse continue: %+v", stop)
	}
	if n, _ := s.Current().State.Locals.Get("n"); n != "0" {
		t.Errorf("reverse continue stopped at the wrong line-5 state: %v", s.Current().State.Locals)
	}
	if stop := run(t, s, session.PlanReverseContinue); stop.Reason != session.StopEntry || line(s) != 1 {
		t.Errorf("reverse continue with no earlier breakpoint line: %+v at line %d", stop, line(s))
	}
}

// The neural backend gets the program facts of the launch's entry: the function the
// entry calls has a single frame (the breakpoint and read-only-parameter rules), and
// a script run as a whole has no entry function.
func TestNeuralFactsKnowTheEntry(t *testing.T) {
	for _, c := range []struct{ entry, want string }{{`count("berry", "r")`, "count"}, {"", ""}} {
		var facts *grammar.Facts
		factory := func(_ context.Context, prog *session.Program, _ session.Options) (session.Backend, error) {
			facts = prog.Parsed.Facts
			return &waiting{started: make(chan struct{})}, nil
		}
		open(t, "count.py", c.entry, session.ModeNeural, session.Options{Neural: factory})
		if facts == nil {
			t.Fatalf("entry %q: no facts", c.entry)
		}
		got := ""
		if facts.EntryCode != nil {
			got = facts.Codes[*facts.EntryCode].Name
		}
		if got != c.want {
			t.Errorf("entry %q: the facts name %q as the entry's function, want %q", c.entry, got, c.want)
		}
	}
}
