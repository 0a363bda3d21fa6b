package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

func (s *Server) startSession(ctx context.Context, req *sdk.CallToolRequest, in StartInput) (*sdk.CallToolResult, StartOutput, error) {
	mode := session.ModeNeural
	if in.Mode != "" {
		m, err := session.ParseMode(in.Mode)
		if err != nil {
			return nil, StartOutput{}, fmt.Errorf(`unknown "mode" %q: use neural, recorded or compare`, in.Mode)
		}
		mode = m
	}
	done, err := s.reg.reserve()
	if err != nil {
		return nil, StartOutput{}, err
	}
	defer done()
	progress(ctx, req, 0, 1, fmt.Sprintf("opening a %s session", mode))
	sess, err := s.open(ctx, openArgs{program: in.Program, entry: in.Entry, mode: mode, model: in.Model, temperature: in.Temperature, seed: in.Seed})
	if err != nil {
		return nil, StartOutput{}, err
	}
	if err := checkLines(sess, in.Breakpoints, `"breakpoints"`); err != nil {
		sess.Close()
		return nil, StartOutput{}, err
	}
	locs := make([]grammar.Loc, len(in.Breakpoints))
	for i, n := range in.Breakpoints {
		locs[i] = grammar.Loc{Line: n}
	}
	sess.SetBreakpoints(locs)
	// As in the DAP server's default: a continue that ends in an uncaught exception
	// stops at it first (stop "exception"); the next continue goes on to the exit.
	sess.SetFilters(session.Filters{Uncaught: true})
	id, err := s.reg.add(sess)
	if err != nil {
		sess.Close()
		return nil, StartOutput{}, err
	}
	done()
	progress(ctx, req, 1, 1, "session "+id+" opened")
	st := stateOf(sess, "entry")
	s.cfg.Log.Info().Str("session", id).Str("mode", string(mode)).Str("program", sess.Program().Path).Msg("session opened")
	return text("session %s (%s)\n%s", id, mode, st.Text()), StartOutput{Session: id, Mode: string(mode), State: st}, nil
}

// run carries out a plan on a session and answers the state it stopped at.
func (s *Server) run(ctx context.Context, req *sdk.CallToolRequest, id string, p session.Plan, lines []int) (*sdk.CallToolResult, State, error) {
	e, cctx, release, err := s.reg.acquire(ctx, id)
	if err != nil {
		return nil, State{}, err
	}
	defer release()
	if lines != nil {
		if err := checkLines(e.sess, lines, `"lines"`); err != nil {
			return nil, State{}, err
		}
	}
	progress(ctx, req, 0, 1, p.String())
	stop, err := e.sess.Run(cctx, p)
	if err != nil {
		return nil, State{}, stepError(e.sess, p, err)
	}
	if stop.Reason == session.StopPause {
		if e.ctx.Err() != nil {
			return nil, State{}, fmt.Errorf("session %s was ended while it was stepping", id)
		}
		if ctx.Err() != nil {
			return nil, State{}, ctx.Err()
		}
	}
	progress(ctx, req, 1, 1, p.String())
	reason := string(stop.Reason)
	if cur := e.sess.Current(); lines != nil && !cur.Ended() && cur.State.Event == grammar.EventLine && slices.Contains(lines, cur.State.Loc.Line) {
		reason = string(session.StopBreakpoint)
	}
	st := stateOf(e.sess, reason)
	if stop.Reason == session.StopLimit {
		return text("the session took its %d actions (the step limit): end it and start a new one\n%s", s.cfg.Session.MaxSteps, st.Text()), st, nil
	}
	return text("%s", st.Text()), st, nil
}

// stepError explains why a plan could not be carried out.
func stepError(sess *session.Session, p session.Plan, err error) error {
	switch {
	case errors.Is(err, session.ErrAtStart):
		return fmt.Errorf("%s: already at the first state, there is nothing earlier: step forward first", p)
	case errors.Is(err, session.ErrEnded):
		return fmt.Errorf("%s: the program has ended (exit: %s): the inv_ actions walk back into it, or end_session", p, sess.Current().Exit)
	}
	return fmt.Errorf("%s failed: %v", p, err)
}

func (s *Server) step(ctx context.Context, req *sdk.CallToolRequest, in StepInput) (*sdk.CallToolResult, State, error) {
	k, ok := grammar.ParseActionKind(in.Action)
	if !ok || k == grammar.Breakpoint {
		return nil, State{}, fmt.Errorf(`unknown "action" %q: use one of %s (run_to stops at lines)`, in.Action, joinAny(stepActions))
	}
	p := session.PlanOf(k)
	if k == grammar.Continue {
		p = session.PlanContinue
	}
	return s.run(ctx, req, in.Session, p, nil)
}

func (s *Server) runTo(ctx context.Context, req *sdk.CallToolRequest, in RunToInput) (*sdk.CallToolResult, State, error) {
	if len(in.Lines) == 0 {
		return nil, State{}, fmt.Errorf(`"lines" is empty: give at least one line number to run to`)
	}
	a := grammar.Action{Kind: grammar.Breakpoint}
	for _, n := range in.Lines {
		a.Lines = append(a.Lines, grammar.Loc{Line: n})
	}
	return s.run(ctx, req, in.Session, session.Plan{Action: a}, in.Lines)
}

func (s *Server) getState(ctx context.Context, req *sdk.CallToolRequest, in SessionInput) (*sdk.CallToolResult, GetStateOutput, error) {
	e, _, release, err := s.reg.acquire(ctx, in.Session)
	if err != nil {
		return nil, GetStateOutput{}, err
	}
	defer release()
	out := GetStateOutput{State: stateOf(e.sess, ""), Stack: []Frame{}}
	gctx := e.sess.Program().Context
	var names []string
	for _, f := range e.sess.Stack() {
		out.Stack = append(out.Stack, Frame{Function: f.Func, File: f.Loc.File, Line: f.Loc.Line, Source: sourceText(gctx, f.Loc)})
		names = append(names, fmt.Sprintf("%s:%d", f.Func, f.Loc.Line))
	}
	txt := out.State.Text()
	if len(names) > 0 {
		txt += "\nstack: " + strings.Join(names, " < ")
	}
	return text("%s", txt), out, nil
}

func (s *Server) evaluate(ctx context.Context, req *sdk.CallToolRequest, in EvaluateInput) (*sdk.CallToolResult, EvaluateOutput, error) {
	e, _, release, err := s.reg.acquire(ctx, in.Session)
	if err != nil {
		return nil, EvaluateOutput{}, err
	}
	defer release()
	if strings.TrimSpace(in.Expression) == "" {
		return nil, EvaluateOutput{}, fmt.Errorf(`"expression" is empty: give a Python expression over the locals, such as n or s[0] == t`)
	}
	frames := e.sess.Stack()
	if len(frames) == 0 {
		return nil, EvaluateOutput{}, fmt.Errorf("the program has ended: there are no locals to evaluate over (step back with an inv_ action)")
	}
	v, err := e.sess.Evaluate(session.ThreadMain, 0, frames[0], in.Expression)
	if err != nil {
		return nil, EvaluateOutput{}, fmt.Errorf("cannot evaluate %q: %v", in.Expression, err)
	}
	return text("%s = %s", in.Expression, v.Text), EvaluateOutput{Expression: in.Expression, Value: v.Text}, nil
}

func (s *Server) setVariable(ctx context.Context, req *sdk.CallToolRequest, in SetVariableInput) (*sdk.CallToolResult, State, error) {
	e, _, release, err := s.reg.acquire(ctx, in.Session)
	if err != nil {
		return nil, State{}, err
	}
	defer release()
	if e.sess.Mode() == session.ModeRecorded {
		return nil, State{}, fmt.Errorf("set_variable needs a neural or compare session: a recorded session replays the real execution, whose values cannot change (start_session with mode neural)")
	}
	if strings.TrimSpace(in.Value) == "" {
		return nil, State{}, fmt.Errorf(`"value" is empty: give a Python repr such as 5, 'abc' or [1, 2]`)
	}
	if _, err := e.sess.SetVariable(in.Name, in.Value); err != nil {
		return nil, State{}, fmt.Errorf("cannot set %s: %v", in.Name, err)
	}
	st := stateOf(e.sess, "")
	return text("%s = %s\n%s", in.Name, in.Value, st.Text()), st, nil
}

func (s *Server) endSession(ctx context.Context, req *sdk.CallToolRequest, in SessionInput) (*sdk.CallToolResult, EndOutput, error) {
	if err := s.reg.end(in.Session); err != nil {
		return nil, EndOutput{}, err
	}
	s.cfg.Log.Info().Str("session", in.Session).Msg("session ended")
	return text("session %s ended", in.Session), EndOutput{Session: in.Session, Ended: true}, nil
}

func joinAny(vs []any) string {
	var ss []string
	for _, v := range vs {
		ss = append(ss, fmt.Sprint(v))
	}
	return strings.Join(ss, ", ")
}
