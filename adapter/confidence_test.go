package adapter

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// unsureReplay stands in for the neural backend: a replay of the real run whose
// every outcome comes with a confidence (n 62%, the other locals 90%, the line 92%,
// the whole state 41%).
type unsureReplay struct{ *session.Replay }

func (u unsureReplay) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	out, err := u.Replay.Do(ctx, a)
	if err != nil || out.Ended() {
		return out, err
	}
	c := &grammar.Confidence{Event: 0.99, Line: 0.92, Locals: 0.5, Value: 0.7, State: 0.41}
	for _, v := range out.State.Locals {
		p := 0.9
		if v.Name == "n" {
			p = 0.62
		}
		c.Vars = append(c.Vars, grammar.VarConfidence{Name: v.Name, P: p})
	}
	out.Confidence = c
	return out, nil
}

func unsureConfig(t *testing.T) Config {
	cfg := testConfig(t)
	cfg.Session.Neural = func(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
		rec, err := testPool(t).Record(ctx, prog.Path, prog.Source, prog.Entry, trace.Limits{})
		if err != nil {
			return nil, err
		}
		return unsureReplay{session.NewReplay(rec)}, nil
	}
	return cfg
}

// A predicted state shows its confidence: the stopped event's description, each
// local's type field (the value stays the plain repr), and a Confidence scope with
// the whole state first, then its parts least certain first.
func TestConfidenceShown(t *testing.T) {
	c := pipeClient(t, unsureConfig(t))
	c.start(launchArgs(t, "count.py", "mode", "neural", "stopOnEntry", true))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	if s := c.expectStopped("entry"); s.Body.Description != "Paused on entry" {
		t.Errorf("entry (not predicted): %q", s.Body.Description)
	}
	c.step("next")
	expect[*dap.NextResponse](c)
	c.expectStopped("step")
	c.step("next")
	expect[*dap.NextResponse](c)
	if s := c.expectStopped("step"); s.Body.Description != "Predicted: line 3 (41%)" {
		t.Errorf("stopped description: %q", s.Body.Description)
	}
	frames := c.stack(1)
	locals, _ := c.vars(c.scopeNamed(frames[0].Id, "Locals"))
	if n := locals["n"]; n.Value != "0" || n.Type != "int  62%" {
		t.Errorf("n: value %q, type %q", n.Value, n.Type)
	}
	if s := locals["s"]; s.Value != "'berry'" || s.Type != "str  90%" {
		t.Errorf("s: value %q, type %q", s.Value, s.Type)
	}
	conf, names := c.vars(c.scopeNamed(frames[0].Id, "Confidence"))
	if len(names) < 4 || names[0] != "(whole state)" || names[1] != "n" {
		t.Fatalf("Confidence scope: %v", names)
	}
	if conf["(whole state)"].Value != "41%" || conf["n"].Value != "62%  (0)" || conf["line"].Value != "92%  (3)" {
		t.Errorf("Confidence scope: %+v", conf)
	}
	last := 0.0
	for _, name := range names[1:] {
		var p float64
		if _, err := fmt.Sscanf(conf[name].Value, "%f%%", &p); err != nil {
			t.Fatalf("%s: %q: %v", name, conf[name].Value, err)
		}
		if p < last {
			t.Errorf("Confidence scope not least certain first: %v", names)
		}
		last = p
	}
}

// A recorded session has no Confidence scope and plain types.
func TestRecordedHasNoConfidence(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.start(launchArgs(t, "count.py", "stopOnEntry", true))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	c.step("next")
	expect[*dap.NextResponse](c)
	c.expectStopped("step")
	c.step("next")
	expect[*dap.NextResponse](c)
	if s := c.expectStopped("step"); s.Body.Description != "" {
		t.Errorf("recorded stop: %q", s.Body.Description)
	}
	frames := c.stack(1)
	c.scopes(frames[0].Id)
	for _, s := range expect[*dap.ScopesResponse](c).Body.Scopes {
		if s.Name == "Confidence" {
			t.Error("a recorded state has a Confidence scope")
		}
	}
	locals, _ := c.vars(c.scopeNamed(frames[0].Id, "Locals"))
	if n := locals["n"]; n.Type != "int" {
		t.Errorf("recorded n: type %q", n.Type)
	}
}

// minConfidence: a stop under it says the model is unsure.
func TestMinConfidence(t *testing.T) {
	c := pipeClient(t, unsureConfig(t))
	c.start(launchArgs(t, "count.py", "mode", "neural", "stopOnEntry", true, "minConfidence", 0.5))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	c.step("next")
	expect[*dap.NextResponse](c)
	if s := c.expectStopped("step"); s.Body.Description != "Predicted: line 2: the model is unsure here: 41%" {
		t.Errorf("stopped description: %q", s.Body.Description)
	}
}
