package neural

import (
	"context"
	"errors"
	"testing"

	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/internal/golden"
	"github.com/ndb-project/ndb/models"
)

func TestCopyCandidate(t *testing.T) {
	line := func(l grammar.Locals) grammar.State {
		return grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: 6}, Locals: l}
	}
	call := grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1},
		Locals: grammar.Locals{{Name: "s", Repr: "'ab'"}, {Name: "t", Repr: "'b'"}}}
	ret := grammar.State{Event: grammar.EventReturn, Loc: grammar.Loc{Line: 6}, Value: "3"}
	cases := []struct {
		name      string
		kind      grammar.ActionKind
		prev, got grammar.State
		want      *grammar.State
	}{
		{"breakpoint: the arguments keep their values, new names are the model's",
			grammar.Breakpoint, call, line(grammar.Locals{{Name: "s", Repr: "'a'"}, {Name: "t", Repr: "'b'"}, {Name: "n", Repr: "1"}}),
			&grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: 6}, Locals: grammar.Locals{{Name: "s", Repr: "'ab'"}, {Name: "t", Repr: "'b'"}, {Name: "n", Repr: "1"}}}},
		{"breakpoint: nothing to change", grammar.Breakpoint, call, line(call.Locals), nil},
		{"inv_step_call from a return: the input is the output",
			grammar.InvStepCall, ret, grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{{Name: "s", Repr: "'x'"}, {Name: "t", Repr: "'y'"}}},
			&grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{{Name: "s", Repr: "3"}, {Name: "t", Repr: "'y'"}}}},
		{"step_return: the first argument comes back",
			grammar.StepReturn, call, ret, &grammar.State{Event: grammar.EventReturn, Loc: grammar.Loc{Line: 6}, Value: "'ab'"}},
		{"step_over has no candidate", grammar.StepOver, call, line(grammar.Locals{{Name: "s", Repr: "'a'"}}), nil},
		{"an exception is not a return", grammar.StepReturn, call, grammar.State{Event: grammar.EventException, Loc: grammar.Loc{Line: 6}, Value: "ValueError()"}, nil},
	}
	for _, c := range cases {
		got, ok := CopyCandidate(c.kind, c.prev, c.got)
		if ok != (c.want != nil) || (ok && !got.Equal(*c.want)) {
			t.Errorf("%s: %+v %v, want %+v", c.name, got, ok, c.want)
		}
	}
	// The model's answer itself is left as it was.
	got := line(grammar.Locals{{Name: "s", Repr: "'a'"}})
	CopyCandidate(grammar.Breakpoint, call, got)
	if got.Locals[0].Repr != "'a'" {
		t.Errorf("the answer was changed: %+v", got)
	}
}

func TestStopCandidate(t *testing.T) {
	call := grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Frame: 1,
		Locals: grammar.Locals{{Name: "s", Repr: "'ab'"}, {Name: "t", Repr: "'b'"}}}
	bp := func(lines ...grammar.Loc) grammar.Action {
		return grammar.Action{Kind: grammar.Breakpoint, Lines: lines}
	}
	got, ok := StopCandidate(bp(grammar.Loc{Line: 6}), call)
	want := grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: 6}, Frame: 1, Locals: call.Locals}
	if !ok || !got.Equal(want) {
		t.Errorf("a breakpoint on line 6: %+v %v, want %+v", got, ok, want)
	}
	got.Locals[0].Repr = "0"
	if call.Locals[0].Repr != "'ab'" {
		t.Errorf("the last state was changed: %+v", call)
	}
	ret := grammar.State{Event: grammar.EventReturn, Loc: grammar.Loc{Line: 6}, Value: "3"}
	for name, c := range map[string]struct {
		a    grammar.Action
		prev grammar.State
	}{
		"two lines":              {bp(grammar.Loc{Line: 5}, grammar.Loc{Line: 6}), call},
		"another file":           {bp(grammar.Loc{File: "lib.py", Line: 6}), call},
		"a return has no locals": {bp(grammar.Loc{Line: 6}), ret},
		"not a breakpoint":       {grammar.Action{Kind: grammar.Continue}, call},
	} {
		if got, ok := StopCandidate(c.a, c.prev); ok {
			t.Errorf("%s: a candidate %+v", name, got)
		}
	}
}

// TestGenerateKeepsTheLikelierAnswer checks with the bundled model, after every
// breakpoint, step_return and inv_step_call of the golden trajectories, that Generate
// returns the greedy answer or its copy candidate, whichever the model finds likelier.
func TestGenerateKeepsTheLikelierAnswer(t *testing.T) {
	dir, err := models.DefaultDir()
	if err != nil {
		t.Skipf("no bundled model: %v", err)
	}
	m, tok, err := Load(dir, gotch.CPU)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	g := infer.NewGenerator(m, infer.NewVocab(tok))
	g.Limits = infer.Limits{MaxTokens: 160, MaxRepr: 60}
	ctx, s := context.Background(), infer.NewSampler(0, 0, 1)
	weighed, won := 0, 0
	check := func(used grammar.Trajectory, a grammar.Action) {
		text, err := grammar.EncodePrompt(used, a)
		if err != nil {
			t.Fatal(err)
		}
		ids := tok.Encode(text)
		prev := Last(used)
		g.BreakpointLines = a.Lines
		plain, err := Generate(ctx, g, ids, used, a, &prev, s, CopyOptions{Off: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Generate(ctx, g, ids, used, a, &prev, s, CopyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cand, ok := CopyCandidate(a.Kind, prev, plain.State)
		if !got.State.Equal(plain.State) {
			if plain.Exit != "" || !ok || !got.State.Equal(cand) || logProb(got)+DefaultCopyPrior[a.Kind] <= logProb(plain) {
				t.Errorf("%s: returned %+v (log-probability %.3f) over the greedy %+v (%.3f)", a.Kind, got.State, logProb(got), plain.State, logProb(plain))
			}
			weighed++
			won++
			return
		}
		if !ok || plain.Exit != "" || plain.Forced {
			return
		}
		ctext, err := stateText(used, a, cand)
		if err != nil {
			t.Fatal(err)
		}
		alt, err := g.ScoreAfter(ctx, ids, used.Context, used.Direction, &prev, a.Kind, ctext)
		if errors.Is(err, infer.ErrTextNotAllowed) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		weighed++
		if logProb(alt)+DefaultCopyPrior[a.Kind] > logProb(plain) {
			t.Errorf("%s: kept the greedy %+v (%.3f) over the likelier candidate %+v (%.3f)", a.Kind, plain.State, logProb(plain), alt.State, logProb(alt))
		}
	}
	for _, tr := range goldenTrajectories(t) {
		if weighed >= 12 && won >= 2 {
			break // enough seen both ways
		}
		for i, st := range tr.Steps {
			switch st.Action.Kind {
			case grammar.Breakpoint, grammar.StepReturn, grammar.InvStepCall:
				used := tr
				used.Steps = tr.Steps[:i]
				check(used, st.Action)
			}
		}
	}
	if weighed < 5 {
		t.Fatalf("%d candidates weighed: the test checks too little", weighed)
	}
	t.Logf("%d candidates weighed, %d chosen over the greedy answer", weighed, won)
}

// goldenTrajectories reads every trajectory of testdata/golden.
func goldenTrajectories(t testing.TB) []grammar.Trajectory {
	trs, err := golden.Trajectories("../../testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	return trs
}
