package adapter

import (
	"path/filepath"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// threadStack returns a thread's derived call stack, innermost frame first, and the
// thread's current outcome (thread 0 is the main thread).
func threadStack(l *launched, thread int) ([]session.Frame, session.Outcome, error) {
	if thread == 0 {
		thread = threadMain
	}
	frames, out, err := l.sess.Frames(session.Thread(thread))
	if err != nil {
		return nil, session.Outcome{}, badThread(thread)
	}
	return frames, out, nil
}

func (c *conn) source(l *launched) *dap.Source {
	return &dap.Source{Name: filepath.Base(l.sess.Program().Path), Path: l.sess.Program().Path}
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
		id := c.frames.create(frameRef{thread: thread, index: i, frame: f})
		out = append(out, dap.StackFrame{Id: id, Name: f.Func, Source: c.source(l), Line: c.lineOut(f.Loc.Line), Column: c.column()})
	}
	c.mu.Unlock()
	return &dap.StackTraceResponse{Response: newResponse(&req.Request), Body: dap.StackTraceResponseBody{StackFrames: out, TotalFrames: len(frames)}}, nil
}

// frame returns what a frame id stands for.
func (c *conn) frame(id int) (frameRef, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ref, ok := c.frames.get(id)
	if !ok {
		return frameRef{}, errorf(ErrUnknownReference, "unknown frame id %d (frame ids are reset at every stop)", id)
	}
	return ref, nil
}

// onScopes lists a frame's scopes: Return value or Exception on a return or exception
// state, Locals, and in compare mode Differences on the predicted thread's innermost
// frame.
func (c *conn) onScopes(req *dap.ScopesRequest) (dap.ResponseMessage, error) {
	l, err := c.session(req.Command, true)
	if err != nil {
		return nil, err
	}
	ref, err := c.frame(req.Arguments.FrameId)
	if err != nil {
		return nil, err
	}
	v := l.sess.Frame(session.Thread(ref.thread), ref.index, ref.frame)
	st, locals, haveLocals, top, conf := v.State, v.Locals, v.HasLocals, v.Top, v.Confidence
	var scopes []*scope
	var hints []string
	if top {
		value := namedValue{repr: st.Value, conf: confOf(conf, func(c *grammar.Confidence) float64 { return c.Value }), hasConf: conf != nil}
		switch st.Event {
		case grammar.EventReturn:
			value.name = "(return)"
			scopes = append(scopes, &scope{name: "Return value", values: []namedValue{value}, noPaths: true})
			hints = append(hints, "returnValue")
		case grammar.EventException:
			value.name = "(exception)"
			scopes = append(scopes, &scope{name: "Exception", values: []namedValue{value}, noPaths: true})
			hints = append(hints, "")
		}
	}
	if haveLocals || top {
		sc := &scope{name: "Locals", settable: top && ref.thread == threadMain && st.Event.HasLocals()}
		for _, v := range locals {
			nv := namedValue{name: v.Name, repr: v.Repr}
			if st.Event.HasLocals() { // the state's own locals: the model wrote them
				nv.conf, nv.hasConf = conf.Var(v.Name)
			}
			sc.values = append(sc.values, nv)
		}
		scopes = append(scopes, sc)
		hints = append(hints, "locals")
	}
	if top && conf != nil {
		scopes = append(scopes, confidenceScope(st, conf))
		hints = append(hints, "")
	}
	if top && l.sess.Mode() == session.ModeCompare && ref.thread == threadPredicted {
		sc := &scope{name: "Differences", noPaths: true}
		for _, d := range l.sess.Differences() {
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
