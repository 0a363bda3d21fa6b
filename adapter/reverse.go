package adapter

import (
	"context"
	"errors"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// planBack is reverseContinue: VS Code's Reverse button, which users read as "run
// backwards to the previous breakpoint". ndb's own "Reverse to Call" is the custom
// ndbReverseStep request with kind "call".
var planBack = plan{back: true}

// reverseWalkLimit caps the model's inverse steps of one reverse continue in neural
// and compare modes: the model never says it reached the first state, and each step
// is a prediction. The recorded backend walks to the first state exactly.
const reverseWalkLimit = 200

// reverseContinue walks back one state at a time (inv_step_into, so that callees are
// entered from their end) to the latest earlier state on a breakpoint line, or to the
// entry state when there is none: exact in recorded mode, where the walk ends at the
// first state of the execution; by the model's inverse steps in neural and compare
// modes, where it ends at a state like the entry state (same event and line, with no
// caller on the derived stack) or after reverseWalkLimit
// steps, with a console note.
func (c *conn) reverseContinue(ctx context.Context, l *launched, bps map[int]bool) result {
	neural := l.cfg.Mode != ModeRecorded
	for n := 0; ; n++ {
		if neural && n == reverseWalkLimit {
			return result{stop: stopInfo{reason: "step"}, noteCategory: "console",
				note: fmt.Sprintf("ndb: reverse: no breakpoint line in the %d states the model predicted backwards; stopped there\n", n)}
		}
		out, err := c.do(ctx, l, grammar.Action{Kind: grammar.InvStepInto})
		if errors.Is(err, session.ErrAtStart) && n > 0 {
			return result{stop: stopInfo{reason: "entry"}}
		}
		if err != nil {
			return failed(err, "reverse")
		}
		st := out.State
		if st.Event == grammar.EventLine && bps[st.Loc.Line] {
			return result{stop: stopInfo{reason: "breakpoint"}, hit: []int{st.Loc.Line}}
		}
		if neural && st.Event == l.entry.Event && st.Loc == l.entry.Loc && len(l.sess.Stack()) == 1 {
			return result{stop: stopInfo{reason: "entry"}}
		}
	}
}
