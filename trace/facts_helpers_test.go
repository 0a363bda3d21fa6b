package trace

import (
	"context"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// recordFacts records src's run of entry (at most 2,000 events) and builds its program
// facts over the recording's context; an error, or a program without facts, fails
// the test.
func recordFacts(t *testing.T, name, src, entry string) (*Recording, *grammar.Program) {
	t.Helper()
	rec, err := testPool(t).Record(context.Background(), name, src, entry, Limits{MaxEvents: 2000})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if rec.Parsed.Facts == nil {
		t.Fatalf("%s: no facts: %s", name, rec.Parsed.FactsError)
	}
	prog, err := grammar.NewProgram(rec.Context, rec.Parsed.Facts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rec, prog
}

// stateText is the text the model writes for next, the state action a leads to from
// prev.
func stateText(t *testing.T, ctx grammar.Context, dir grammar.Direction, prev grammar.State, a grammar.Action, next grammar.State) string {
	t.Helper()
	e := grammar.NewEncoder(ctx, dir)
	if _, err := e.Start(prev); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Action(a); err != nil {
		t.Fatal(err)
	}
	text, err := e.State(next)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// accepts reports whether the automaton, under prog's targets for action a from
// prev, accepts text as a whole state (limits far above any test's values).
func accepts(prog *grammar.Program, ctx grammar.Context, dir grammar.Direction, prev grammar.State, a grammar.Action, text string) bool {
	au := grammar.NewAutomaton(ctx, dir, &prev, a.Kind, prog.Targets(&prev, a), grammar.Limits{MaxRepr: 1 << 20, MaxVars: 1 << 10, MaxKey: 1 << 10})
	return au.FeedText(text) && au.Done()
}

// breakpointFromCall records src's run of entry and stops at a breakpoint on line
// from the entry's call: it returns the text of the state reached, which the facts
// must accept, and whether they accept another text in its place.
func breakpointFromCall(t *testing.T, name, src, entry string, line int) (string, func(string) bool) {
	t.Helper()
	rec, prog := recordFacts(t, name, src, entry)
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: line}}}
	prev := fwd.Nodes[0].State()
	j, exit, err := fwd.Do(0, a)
	if err != nil || exit {
		t.Fatalf("%s: breakpoint: %v (exit %v)", name, err, exit)
	}
	text := stateText(t, rec.Context, fwd.Dir, prev, a, fwd.Nodes[j].State())
	ok := func(text string) bool { return accepts(prog, rec.Context, fwd.Dir, prev, a, text) }
	if !ok(text) {
		t.Fatalf("%s: the truth %q is rejected", name, text)
	}
	return text, ok
}

// forceValue replays action a from each state of rec's forward tree for which pick
// names a variable, and returns how many it replayed: the state reached must be
// accepted, and the same text with that variable's value replaced by wrong(value)
// rejected (the value facts force it).
func forceValue(t *testing.T, rec *Recording, prog *grammar.Program, a grammar.Action,
	pick func(i int, prev grammar.State) (name string, ok bool), wrong func(value string) string) int {
	t.Helper()
	fwd := rec.Forward
	n := 0
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		name, ok := pick(i, prev)
		if !ok {
			continue
		}
		next, text := acceptedTruth(t, rec, prog, i, a)
		v, _ := next.Locals.Get(name)
		right := grammar.QuoteJSON(name) + ": " + grammar.QuoteJSON(v)
		bad := strings.Replace(text, right, grammar.QuoteJSON(name)+": "+grammar.QuoteJSON(wrong(v)), 1)
		if bad == text {
			t.Fatalf("%s from %s %d: %q lacks %s", a.Kind, prev.Event, prev.Loc.Line, text, right)
		}
		if accepts(prog, rec.Context, fwd.Dir, prev, a, bad) {
			t.Errorf("%s from %s %d: %q is accepted (the truth is %q)", a.Kind, prev.Event, prev.Loc.Line, bad, text)
		}
		n++
	}
	return n
}

// acceptedTruth replays action a from node i of rec's forward tree, which must lead
// to a state (not the exit), and returns that state and its text, which prog's
// targets must accept.
func acceptedTruth(t *testing.T, rec *Recording, prog *grammar.Program, i int, a grammar.Action) (grammar.State, string) {
	t.Helper()
	fwd := rec.Forward
	prev := fwd.Nodes[i].State()
	j, exit, err := fwd.Do(i, a)
	if err != nil || exit {
		t.Fatalf("node %d: %v (exit %v)", i, err, exit)
	}
	next := fwd.Nodes[j].State()
	text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
	if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
		t.Fatalf("%s from %s %d: the truth %q is rejected", a.Kind, prev.Event, prev.Loc.Line, text)
	}
	return next, text
}
