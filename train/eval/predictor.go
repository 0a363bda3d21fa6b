package eval

import (
	"context"

	"github.com/ndb-project/ndb/grammar"
)

// Prompt is what a predictor sees: a trajectory's context, direction, entry state and
// history, followed by the action whose outcome is asked.
type Prompt struct {
	Context   grammar.Context
	Direction grammar.Direction
	Start     grammar.State
	History   []grammar.Step
	Action    grammar.Action
	// Entry is the expression the trajectory's run called ("": unknown); the program
	// facts use it (grammar.Facts.EntryCode).
	Entry string `json:",omitempty"`
}

// FactsFunc returns the program facts of a prompt's program (nil: none).
type FactsFunc func(ctx context.Context, p Prompt) *grammar.Program

// Last returns the state the action starts from.
func (p Prompt) Last() grammar.State {
	if n := len(p.History); n > 0 {
		return p.History[n-1].State
	}
	return p.Start
}

// Next is what an action leads to: a state, or an exit state when Exit is set.
type Next struct {
	State grammar.State
	Exit  grammar.Exit
}

// Prediction is one predicted next state. Undecoded marks an answer the model did not
// finish in the grammar (the token budget ran out, or the prompt did not fit: then
// TooLong is set too): it is a miss whatever it holds, and is counted.
//
// Invented marks a state with a line, an event at a line or a local name that the
// program does not have, by its static facts (issue 12): what the program
// constraints rule out.
type Prediction struct {
	Next
	Undecoded bool
	TooLong   bool
	Invented  bool
	// Confidence is the model's confidence in each part (nil for a predictor that
	// has none, like the baseline).
	Confidence *grammar.Confidence
}

// Predictor predicts the outcome of a prompt's action: n answers (n > 1 only for
// sampling predictors; a greedy one may return one answer n times).
type Predictor interface {
	Name() string
	Predict(ctx context.Context, p Prompt, n int) ([]Prediction, error)
}

// Baseline is the predictor that knows no execution: it copies the last state.
//
//   - step_into, step_over, breakpoint, inv_step_into, inv_step_over: the last state
//     itself (same event, line and locals);
//   - step_return: a return at the same line whose value is the first local's repr
//     (for an entry call, "the function returns its first argument");
//   - inv_step_call: a call whose locals are the last state's (from a return state,
//     one argument holding the return value: "the input is the output");
//   - continue: the normal exit.
type Baseline struct{}

// Name is the baseline's label in the tables.
func (Baseline) Name() string { return "baseline (copy the last state)" }

// Predict returns the baseline's answer n times.
func (Baseline) Predict(_ context.Context, p Prompt, n int) ([]Prediction, error) {
	last := p.Last()
	var out Next
	switch p.Action.Kind {
	case grammar.Continue:
		out.Exit = grammar.ExitNormal
	case grammar.StepReturn:
		out.State = grammar.State{Event: grammar.EventReturn, Loc: last.Loc, Value: last.Value}
		if len(last.Locals) > 0 {
			out.State.Value = last.Locals[0].Repr
		}
	case grammar.InvStepCall:
		out.State = grammar.State{Event: grammar.EventCall, Loc: last.Loc, Locals: last.Locals.Clone()}
		if !last.Event.HasLocals() {
			out.State.Locals = grammar.Locals{{Name: "_", Repr: last.Value}}
		}
	default:
		out.State = last
	}
	preds := make([]Prediction, max(n, 1))
	for i := range preds {
		preds[i] = Prediction{Next: out}
	}
	return preds, nil
}
