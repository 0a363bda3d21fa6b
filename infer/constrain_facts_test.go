package infer

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

const countPy = `def count(s, t):
    n = 0
    for c in s:
        if c == t:
            n += 1
    return n
`

// countProgram is count.py with its facts (grammar/testdata/count_facts.json, as
// trace/analyze.py computes them).
func countProgram(t testing.TB) (grammar.Context, *grammar.Program) {
	t.Helper()
	js, err := os.ReadFile("../grammar/testdata/count_facts.json")
	if err != nil {
		t.Fatal(err)
	}
	var f grammar.Facts
	if err := json.Unmarshal(js, &f); err != nil {
		t.Fatal(err)
	}
	ctx := grammar.NewContext("", countPy)
	p, err := grammar.NewProgram(ctx, &f)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, p
}

// TestProgramConstrainedDecoding samples states from the tiny model (random weights:
// it would write anything the grammar allows) under the program facts of count.py,
// after every action from several states: none names a line, an event at a line or a
// local the program does not have, and each decodes; under the grammar alone some do.
func TestProgramConstrainedDecoding(t *testing.T) {
	m, tok := loadTiny(t)
	v := NewVocab(tok)
	ctx, prog := countProgram(t)
	args := grammar.Locals{{Name: "s", Repr: "'berry'"}, {Name: "t", Repr: "'r'"}}
	starts := []grammar.State{
		{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: args, Frame: 1},
		{Event: grammar.EventLine, Loc: grammar.Loc{Line: 4}, Locals: append(args.Clone(), grammar.Var{Name: "n", Repr: "0"}, grammar.Var{Name: "c", Repr: "'b'"}), Frame: 1},
		{Event: grammar.EventReturn, Loc: grammar.Loc{Line: 6}, Value: "2", Frame: 1},
	}
	inventedGrammar := 0
	for _, withFacts := range []bool{true, false} {
		g := NewGenerator(m, v)
		g.Limits = Limits{MaxTokens: 96}
		if withFacts {
			g.Program = prog
		}
		s := NewSampler(1.0, 0, 7)
		for _, start := range starts {
			for _, kind := range grammar.AllActions {
				a := grammar.Action{Kind: kind}
				if kind == grammar.Breakpoint {
					a.Lines = []grammar.Loc{{Line: 5}}
				}
				dir := grammar.Forward
				if kind.Inverse() {
					dir = grammar.Inverse
				}
				text, err := grammar.EncodePrompt(grammar.Trajectory{Context: ctx, Direction: dir, Start: start}, a)
				if err != nil {
					t.Fatal(err)
				}
				g.BreakpointLines = a.Lines
				for k := 0; k < 3; k++ {
					gen, err := g.GenerateAfter(context.Background(), tok.Encode(text), ctx, dir, &start, kind, s)
					if err != nil {
						t.Fatalf("facts %v, %s from %s: %v", withFacts, kind, start.Event, err)
					}
					if gen.Exit != "" {
						continue
					}
					inv := prog.Invented(gen.State)
					if withFacts && inv {
						t.Errorf("%s from %s %d: %q invents a line or a name", kind, start.Event, start.Loc.Line, gen.Text)
					}
					if !withFacts && inv {
						inventedGrammar++
					}
					if withFacts && !gen.Forced && strings.Contains(gen.Text, "n += 1") && kind == grammar.StepInto && start.Event == grammar.EventCall {
						t.Errorf("step_into from the call reached line 5: %q", gen.Text)
					}
				}
			}
		}
	}
	t.Logf("the grammar alone invented %d of the samples", inventedGrammar)
	if inventedGrammar == 0 {
		t.Error("the grammar alone invented nothing: the test shows nothing")
	}
}

// TestMaskMatchesReferenceUnderFacts checks the fast mask against the reference on
// automaton states under count.py's facts (random walks after every action).
func TestMaskMatchesReferenceUnderFacts(t *testing.T) {
	_, tok := loadTiny(t)
	v := NewVocab(tok)
	ctx, prog := countProgram(t)
	prev := grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: 3}, Locals: grammar.Locals{{Name: "s", Repr: "'b'"}, {Name: "t", Repr: "'r'"}, {Name: "n", Repr: "0"}}, Frame: 1}
	var states []grammar.Automaton
	mask := make([]bool, len(v.bytes))
	for i, kind := range grammar.AllActions {
		a := grammar.Action{Kind: kind, Lines: []grammar.Loc{{Line: 4}, {Line: 6}}}
		dir := grammar.Forward
		if kind.Inverse() {
			dir = grammar.Inverse
		}
		for w := 0; w < 8; w++ {
			au := grammar.NewAutomaton(ctx, dir, &prev, kind, prog.Targets(&prev, a), Limits{MaxRepr: 8})
			for step := 0; step < 60 && !au.Done(); step++ {
				states = append(states, cloneAutomaton(au))
				n := v.allowedRef(&au, mask)
				if n == 0 {
					break
				}
				pick := (i*7 + w*13 + step*31) % n
				for id, ok := range mask {
					if ok {
						if pick == 0 {
							v.feed(&au, id)
							break
						}
						pick--
					}
				}
			}
		}
	}
	checkMasks(t, v, states)
}
