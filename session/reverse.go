package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
)

// ReverseWalkLimit caps the model's inverse steps of one reverse continue in neural
// and compare modes: the model never says it reached the first state, and each step
// is a prediction. The recorded backend walks to the first state exactly.
const ReverseWalkLimit = 200

// reverseContinue walks back one state at a time (inv_step_into, so that callees are
// entered from their end) to the latest earlier state on a breakpoint line, or to the
// entry state when there is none: exact in recorded mode, where the walk ends at the
// first state of the execution; by the model's inverse steps in neural and compare
// modes, where it ends at a state like the entry state (same event and line, with no
// caller on the derived stack) or after ReverseWalkLimit steps, with a note.
func (s *Session) reverseContinue(ctx context.Context, bps map[int]bool) (Stop, error) {
	neural := !s.exactReverse()
	s.mu.Lock()
	entry := s.entry
	s.mu.Unlock()
	for n := 0; ; n++ {
		if neural && n == ReverseWalkLimit {
			return Stop{Reason: StopStep, Note: fmt.Sprintf("ndb: reverse: no breakpoint line in the %d states the model predicted backwards; stopped there\n", n)}, nil
		}
		out, err := s.step(ctx, grammar.Action{Kind: grammar.InvStepInto})
		if errors.Is(err, ErrAtStart) && n > 0 {
			return Stop{Reason: StopEntry}, nil
		}
		if err != nil {
			return failed(err)
		}
		st := out.State
		if st.Event == grammar.EventLine && bps[st.Loc.Line] {
			return Stop{Reason: StopBreakpoint, Hit: []int{st.Loc.Line}}, nil
		}
		if neural && st.Event == entry.Event && st.Loc == entry.Loc && len(s.Stack()) == 1 {
			return Stop{Reason: StopEntry}, nil
		}
	}
}

// exactReverse reports whether the backend walks back exactly to the first state
// of the execution (ErrAtStart there): the recorded one.
func (s *Session) exactReverse() bool {
	if s.mode != "" {
		return s.mode == ModeRecorded
	}
	_, ok := s.backend.(*Replay)
	return ok
}
