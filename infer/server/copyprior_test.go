package server

import (
	"context"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/internal/golden"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/train/eval"
)

// The copy prior a client sends (ndb eval --copy-prior) reaches the predictions: a
// prior naming no action is refused with its name, and the server answers the next
// request; a large prior for step_return makes the answer the copy candidate, "the
// function returns its first argument", whatever the model wrote.
func TestCopyPriorOverTheWire(t *testing.T) {
	addr, _ := listenWith(t, Options{Log: zerolog.Nop(), MaxSessions: 1})
	ctx := context.Background()
	c, err := modelserver.Dial(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := stepReturnPrompt(t)
	predict := func(s modelserver.Sampling) (eval.Prediction, error) {
		var res modelserver.PredictResult
		err := c.Call(ctx, modelserver.MethodPredict, modelserver.PredictParams{
			Model: modelserver.Model{Dir: model(t)}, Sampling: s, Prompt: p, N: 1}, &res)
		if err == nil && len(res.Predictions) != 1 {
			t.Fatalf("%d predictions, want 1", len(res.Predictions))
		}
		if err != nil {
			return eval.Prediction{}, err
		}
		return res.Predictions[0], nil
	}

	if _, err := predict(modelserver.Sampling{CopyPrior: map[string]float64{"jump": 1}}); err == nil || !strings.Contains(err.Error(), `unknown action "jump"`) {
		t.Errorf("a copy prior for an unknown action: %v", err)
	}
	got, err := predict(modelserver.Sampling{CopyPrior: map[string]float64{"step_return": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	want := p.Start.Locals[0].Repr
	if got.Undecoded || got.State.Event != grammar.EventReturn || got.State.Value != want {
		t.Errorf("step_return under a prior of 1000 nats: %+v, want a return of the first argument %s", got, want)
	}
}

// stepReturnPrompt asks for the step_return from the entry call of a recorded run
// (testdata/golden) whose first argument is a string.
func stepReturnPrompt(t *testing.T) eval.Prompt {
	t.Helper()
	trs, err := golden.Trajectories("../../testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range trs {
		if tr.Direction == grammar.Forward && tr.Start.Event == grammar.EventCall && len(tr.Start.Locals) > 0 &&
			strings.HasPrefix(tr.Start.Locals[0].Repr, "'") {
			return eval.Prompt{Context: tr.Context, Direction: tr.Direction, Start: tr.Start,
				Action: grammar.Action{Kind: grammar.StepReturn}}
		}
	}
	t.Fatal("no recorded forward run starts at a call with a string argument")
	return eval.Prompt{}
}
