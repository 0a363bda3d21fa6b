package neural

import (
	"context"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestActionNarrowsTheState checks that what an action can lead to is enforced even
// on a random model: continue gives an exit state, inv_step_call the function's
// inputs (a call state at its def line), step_return a return, an exception or the
// exit.
func TestActionNarrowsTheState(t *testing.T) {
	pool := newPool(t)
	for seed := int64(1); seed <= 4; seed++ {
		b := countSession(t, pool, Options{Temperature: 1, Seed: seed}, false)
		ctx := context.Background()
		if _, err := b.Entry(ctx); err != nil {
			t.Fatal(err)
		}
		out, err := b.Do(ctx, grammar.Action{Kind: grammar.StepReturn})
		if err != nil {
			t.Fatal(err)
		}
		if !out.Ended() && out.State.Event != grammar.EventReturn && out.State.Event != grammar.EventException {
			t.Errorf("seed %d: step_return led to a %s state", seed, out.State.Event)
		}
		if out.Ended() {
			continue
		}
		inv, err := b.Do(ctx, grammar.Action{Kind: grammar.InvStepCall})
		if err != nil {
			t.Fatal(err)
		}
		if inv.State.Event != grammar.EventCall || inv.State.Loc.Line != 1 {
			t.Errorf("seed %d: inv_step_call led to a %s state at line %d, want the call at count's def line 1", seed, inv.State.Event, inv.State.Loc.Line)
		}
		fwd, err := b.Do(ctx, grammar.Action{Kind: grammar.Continue})
		if err != nil {
			t.Fatal(err)
		}
		if !fwd.Ended() {
			t.Errorf("seed %d: continue led to a %s state, want an exit state", seed, fwd.State.Event)
		}
	}
}
