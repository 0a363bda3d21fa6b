package adapter

import (
	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/session"
)

// onEvaluate evaluates an expression over a frame's locals (session.Evaluate): watch,
// hover and REPL alike, without running the program. With no frame it uses the
// innermost frame of the main (predicted) thread. Errors are not pushed to the user:
// clients show them where the expression was typed.
func (c *conn) onEvaluate(req *dap.EvaluateRequest) (dap.ResponseMessage, error) {
	l, err := c.session(req.Command, true)
	if err != nil {
		return nil, err
	}
	args := req.Arguments
	ref := frameRef{thread: threadMain}
	if args.FrameId != 0 {
		if ref, err = c.frame(l, args.FrameId); err != nil {
			return nil, err
		}
	} else if frames := l.sess.Stack(); len(frames) > 0 {
		ref.frame = frames[0]
	}
	v, err := l.sess.Evaluate(session.Thread(ref.thread), ref.index, ref.frame, args.Expression)
	if err != nil {
		return nil, quietf(ErrEvaluate, "%s", err.Error())
	}
	c.mu.Lock()
	out := c.variableNode("", v, session.ExprPath(args.Expression))
	c.mu.Unlock()
	return &dap.EvaluateResponse{Response: newResponse(&req.Request), Body: dap.EvaluateResponseBody{
		Result: out.Value, Type: out.Type, VariablesReference: out.VariablesReference,
		IndexedVariables: out.IndexedVariables, NamedVariables: out.NamedVariables,
	}}, nil
}
