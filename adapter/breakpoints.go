package adapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
)

// onSetBreakpoints replaces the breakpoints. A line where no line event can happen
// (blank, a comment, the inside of a longer statement: not in the parse's executable
// lines) is kept out and reported unverified with the reason. Breakpoints stop at
// line events only, before the line runs. The id of a breakpoint is its line.
func (c *conn) onSetBreakpoints(req *dap.SetBreakpointsRequest) (dap.ResponseMessage, error) {
	args := req.Arguments
	var lines, asked []int
	var conditional []bool
	for _, bp := range args.Breakpoints {
		asked = append(asked, c.lineIn(bp.Line))
		conditional = append(conditional, bp.Condition != "" || bp.HitCondition != "" || bp.LogMessage != "")
	}
	if len(args.Breakpoints) == 0 {
		for _, n := range args.Lines { // the deprecated form
			asked = append(asked, c.lineIn(n))
			conditional = append(conditional, false)
		}
	}
	c.mu.Lock()
	l := c.launched
	other := l != nil && !samePath(args.Source.Path, l.sess.Program().Path)
	if !other {
		for _, n := range asked {
			if !slices.Contains(lines, n) {
				lines = append(lines, n)
			}
		}
		c.bpLines = lines
	}
	c.mu.Unlock()
	bps := make([]dap.Breakpoint, len(asked))
	for i, n := range asked {
		bp := dap.Breakpoint{Id: n, Line: c.lineOut(n), Source: &args.Source}
		switch {
		case l == nil:
			bp.Message = "the program is not launched yet"
		case other:
			bp.Message = fmt.Sprintf("not the launched program (%s)", l.sess.Program().Path)
		case !l.sess.Executable(n):
			bp.Message = fmt.Sprintf("line %d is not an executable statement: no line event happens there", n)
		default:
			bp.Verified = true
			if conditional[i] {
				bp.Message = "conditions, hit counts and log messages are not supported: this breakpoint always stops"
			}
		}
		bps[i] = bp
	}
	return &dap.SetBreakpointsResponse{Response: newResponse(&req.Request), Body: dap.SetBreakpointsResponseBody{Breakpoints: bps}}, nil
}

// applyBreakpoints gives the session the executable breakpoint lines. The session
// must be stopped: its methods wait for an action in flight.
func (c *conn) applyBreakpoints(l *launched, lines []int) {
	var locs []grammar.Loc
	for _, n := range lines {
		if l.sess.Executable(n) {
			locs = append(locs, grammar.Loc{Line: n})
		}
	}
	l.sess.SetBreakpoints(locs)
}

// isBreakpoint reports whether a line holds a verified breakpoint.
func (c *conn) isBreakpoint(line int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.launched != nil && c.launched.sess.Executable(line) && slices.Contains(c.bpLines, line)
}

// samePath reports whether a client's source path names the program (an empty path
// is taken to: the program is the only source).
func samePath(client, program string) bool {
	if client == "" {
		return true
	}
	a := absPath(client, "")
	if a == program {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(program)
	return err1 == nil && err2 == nil && ra == rb
}

// onSetExceptionBreakpoints sets the exception filters: raised (every exception where
// it is raised) and uncaught (the exception that ends the program).
func (c *conn) onSetExceptionBreakpoints(req *dap.SetExceptionBreakpointsRequest) (dap.ResponseMessage, error) {
	filters := slices.Clone(req.Arguments.Filters)
	for _, o := range req.Arguments.FilterOptions {
		filters = append(filters, o.FilterId)
	}
	var raised, uncaught bool
	bps := make([]dap.Breakpoint, len(filters))
	for i, f := range filters {
		switch f {
		case filterRaised:
			raised, bps[i].Verified = true, true
		case filterUncaught:
			uncaught, bps[i].Verified = true, true
		default:
			bps[i].Message = fmt.Sprintf("unknown exception filter %q: ndb has %q and %q", f, filterRaised, filterUncaught)
		}
	}
	c.mu.Lock()
	c.raised, c.uncaught = raised, uncaught
	c.mu.Unlock()
	return &dap.SetExceptionBreakpointsResponse{Response: newResponse(&req.Request), Body: dap.SetExceptionBreakpointsResponseBody{Breakpoints: bps}}, nil
}

// onBreakpointLocations lists the executable lines of a range.
func (c *conn) onBreakpointLocations(req *dap.BreakpointLocationsRequest) (dap.ResponseMessage, error) {
	args := req.Arguments
	from := c.lineIn(args.Line)
	to := from
	if args.EndLine > 0 {
		to = c.lineIn(args.EndLine)
	}
	locs := []dap.BreakpointLocation{}
	c.mu.Lock()
	l := c.launched
	c.mu.Unlock()
	if l != nil && samePath(args.Source.Path, l.sess.Program().Path) {
		for _, n := range l.sess.Program().Parsed.Executable {
			if n >= from && n <= to {
				locs = append(locs, dap.BreakpointLocation{Line: c.lineOut(n)})
			}
		}
	}
	return &dap.BreakpointLocationsResponse{Response: newResponse(&req.Request), Body: dap.BreakpointLocationsResponseBody{Breakpoints: locs}}, nil
}

// onExceptionInfo describes the exception of an exception stop.
func (c *conn) onExceptionInfo(req *dap.ExceptionInfoRequest) (dap.ResponseMessage, error) {
	c.mu.Lock()
	stop := c.stop
	c.mu.Unlock()
	if stop.reason != "exception" {
		return nil, quietf(ErrNoException, "exceptionInfo: the program is not stopped on an exception")
	}
	mode := dap.ExceptionBreakMode("always")
	if stop.unhandled {
		mode = "unhandled"
	}
	return &dap.ExceptionInfoResponse{Response: newResponse(&req.Request), Body: dap.ExceptionInfoResponseBody{
		ExceptionId: exceptionType(stop.exception),
		Description: stop.exception,
		BreakMode:   mode,
	}}, nil
}

// exceptionType reads the type name off an exception's repr: KeyError('c') -> KeyError.
func exceptionType(repr string) string {
	name, _, ok := strings.Cut(repr, "(")
	if !ok || name == "" || strings.ContainsAny(name, " <'\"") {
		return "Exception"
	}
	return name
}
