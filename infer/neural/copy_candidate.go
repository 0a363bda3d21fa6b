package neural

import (
	"context"
	"errors"
	"strings"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
)

// Generate writes the state that action a leads to from trajectory t, whose prompt is
// ids and whose last state is prev (infer.Generator.GenerateAfter). A greedy answer
// to an action whose outcome is often "nothing changed" (breakpoint, step_return,
// inv_step_call) is then weighed against that answer, the copy candidate
// (CopyCandidate): the model scores it under the same grammar and facts
// (infer.Generator.ScoreAfter), and the likelier of the two, after opt's prior for
// the candidate, is returned. A breakpoint answered with the program's end is weighed
// the same way against the stop at its line (StopCandidate). opt.Off turns the
// candidates off.
func Generate(ctx context.Context, g *infer.Generator, ids []int, t grammar.Trajectory, a grammar.Action, prev *grammar.State, s *infer.Sampler, opt CopyOptions) (infer.Generated, error) {
	got, err := g.GenerateAfter(ctx, ids, t.Context, t.Direction, prev, a.Kind, s)
	if err != nil || opt.Off || !s.Greedy() || got.Forced {
		return got, err
	}
	var cand grammar.State
	var ok bool
	if got.Exit != "" {
		cand, ok = StopCandidate(a, *prev)
	} else {
		cand, ok = CopyCandidate(a.Kind, *prev, got.State)
	}
	if !ok {
		return got, nil
	}
	text, err := stateText(t, a, cand)
	if err != nil {
		return got, nil // a candidate the encoder cannot write is no candidate
	}
	alt, err := g.ScoreAfter(ctx, ids, t.Context, t.Direction, prev, a.Kind, text)
	if errors.Is(err, infer.ErrTextNotAllowed) {
		return got, nil
	}
	if err != nil {
		return got, err
	}
	if logProb(alt)+opt.prior(a.Kind) > logProb(got) {
		return alt, nil
	}
	return got, nil
}

// CopyOptions say how Generate weighs a greedy answer against its copy candidate.
type CopyOptions struct {
	Off bool // no candidate: the greedy answer as the model wrote it
	// Prior is added to the candidate's log-probability (nats), per action: the
	// prior odds of "nothing changed" (nil: DefaultCopyPrior).
	Prior map[grammar.ActionKind]float64
}

// DefaultCopyPrior is the prior that the shipped model was measured with: fitted on
// the held-out function-level prompts (docs/decisions.md, "The copy candidate"), where
// the model underrates an unchanged argument when it infers a call's inputs.
var DefaultCopyPrior = map[grammar.ActionKind]float64{grammar.Breakpoint: 8, grammar.InvStepCall: 12}

func (o CopyOptions) prior(k grammar.ActionKind) float64 {
	if o.Prior == nil {
		return DefaultCopyPrior[k]
	}
	return o.Prior[k]
}

// CopyCandidate is the answer "nothing changed" to action k from prev, built on the
// model's own answer got (its event, line and names), false when there is none or it
// is got itself:
//   - breakpoint and inv_step_call: every local that prev has keeps prev's value (an
//     inv_step_call from a return state: the first argument is the returned value,
//     "the input is the output");
//   - step_return: the returned value is prev's first local ("the function returns
//     its first argument").
//
// These are the copy baseline's answers (eval.Baseline) where the model's answer is
// right about the rest.
func CopyCandidate(k grammar.ActionKind, prev, got grammar.State) (grammar.State, bool) {
	c := got
	c.Locals = got.Locals.Clone()
	switch k {
	case grammar.Breakpoint, grammar.InvStepCall:
		if !got.Event.HasLocals() || len(got.Locals) == 0 {
			return got, false
		}
		if prev.Event.HasLocals() {
			for i, v := range c.Locals {
				if p, ok := prev.Locals.Get(v.Name); ok {
					c.Locals[i].Repr = p
				}
			}
		} else if k == grammar.InvStepCall && prev.Event.HasValue() {
			c.Locals[0].Repr = prev.Value
		}
	case grammar.StepReturn:
		if got.Event != grammar.EventReturn || !prev.Event.HasLocals() || len(prev.Locals) == 0 {
			return got, false
		}
		c.Value = prev.Locals[0].Repr
	default:
		return got, false
	}
	return c, !c.Equal(got)
}

// StopCandidate is the answer "the breakpoint is hit and nothing changed" to a
// breakpoint action a from prev that the model answered with the program's end: a
// line state in prev's frame at a's one line, with prev's locals. False when a has
// several lines or one in another file, or prev has no locals. The grammar and the
// facts then judge it (a stop in another function, or one that needs names prev
// lacks, is refused).
func StopCandidate(a grammar.Action, prev grammar.State) (grammar.State, bool) {
	if a.Kind != grammar.Breakpoint || len(a.Lines) != 1 || a.Lines[0].File != "" || !prev.Event.HasLocals() {
		return grammar.State{}, false
	}
	return grammar.State{Event: grammar.EventLine, Loc: a.Lines[0], Frame: prev.Frame, Locals: prev.Locals.Clone()}, true
}

// stateText is the text of state st as the answer to action a after trajectory t.
func stateText(t grammar.Trajectory, a grammar.Action, st grammar.State) (string, error) {
	prompt, err := grammar.EncodePrompt(t, a)
	if err != nil {
		return "", err
	}
	t.Steps = append(t.Steps[:len(t.Steps):len(t.Steps)], grammar.Step{Action: a, State: st})
	full, err := grammar.EncodeTrajectory(t)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(full, prompt) {
		return "", errors.New("neural: the trajectory's text does not extend its prompt")
	}
	return full[len(prompt):], nil
}

// logProb is a generated state's log-probability under the constrained decoder: the
// sum over the tokens the model chose among several (forced ones count 1).
func logProb(g infer.Generated) float64 {
	var s float64
	for _, sc := range g.Scores {
		s += sc.LogP
	}
	return s
}
