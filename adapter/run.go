package adapter

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// plan is what a resuming request asks of the backend: one action, or a continue
// (a breakpoint action over the breakpoint lines, a continue to the exit when there
// are none, or a walk step by step when the raised-exceptions filter is on).
type plan struct {
	action grammar.Action
	cont   bool
	// back is a reverse continue: back to the latest earlier state on a breakpoint
	// line (reverse.go).
	back bool
}

var planContinue = plan{cont: true}

func planOf(k grammar.ActionKind) plan { return plan{action: grammar.Action{Kind: k}} }

func (p plan) forward() bool { return !p.back && (p.cont || !p.action.Kind.Inverse()) }

// actionOptions is what an action goroutine needs of the connection's state, copied
// when it starts.
type actionOptions struct {
	raised, uncaught bool
	// skipUncaught: the current stop is the uncaught exception itself, so the next
	// continue goes on to the exit.
	skipUncaught bool
	breakpoints  map[int]bool
}

// result is how an action goroutine ended.
type result struct {
	stop  stopInfo
	hit   []int
	ended bool
	// note is a console message to show before the stop (category noteCategory).
	note         string
	noteCategory string
}

// errMaxSteps is returned by conn.do when the session took its maxSteps actions.
var errMaxSteps = errors.New("maxSteps reached")

// resume answers a resuming request and starts its action: the response goes first,
// so that pause and disconnect stay answerable while the backend works.
func (c *conn) resume(req *dap.Request, resp dap.ResponseMessage, threadID int, p plan) (dap.ResponseMessage, error) {
	l, err := c.session(req.Command, true)
	if err != nil {
		return nil, err
	}
	if threadID != 0 && threadID != threadMain && (l.cmp == nil || threadID != threadRecorded) {
		return nil, badThread(threadID)
	}
	if p.forward() && l.sess.Current().Ended() {
		return nil, errorf(ErrProgramEnded, "%s: the program has ended; step back to look at it again", req.Command)
	}
	if l.actions >= l.cfg.MaxSteps {
		return nil, maxStepsError(req.Command, l.cfg.MaxSteps)
	}
	c.send(resp)
	c.startAction(l, p)
	return nil, nil
}

func maxStepsError(command string, n int) error {
	return errorf(ErrMaxSteps, "%s: this session took its maxSteps (%d) actions; launch again with a larger \"maxSteps\"", command, n)
}

// startAction runs a plan on a new action goroutine. It is called while the session
// is stopped, so the session takes the breakpoints without waiting.
func (c *conn) startAction(l *launched, p plan) {
	c.mu.Lock()
	c.applyBreakpoints(l, c.bpLines)
	ctx, cancel := context.WithCancel(c.ctx)
	done := make(chan struct{})
	c.running, c.actionDone, c.stopAction = true, done, cancel
	o := actionOptions{raised: c.raised, uncaught: c.uncaught, skipUncaught: c.stop.unhandled, breakpoints: map[int]bool{}}
	for _, n := range c.bpLines {
		if l.executable[n] {
			o.breakpoints[n] = true
		}
	}
	c.mu.Unlock()
	if l.cmp != nil {
		// Stepping one thread moves both.
		c.send(&dap.ContinuedEvent{Event: newEvent("continued"), Body: dap.ContinuedEventBody{ThreadId: threadMain, AllThreadsContinued: true}})
	}
	go func() {
		defer close(done)
		defer cancel()
		res := c.perform(ctx, l, p, o)
		c.finish(l, res)
	}()
}

// perform runs a plan on the action goroutine.
func (c *conn) perform(ctx context.Context, l *launched, p plan, o actionOptions) result {
	if p.back {
		return c.reverseContinue(ctx, l, o.breakpoints)
	}
	if !p.cont {
		out, err := c.do(ctx, l, p.action)
		if err != nil {
			return failed(err, p.action.Kind.String())
		}
		return result{stop: stopInfo{reason: "step"}, ended: out.Ended()}
	}
	var out session.Outcome
	var err error
	if o.raised {
		out, err = c.walk(ctx, l, o.breakpoints)
	} else {
		out, err = c.do(ctx, l, l.sess.ContinueAction())
	}
	if err != nil {
		return failed(err, "continue")
	}
	if out.Exit == grammar.ExitError && o.uncaught && !o.skipUncaught {
		// The uncaught filter: back to the exception that ended the program.
		back, err := c.do(ctx, l, grammar.Action{Kind: grammar.InvStepInto})
		if err == nil {
			st := back.State
			return result{stop: stopInfo{reason: "exception", exception: st.Value, unhandled: true}}
		}
	}
	if out.Ended() {
		return result{ended: true}
	}
	st := out.State
	switch {
	case st.Event == grammar.EventLine && o.breakpoints[st.Loc.Line]:
		return result{stop: stopInfo{reason: "breakpoint"}, hit: []int{st.Loc.Line}}
	case st.Event == grammar.EventException:
		return result{stop: stopInfo{reason: "exception", exception: st.Value}}
	}
	return result{stop: stopInfo{reason: "step"}}
}

// walk is a continue with the raised-exceptions filter: step_into until a line on a
// breakpoint, an exception raised (not one passing up from a callee), or the exit.
func (c *conn) walk(ctx context.Context, l *launched, bps map[int]bool) (session.Outcome, error) {
	prev := l.sess.Current()
	for {
		out, err := c.do(ctx, l, grammar.Action{Kind: grammar.StepInto})
		if err != nil || out.Ended() {
			return out, err
		}
		st := out.State
		if st.Event == grammar.EventLine && bps[st.Loc.Line] {
			return out, nil
		}
		propagating := prev.State.Event == grammar.EventException && prev.State.Value == st.Value
		if st.Event == grammar.EventException && !propagating {
			return out, nil
		}
		prev = out
	}
}

// do applies one action to the session, within maxSteps.
func (c *conn) do(ctx context.Context, l *launched, a grammar.Action) (session.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return session.Outcome{}, err
	}
	if l.actions >= l.cfg.MaxSteps {
		return session.Outcome{}, errMaxSteps
	}
	out, err := l.sess.Do(ctx, a)
	if err != nil {
		return out, err
	}
	l.actions++
	l.remember()
	return out, nil
}

// failed turns an action's error into a stop where the session stands.
func failed(err error, action string) result {
	switch {
	case errors.Is(err, context.Canceled):
		return result{stop: stopInfo{reason: "pause"}}
	case errors.Is(err, session.ErrAtStart):
		return result{stop: stopInfo{reason: "step"}, noteCategory: "console",
			note: "ndb: already at the first state of the execution: there is nothing earlier\n"}
	case errors.Is(err, errMaxSteps):
		return result{stop: stopInfo{reason: "pause"}, noteCategory: "console",
			note: "ndb: this session took its maxSteps actions; launch again with a larger \"maxSteps\"\n"}
	}
	return result{stop: stopInfo{reason: "pause"}, noteCategory: "stderr",
		note: fmt.Sprintf("ndb: %s failed: %v\n", action, err)}
}

// finish reports how an action ended: a stop, or the end of the program. The
// session is marked stopped before the event goes out, so the client's next
// requests find it stopped; conn.mu is held until then, so no other request's
// response comes between.
func (c *conn) finish(l *launched, res result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running, c.actionDone, c.stopAction = false, nil, nil
	if c.terminated {
		return
	}
	c.stops++
	c.vars.reset()
	c.sendProgramOutput(l)
	if res.note != "" {
		c.output(res.noteCategory, res.note)
	}
	if res.ended {
		c.stop = stopInfo{}
		c.sendEnd(l)
		return
	}
	c.stop = res.stop
	c.send(stoppedEvent(res.stop, res.hit))
}

// stopNow reports a stop without an action (at the entry state).
func (c *conn) stopNow(l *launched, stop stopInfo, hit []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stops++
	c.vars.reset()
	c.stop = stop
	c.send(stoppedEvent(stop, hit))
}

// The resuming requests.

func (c *conn) onNext(req *dap.NextRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.NextResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, planOf(grammar.StepOver))
}

func (c *conn) onStepIn(req *dap.StepInRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.StepInResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, planOf(grammar.StepInto))
}

func (c *conn) onStepOut(req *dap.StepOutRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.StepOutResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, planOf(grammar.StepReturn))
}

func (c *conn) onContinue(req *dap.ContinueRequest) (dap.ResponseMessage, error) {
	resp := &dap.ContinueResponse{Response: newResponse(&req.Request), Body: dap.ContinueResponseBody{AllThreadsContinued: true}}
	return c.resume(&req.Request, resp, req.Arguments.ThreadId, planContinue)
}

func (c *conn) onStepBack(req *dap.StepBackRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.StepBackResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, planOf(grammar.InvStepOver))
}

func (c *conn) onReverseContinue(req *dap.ReverseContinueRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.ReverseContinueResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, planBack)
}

// reverseKinds maps the custom request's kinds to actions.
var reverseKinds = map[string]grammar.ActionKind{
	"into": grammar.InvStepInto,
	"over": grammar.InvStepOver,
	"call": grammar.InvStepCall,
}

func (c *conn) onReverseStep(req *ReverseStepRequest) (dap.ResponseMessage, error) {
	k, ok := reverseKinds[req.Arguments.Kind]
	if !ok {
		return nil, errorf(ErrBadArguments, "%s: \"kind\" must be \"into\", \"over\" or \"call\", got %q", ReverseStepCommand, req.Arguments.Kind)
	}
	return c.resume(&req.Request, &ReverseStepResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, planOf(k))
}

// onPause cancels the action in flight: its prediction stops and the session stays
// where it was, reported by a stopped event with reason pause after this response.
func (c *conn) onPause(req *dap.PauseRequest) (dap.ResponseMessage, error) {
	c.send(&dap.PauseResponse{Response: newResponse(&req.Request)})
	c.mu.Lock()
	if c.stopAction != nil {
		c.stopAction()
	}
	c.mu.Unlock()
	return nil, nil
}
