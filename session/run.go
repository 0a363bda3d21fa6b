package session

import (
	"context"
	"errors"

	"github.com/ndb-project/ndb/grammar"
)

// Plan is what a debugger command asks of a session: one action (a step, a reverse
// step), or a continue: a breakpoint action over the breakpoint lines, a continue to
// the exit when there are none, or a walk step by step while the raised-exceptions
// filter is on; or a reverse continue (Back): back to the latest earlier state on a
// breakpoint line, or to the entry state (reverse.go).
type Plan struct {
	Action   grammar.Action
	Continue bool
	Back     bool
}

// PlanContinue is a debugger's continue.
var PlanContinue = Plan{Continue: true}

// PlanReverseContinue is a debugger's reverse continue (VS Code's Reverse button,
// which users read as "run backwards to the previous breakpoint").
var PlanReverseContinue = Plan{Back: true}

// PlanOf is the plan of one action of kind k.
func PlanOf(k grammar.ActionKind) Plan { return Plan{Action: grammar.Action{Kind: k}} }

// Forward reports whether the plan moves forward in the execution.
func (p Plan) Forward() bool { return !p.Back && (p.Continue || !p.Action.Kind.Inverse()) }

// String names the plan: "continue", "reverse continue", or the action's kind.
func (p Plan) String() string {
	if p.Back {
		return "reverse continue"
	}
	if p.Continue {
		return "continue"
	}
	return p.Action.Kind.String()
}

// StopReason is why a Run stopped.
type StopReason string

// The reasons of a stop.
const (
	StopStep       StopReason = "step"       // the action was done
	StopBreakpoint StopReason = "breakpoint" // a continue reached a breakpoint line (Stop.Hit)
	StopException  StopReason = "exception"  // a continue reached an exception (Stop.Exception)
	StopPause      StopReason = "pause"      // cancelled, or failed (Run's error says why)
	StopLimit      StopReason = "limit"      // the session took its MaxSteps actions
	StopExit       StopReason = "exit"       // the program ended (Stop.Exit)
	StopEntry      StopReason = "entry"      // a reverse continue reached the entry state
)

// Stop is where a Run left the session.
type Stop struct {
	Reason StopReason
	// Hit holds the breakpoint lines of a breakpoint stop.
	Hit []int
	// Exception is the exception's repr of an exception stop; Uncaught marks the
	// exception that ended the program (the uncaught filter walked back to it).
	Exception string
	Uncaught  bool
	// Exit is the exit state of an exit stop.
	Exit grammar.Exit
	// Note is a message for the user about the stop (a reverse continue that gave
	// up walking back), "" when none.
	Note string
}

// Filters are the exception filters of a continue.
type Filters struct {
	// Raised stops where an exception is raised, caught or not: the continue walks
	// step by step (each step counts against MaxSteps).
	Raised bool
	// Uncaught stops at the exception that ends the program: a continue that ends
	// with an error steps back to it.
	Uncaught bool
}

// SetFilters sets the exception filters of the next continues.
func (s *Session) SetFilters(f Filters) {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	s.filters = f
}

// Check reports whether a plan can start: ErrEnded for a forward plan after the
// program ended, ErrMaxSteps once the session took its MaxSteps actions.
func (s *Session) Check(p Plan) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Forward() && s.current.Ended() {
		return ErrEnded
	}
	if s.maxSteps > 0 && s.actions >= s.maxSteps {
		return ErrMaxSteps
	}
	return nil
}

// runSettings is what one Run reads of the settings, copied when it starts.
type runSettings struct {
	filters     Filters
	breakpoints map[int]bool
	// skipUncaught: the session stands on the uncaught exception itself (the
	// latest stop), so a continue goes on to the exit.
	skipUncaught bool
}

func (s *Session) settings() runSettings {
	s.cfgMu.Lock()
	o := runSettings{filters: s.filters, breakpoints: map[int]bool{}}
	for _, l := range s.breakpoints {
		o.breakpoints[l.Line] = true
	}
	s.cfgMu.Unlock()
	s.mu.Lock()
	o.skipUncaught = s.lastStop.Uncaught
	s.mu.Unlock()
	return o
}

// Run carries out a plan and returns where it stopped. A cancelled ctx stops it
// where the session stands (StopPause, no error), and so does the step limit
// (StopLimit). When an action fails, err says why and the Stop where the session
// stands: StopStep with ErrAtStart for a reverse step at the first state, else
// StopPause.
func (s *Session) Run(ctx context.Context, p Plan) (Stop, error) {
	stop, err := s.run(ctx, p, s.settings())
	s.mu.Lock()
	s.lastStop = stop
	s.mu.Unlock()
	return stop, err
}

func (s *Session) run(ctx context.Context, p Plan, o runSettings) (Stop, error) {
	if p.Back {
		return s.reverseContinue(ctx, o.breakpoints)
	}
	if !p.Continue {
		out, err := s.step(ctx, p.Action)
		if err != nil {
			return failed(err)
		}
		return stepStop(out), nil
	}
	var out Outcome
	var err error
	if o.filters.Raised {
		out, err = s.walk(ctx, o.breakpoints)
	} else {
		out, err = s.step(ctx, s.ContinueAction())
	}
	if err != nil {
		return failed(err)
	}
	if out.Exit == grammar.ExitError && o.filters.Uncaught && !o.skipUncaught {
		// The uncaught filter: back to the exception that ended the program.
		if back, err := s.step(ctx, grammar.Action{Kind: grammar.InvStepInto}); err == nil {
			return Stop{Reason: StopException, Exception: back.State.Value, Uncaught: true}, nil
		}
	}
	if out.Ended() {
		return Stop{Reason: StopExit, Exit: out.Exit}, nil
	}
	st := out.State
	switch {
	case st.Event == grammar.EventLine && o.breakpoints[st.Loc.Line]:
		return Stop{Reason: StopBreakpoint, Hit: []int{st.Loc.Line}}, nil
	case st.Event == grammar.EventException:
		return Stop{Reason: StopException, Exception: st.Value}, nil
	}
	return Stop{Reason: StopStep}, nil
}

// stepStop is the stop after one action: a step, or the exit.
func stepStop(out Outcome) Stop {
	if out.Ended() {
		return Stop{Reason: StopExit, Exit: out.Exit}
	}
	return Stop{Reason: StopStep}
}

// walk is a continue with the raised-exceptions filter: step_into until a line on a
// breakpoint, an exception raised (not one passing up from a callee), or the exit.
func (s *Session) walk(ctx context.Context, bps map[int]bool) (Outcome, error) {
	prev := s.Current()
	for {
		out, err := s.step(ctx, grammar.Action{Kind: grammar.StepInto})
		if err != nil || out.Ended() {
			return out, err
		}
		st := out.State
		if st.Event == grammar.EventLine && bps[st.Loc.Line] {
			return out, nil
		}
		propagating := prev.State.Event == grammar.EventException && prev.State.Value == st.Value
		if st.Event == grammar.EventException && !propagating {
			return out, nil
		}
		prev = out
	}
}

// step applies one action of a plan unless ctx was cancelled.
func (s *Session) step(ctx context.Context, a grammar.Action) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	return s.Do(ctx, a)
}

// failed turns an action's error into a stop where the session stands.
func failed(err error) (Stop, error) {
	switch {
	case errors.Is(err, context.Canceled):
		return Stop{Reason: StopPause}, nil
	case errors.Is(err, ErrMaxSteps):
		return Stop{Reason: StopLimit}, nil
	case errors.Is(err, ErrAtStart):
		return Stop{Reason: StopStep}, err
	}
	return Stop{Reason: StopPause}, err
}
