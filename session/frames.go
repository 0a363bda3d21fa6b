package session

import (
	"errors"

	"github.com/ndb-project/ndb/grammar"
)

// Thread is one execution a session shows: the session's own, and in compare mode
// also the recorded one. The numbers are the DAP thread ids.
type Thread int

// The threads of a session.
const (
	// ThreadMain is the session's own execution; in compare mode the predicted one.
	ThreadMain Thread = 1
	// ThreadRecorded is compare mode's recorded execution.
	ThreadRecorded Thread = 2

	threadCount = 3
)

// ErrNoThread is returned for a thread the session does not have.
var ErrNoThread = errors.New("no such thread")

// Threads lists the session's threads: ThreadMain, and ThreadRecorded in compare mode.
func (s *Session) Threads() []Thread {
	if s.cmp != nil {
		return []Thread{ThreadMain, ThreadRecorded}
	}
	return []Thread{ThreadMain}
}

// ThreadName names a thread: "main", or "predicted" and "recorded" in compare mode.
func (s *Session) ThreadName(t Thread) string {
	switch {
	case s.cmp == nil:
		return "main"
	case t == ThreadRecorded:
		return "recorded"
	}
	return "predicted"
}

// Frames returns a thread's derived call stack, innermost frame first (empty once
// the program ended), and the thread's current outcome.
func (s *Session) Frames(t Thread) ([]Frame, Outcome, error) {
	switch {
	case t == ThreadMain:
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.current.Ended() {
			return nil, s.current, nil
		}
		return s.stack.snapshot(), s.current, nil
	case t == ThreadRecorded && s.cmp != nil:
		out, frames := s.cmp.Recorded()
		return frames, out, nil
	}
	return nil, Outcome{}, ErrNoThread
}

// Differences returns how the predicted and recorded sides' current outcomes differ
// in compare mode (nil otherwise, and when they agree).
func (s *Session) Differences() []Difference {
	if s.cmp == nil {
		return nil
	}
	return s.cmp.Differences()
}

// Compare returns the compare backend of a compare-mode session (nil otherwise):
// both sides' outcomes, and why the recorded side did not move.
func (s *Session) Compare() *Compare { return s.cmp }

// FrameView is what one frame of a thread's stack shows.
type FrameView struct {
	// State is the thread's current state for the innermost frame, else the latest
	// state visited in that frame instance (zero when none is known).
	State grammar.State
	// Locals are the frame's locals: the state's own, or those of the latest state
	// of the frame that had locals (for return, exception and inv_line_call states,
	// and for callers). HasLocals is false when none are known.
	Locals    grammar.Locals
	HasLocals bool
	// Top marks the innermost frame.
	Top bool
	// Confidence is the model's confidence in the innermost frame's state when the
	// model predicted it (nil otherwise, and for callers).
	Confidence *grammar.Confidence
}

// Frame returns what frame f, at index (0 = innermost) of thread t's stack, shows.
func (s *Session) Frame(t Thread, index int, f Frame) FrameView {
	v := FrameView{Top: index == 0}
	if v.Top {
		_, out, _ := s.Frames(t)
		v.State, v.Confidence = out.State, out.Confidence
		if v.State.Event.HasLocals() {
			v.Locals, v.HasLocals = v.State.Locals, true
			return v
		}
	}
	if f.ID > 0 && t > 0 && int(t) < threadCount {
		s.mu.Lock()
		last, ok := s.frames[t][f.ID]
		s.mu.Unlock()
		if ok {
			if !v.Top {
				v.State = last
			}
			v.Locals, v.HasLocals = last.Locals, true
		}
	}
	return v
}

// Evaluate evaluates an expression over a frame's locals (see Eval): watch, hover
// and REPL alike, without running the program. On the innermost frame of a return
// state __return__ names the return value, of an exception state __exception__ the
// exception.
func (s *Session) Evaluate(t Thread, index int, f Frame, expr string) (*grammar.ReprNode, error) {
	v := s.Frame(t, index, f)
	env := func(name string) (string, bool) {
		if r, ok := v.Locals.Get(name); ok {
			return r, true
		}
		switch {
		case v.Top && name == "__return__" && v.State.Event == grammar.EventReturn,
			v.Top && name == "__exception__" && v.State.Event == grammar.EventException:
			return v.State.Value, true
		}
		return "", false
	}
	return Eval(expr, env)
}

// remember notes the current state of each thread in frames (s.mu held).
func (s *Session) remember() {
	note := func(t Thread, o Outcome) {
		if !o.Ended() && o.State.Event.HasLocals() && o.State.Frame != 0 {
			s.frames[t][o.State.Frame] = o.State
		}
	}
	note(ThreadMain, s.current)
	if s.cmp != nil {
		r, _ := s.cmp.Recorded()
		note(ThreadRecorded, r)
	}
}
