package adapter

import (
	"path/filepath"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// threadStack returns a thread's derived call stack, innermost frame first, and the
// thread's current outcome.
func threadStack(l *launched, thread int) ([]session.Frame, session.Outcome, error) {
	switch {
	case thread == threadMain || thread == 0:
		return l.sess.Stack(), l.sess.Current(), nil
	case thread == threadRecorded && l.cmp != nil:
		out, frames := l.cmp.Recorded()
		return frames, out, nil
	}
	return nil, session.Outcome{}, badThread(thread)
}

func (c *conn) source(l *launched) *dap.Source {
	return &dap.Source{Name: filepath.Base(l.prog.Path), Path: l.prog.Path}
}

// onStackTrace lists a thread's derived call stack (no execution: calls push, returns
// pop). Once the program ended the stack is empty.
func (c *conn) onStackTrace(req *dap.StackTraceRequest) (dap.ResponseMessage, error) {
	l, err := c.session(req.Command, true)
	if err != nil {
		return nil, err
	}
	thread := req.Arguments.ThreadId
	frames, _, err := threadStack(l, thread)
	if err != nil {
		return nil, err
	}
	if thread == 0 {
		thread = threadMain
	}
	start := min(max(req.Arguments.StartFrame, 0), len(frames))
	end := len(frames)
	if n := req.Arguments.Levels; n > 0 && start+n < end {
		end = start + n
	}
	out := make([]dap.StackFrame, 0, end-start)
	c.mu.Lock()
	for i := start; i < end; i++ {
		f := frames[i]
		id := c.frames.create(frameRef{thread: thread, index: i, frame: f, stop: c.stops})
		out = append(out, c.stackFrame(l, id, f))
	}
	c.mu.Unlock()
	return &dap.StackTraceResponse{Response: newResponse(&req.Request), Body: dap.StackTraceResponseBody{StackFrames: out, TotalFrames: len(frames)}}, nil
}

// frameState returns the state a frame shows: the thread's current state for the
// innermost frame, else the latest state visited in that frame instance (ok false
// when none is known). locals are the frame's locals: the state's own, or those of
// the latest state of the frame that had locals (for return, exception and
// inv_line_call states, and for callers).
func frameState(l *launched, ref frameRef) (st grammar.State, locals grammar.Locals, haveLocals, top bool) {
	top = ref.index == 0
	if top {
		_, out, _ := threadStack(l, ref.thread)
		st = out.State
		if st.Event.HasLocals() {
			return st, st.Locals, true, true
		}
	}
	if ref.frame.Gap {
		return st, nil, false, false
	}
	if ref.frame.Locals != nil {
		// The backend knows the frame's locals (the recorded one's real stack).
		if !top {
			st = grammar.State{Event: grammar.EventLine, Loc: ref.frame.Loc, Frame: ref.frame.ID, Func: ref.frame.Func, Locals: ref.frame.Locals}
		}
		return st, ref.frame.Locals, true, top
	}
	if ref.frame.ID > 0 {
		if last, ok := l.lastLocals[ref.thread][ref.frame.ID]; ok {
			if !top {
				st = last
			}
			return st, last.Locals, true, top
		}
	}
	return st, nil, false, top
}

// onScopes lists a frame's scopes: Locals, then Return value or Exception on a return
// or exception state, and in compare mode Differences on the predicted thread's
// innermost frame. A Gap frame has none.
func (c *conn) onScopes(req *dap.ScopesRequest) (dap.ResponseMessage, error) {
	l, err := c.session(req.Command, true)
	if err != nil {
		return nil, err
	}
	ref, err := c.frame(l, req.Arguments.FrameId)
	if err != nil {
		return nil, err
	}
	st, locals, haveLocals, top := frameState(l, ref)
	var scopes []*scope
	var hints []string
	// Locals comes first, as debugpy's does: VS Code opens the first scope by itself.
	if haveLocals || top {
		sc := &scope{name: "Locals", settable: top && ref.thread == threadMain && st.Event.HasLocals()}
		for _, v := range locals {
			sc.values = append(sc.values, namedValue{name: v.Name, repr: v.Repr})
		}
		scopes = append(scopes, sc)
		hints = append(hints, "locals")
	}
	if top {
		switch st.Event {
		case grammar.EventReturn:
			scopes = append(scopes, &scope{name: "Return value", values: []namedValue{{name: "(return)", repr: st.Value}}, noPaths: true})
			hints = append(hints, "returnValue")
		case grammar.EventException:
			scopes = append(scopes, &scope{name: "Exception", values: []namedValue{{name: "(exception)", repr: st.Value}}, noPaths: true})
			hints = append(hints, "")
		}
	}
	if top && l.cmp != nil && ref.thread == threadPredicted {
		sc := &scope{name: "Differences", noPaths: true}
		for _, d := range l.cmp.Differences() {
			name := string(d.Kind)
			if d.Kind == session.DiffVariable {
				name = d.Name
			}
			sc.values = append(sc.values, namedValue{name: name, repr: "predicted " + orAbsent(d.Predicted) + ", recorded " + orAbsent(d.Recorded)})
		}
		scopes = append(scopes, sc)
		hints = append(hints, "")
	}
	out := make([]dap.Scope, len(scopes))
	c.mu.Lock()
	for i, sc := range scopes {
		out[i] = dap.Scope{
			Name:               sc.name,
			PresentationHint:   hints[i],
			VariablesReference: c.vars.create(varRef{scope: sc}),
			NamedVariables:     len(sc.values),
		}
	}
	c.mu.Unlock()
	return &dap.ScopesResponse{Response: newResponse(&req.Request), Body: dap.ScopesResponseBody{Scopes: out}}, nil
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}
