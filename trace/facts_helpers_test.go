package trace

import (
	"context"
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
