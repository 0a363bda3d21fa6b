package adapter

import (
	"fmt"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// Exit codes of the exited event, one per exit state.
const (
	ExitCodeNormal = 0   // the program returned
	ExitCodeError  = 1   // an uncaught exception ended it
	ExitCodeNever  = 124 // it does not terminate (cut off by the tracer's limits, or predicted so), as timeout(1) exits
)

// exitCode is the exited event's code of an exit state.
func exitCode(e grammar.Exit) int {
	switch e {
	case grammar.ExitNormal:
		return ExitCodeNormal
	case grammar.ExitNever:
		return ExitCodeNever
	}
	return ExitCodeError
}

// stoppedEvent is the event of a stop; every stop stops all threads.
func stoppedEvent(stop stopInfo, hit []int) *dap.StoppedEvent {
	body := dap.StoppedEventBody{Reason: stop.reason, ThreadId: threadMain, AllThreadsStopped: true, HitBreakpointIds: hit}
	switch stop.reason {
	case "exception":
		body.Description = "Paused on exception"
		if stop.unhandled {
			body.Description = "Paused on uncaught exception"
		}
		body.Text = stop.exception
	case "breakpoint":
		body.Description = "Paused on breakpoint"
	case "entry":
		body.Description = "Paused on entry"
	case "pause":
		body.Description = "Paused"
	}
	body.Description = stopDescription(body.Description, stop.line, stop.conf, stop.minConf)
	return &dap.StoppedEvent{Event: newEvent("stopped"), Body: body}
}

// sendProgramOutput sends the program output each thread's run produced, once: the
// recorded backend hands over all of it when the run ends.
func (c *conn) sendProgramOutput(l *launched) {
	for _, t := range l.sess.Threads() {
		if _, o, _ := l.sess.Frames(t); o.Output != "" && !l.outputSent[t] {
			l.outputSent[t] = true
			c.output("stdout", o.Output)
		}
	}
}

// sendEnd reports the end of the program: a console line for an error or a program
// that does not terminate, then exited and terminated.
func (c *conn) sendEnd(l *launched) {
	exit := l.sess.Current().Exit
	who, recorded := "predicted", ""
	if l.cfg.Mode == session.ModeRecorded {
		who = "recorded"
		if rec := l.sess.Program().Recording; rec != nil {
			recorded = rec.Result.Exception
		}
	}
	switch exit {
	case grammar.ExitNever:
		why := ""
		if recorded != "" {
			why = fmt.Sprintf(" (the tracer stopped it at its %s)", recorded)
		}
		c.output("console", fmt.Sprintf("ndb: the program is %s not to terminate%s; exit code %d\n", who, why, ExitCodeNever))
	case grammar.ExitError:
		exc := ""
		if recorded != "" {
			exc = ": " + recorded
		}
		c.output("stderr", fmt.Sprintf("ndb: the program ended with an uncaught exception%s\n", exc))
	}
	c.send(&dap.ExitedEvent{Event: newEvent("exited"), Body: dap.ExitedEventBody{ExitCode: exitCode(exit)}})
	c.send(&dap.TerminatedEvent{Event: newEvent("terminated")})
}
