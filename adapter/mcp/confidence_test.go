package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// sure stands in for a model that says how sure it is: every outcome of the wrapped
// backend gets a confidence, and n is the least certain part.
type sure struct{ session.Backend }

func (s sure) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	out, err := s.Backend.Do(ctx, a)
	if err != nil || out.Ended() {
		return out, err
	}
	c := &grammar.Confidence{Event: 0.99, Line: 0.9, Locals: 0.5, Value: 1, State: 0.4}
	for _, v := range out.State.Locals {
		p := 0.95
		if v.Name == "n" {
			p = 0.41
		}
		c.Vars = append(c.Vars, grammar.VarConfidence{Name: v.Name, P: p})
	}
	out.Confidence = c
	return out, nil
}

// A predicted state carries the model's confidence in the structured state and in
// the text; a recorded one carries none.
func TestStateCarriesConfidence(t *testing.T) {
	cfg := testConfig(t)
	edited := cfg.Session.Neural
	cfg.Session.Neural = func(ctx context.Context, p *session.Program, o session.Options) (session.Backend, error) {
		b, err := edited(ctx, p, o)
		if err != nil {
			return nil, err
		}
		return sure{b}, nil
	}
	cs := connect(t, newServer(t, cfg), nil)
	id, _ := start(t, cs, "neural")
	step(t, cs, id, "step_into")
	st, txt := step(t, cs, id, "step_over")
	c := st.Confidence
	if c == nil || c.State != 0.4 || c.Line != 0.9 || c.Locals["n"] != 0.41 || c.Least != "n" {
		t.Fatalf("predicted state's confidence: %+v", c)
	}
	if !strings.Contains(txt, "confidence 40% (least sure: n 41%)") {
		t.Errorf("text has no confidence: %q", txt)
	}

	rid, _ := start(t, cs, "recorded")
	rst, rtxt := step(t, cs, rid, "step_into")
	if rst.Confidence != nil || strings.Contains(rtxt, "confidence") {
		t.Errorf("a recorded state has a confidence: %+v %q", rst.Confidence, rtxt)
	}
}
