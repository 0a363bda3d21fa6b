package adapter

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// resume answers a resuming request and starts its plan: the response goes first,
// so that pause and disconnect stay answerable while the backend works.
func (c *conn) resume(req *dap.Request, resp dap.ResponseMessage, threadID int, p session.Plan) (dap.ResponseMessage, error) {
	l, err := c.session(req.Command, true)
	if err != nil {
		return nil, err
	}
	if threadID != 0 && !slices.Contains(l.sess.Threads(), session.Thread(threadID)) {
		return nil, badThread(threadID)
	}
	switch err := l.sess.Check(p); {
	case errors.Is(err, session.ErrEnded):
		return nil, errorf(ErrProgramEnded, "%s: the program has ended; step back to look at it again", req.Command)
	case errors.Is(err, session.ErrMaxSteps):
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
// is stopped, so the session takes the breakpoints and filters without waiting.
func (c *conn) startAction(l *launched, p session.Plan) {
	c.mu.Lock()
	c.applyBreakpoints(l, c.bpLines)
	l.sess.SetFilters(session.Filters{Raised: c.raised, Uncaught: c.uncaught})
	ctx, cancel := context.WithCancel(c.ctx)
	done := make(chan struct{})
	c.running, c.actionDone, c.stopAction = true, done, cancel
	c.mu.Unlock()
	if len(l.sess.Threads()) > 1 {
		// Stepping one thread moves both.
		c.send(&dap.ContinuedEvent{Event: newEvent("continued"), Body: dap.ContinuedEventBody{ThreadId: threadMain, AllThreadsContinued: true}})
	}
	go func() {
		defer close(done)
		defer cancel()
		stop, err := l.sess.Run(ctx, p)
		c.finish(l, translate(stop, err, p))
	}()
}

// result is how an action goroutine ended, in the protocol's terms.
type result struct {
	stop  stopInfo
	hit   []int
	ended bool
	// note is a console message to show before the stop (category noteCategory).
	note         string
	noteCategory string
}

// translate turns a session's stop into the stopped event's reason, or the end of
// the program; a failed plan stops where the session stands, with a note.
func translate(stop session.Stop, err error, p session.Plan) result {
	switch {
	case errors.Is(err, session.ErrAtStart):
		return result{stop: stopInfo{reason: "step"}, noteCategory: "console",
			note: "ndb: already at the first state of the execution: there is nothing earlier\n"}
	case err != nil:
		return result{stop: stopInfo{reason: "pause"}, noteCategory: "stderr",
			note: fmt.Sprintf("ndb: %s failed: %v\n", p, err)}
	}
	switch stop.Reason {
	case session.StopExit:
		return result{ended: true}
	case session.StopLimit:
		return result{stop: stopInfo{reason: "pause"}, noteCategory: "console",
			note: "ndb: this session took its maxSteps actions; launch again with a larger \"maxSteps\"\n"}
	case session.StopException:
		return result{stop: stopInfo{reason: "exception", exception: stop.Exception, unhandled: stop.Uncaught}}
	}
	return result{stop: stopInfo{reason: string(stop.Reason)}, hit: stop.Hit}
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
	c.frames.reset()
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
	c.stop = withConfidence(l, res.stop)
	c.send(stoppedEvent(c.stop, res.hit))
}

// stopNow reports a stop without an action (at the entry state).
func (c *conn) stopNow(l *launched, stop stopInfo, hit []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frames.reset()
	c.vars.reset()
	c.stop = withConfidence(l, stop)
	c.send(stoppedEvent(c.stop, hit))
}

// The resuming requests.

func (c *conn) onNext(req *dap.NextRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.NextResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, session.PlanOf(grammar.StepOver))
}

func (c *conn) onStepIn(req *dap.StepInRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.StepInResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, session.PlanOf(grammar.StepInto))
}

func (c *conn) onStepOut(req *dap.StepOutRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.StepOutResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, session.PlanOf(grammar.StepReturn))
}

func (c *conn) onContinue(req *dap.ContinueRequest) (dap.ResponseMessage, error) {
	resp := &dap.ContinueResponse{Response: newResponse(&req.Request), Body: dap.ContinueResponseBody{AllThreadsContinued: true}}
	return c.resume(&req.Request, resp, req.Arguments.ThreadId, session.PlanContinue)
}

func (c *conn) onStepBack(req *dap.StepBackRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.StepBackResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, session.PlanOf(grammar.InvStepOver))
}

func (c *conn) onReverseContinue(req *dap.ReverseContinueRequest) (dap.ResponseMessage, error) {
	return c.resume(&req.Request, &dap.ReverseContinueResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, session.PlanOf(grammar.InvStepCall))
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
	return c.resume(&req.Request, &ReverseStepResponse{Response: newResponse(&req.Request)}, req.Arguments.ThreadId, session.PlanOf(k))
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
