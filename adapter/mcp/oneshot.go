package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/session/comparereport"
)

// maxSamples bounds predict's n.
const maxSamples = 16

// predict is `ndb predict`: a neural session that predicts the outcome of one action
// from the entry state (session.Peek), n times, and is closed.
func (s *Server) predict(ctx context.Context, req *sdk.CallToolRequest, in PredictInput) (*sdk.CallToolResult, PredictOutput, error) {
	a, err := grammar.ParseActionSpec(in.Action)
	if err != nil {
		return nil, PredictOutput{}, fmt.Errorf(`"action": %v`, strings.TrimPrefix(err.Error(), "grammar: "))
	}
	n := in.N
	if n == 0 {
		n = 1
	}
	if n < 1 || n > maxSamples {
		return nil, PredictOutput{}, fmt.Errorf(`"n" must be 1 to %d, not %d`, maxSamples, in.N)
	}
	done, err := s.reg.reserve()
	if err != nil {
		return nil, PredictOutput{}, err
	}
	defer done()
	sess, err := s.open(ctx, openArgs{program: in.Program, entry: in.Entry, mode: session.ModeNeural, model: in.Model, temperature: in.Temperature, seed: in.Seed})
	if err != nil {
		return nil, PredictOutput{}, err
	}
	defer sess.Close()
	if a.Kind == grammar.Breakpoint {
		var lines []int
		for _, l := range a.Lines {
			lines = append(lines, l.Line)
		}
		if err := checkLines(sess, lines, `"action"`); err != nil {
			return nil, PredictOutput{}, err
		}
	}
	gctx := sess.Program().Context
	out := PredictOutput{Action: a.Spec(), Entry: pointOf(gctx, sess.Current())}
	var b strings.Builder
	fmt.Fprintf(&b, "from %s\n%s ->", out.Entry.Text(), a.Spec())
	for i := range n {
		progress(ctx, req, float64(i), float64(n), fmt.Sprintf("sample %d of %d", i+1, n))
		o, err := sess.Peek(ctx, a)
		if err != nil {
			if ctx.Err() != nil {
				return nil, PredictOutput{}, ctx.Err()
			}
			return nil, PredictOutput{}, fmt.Errorf("the prediction failed: %v", err)
		}
		p := pointOf(gctx, o)
		out.Predictions = append(out.Predictions, p)
		if n > 1 {
			fmt.Fprintf(&b, "\n%d. %s", i+1, p.Text())
		} else {
			b.WriteString(" " + p.Text())
		}
	}
	progress(ctx, req, float64(n), float64(n), "done")
	return text("%s", b.String()), out, nil
}

// compare is `ndb compare`: a compare session takes the actions (the model's
// prediction and the recorded run in lockstep), reported step by step with the
// differences and the summary; the session is closed.
func (s *Server) compare(ctx context.Context, req *sdk.CallToolRequest, in CompareInput) (*sdk.CallToolResult, CompareOutput, error) {
	if len(in.Actions) == 0 {
		return nil, CompareOutput{}, fmt.Errorf(`"actions" is empty: give the actions to take, such as ["step_into", "step_over"]`)
	}
	actions := make([]grammar.Action, len(in.Actions))
	for i, spec := range in.Actions {
		a, err := grammar.ParseActionSpec(spec)
		if err != nil {
			return nil, CompareOutput{}, fmt.Errorf(`"actions"[%d]: %v`, i, strings.TrimPrefix(err.Error(), "grammar: "))
		}
		actions[i] = a
	}
	done, err := s.reg.reserve()
	if err != nil {
		return nil, CompareOutput{}, err
	}
	defer done()
	sess, err := s.open(ctx, openArgs{program: in.Program, entry: in.Entry, mode: session.ModeCompare, model: in.Model})
	if err != nil {
		return nil, CompareOutput{}, err
	}
	defer sess.Close()
	// One action at a time, so that progress follows the walk.
	steps, err := comparereport.Play(ctx, sess, nil)
	for i := 0; err == nil && i < len(actions) && !steps[len(steps)-1].Failed(); i++ {
		progress(ctx, req, float64(i), float64(len(actions)), actions[i].Spec())
		var more []comparereport.Step
		more, err = comparereport.Play(ctx, sess, actions[i:i+1])
		if len(more) > 1 {
			steps = append(steps, more[1:]...)
		}
	}
	if err != nil {
		return nil, CompareOutput{}, err
	}
	progress(ctx, req, float64(len(actions)), float64(len(actions)), "done")
	rep := comparereport.Report{Program: sess.Program().Path, Entry: in.Entry, Actions: strings.Join(in.Actions, ","), Context: sess.Program().Context, Steps: steps}
	out := compareOutput(rep)
	var b strings.Builder
	comparereport.WriteText(&b, rep, comparereport.TextOptions{Width: 32})
	return text("%s", b.String()), out, nil
}

func compareOutput(rep comparereport.Report) CompareOutput {
	var out CompareOutput
	for _, st := range rep.Steps {
		cs := CompareStep{Action: st.Title(), Matches: st.Exact(), Error: st.Err, RecordedError: st.RecordedErr}
		if !st.Failed() {
			p, r := pointOf(rep.Context, st.Predicted), pointOf(rep.Context, st.Recorded)
			cs.Predicted, cs.Recorded = &p, &r
			cs.Differences = differences(st.Diffs)
		}
		out.Steps = append(out.Steps, cs)
	}
	sum := rep.Summarize()
	out.Summary = CompareSummary{Steps: sum.Steps, Exact: sum.Exact.Match, ExactPercent: sum.Exact.Percent(), EntryMatches: sum.Entry, Stopped: sum.Stopped}
	return out
}
