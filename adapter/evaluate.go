package adapter

import (
	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
)

// onEvaluate evaluates an expression over a frame's locals (see evalExpr): watch,
// hover and REPL alike, without running the program. With no frame it uses the
// innermost frame of the main (predicted) thread. On a return state __return__ names
// the return value, on an exception state __exception__ the exception. Errors are not
// pushed to the user: clients show them where the expression was typed.
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
	st, locals, _, top := frameState(l, ref)
	env := func(name string) (string, bool) {
		if v, ok := locals.Get(name); ok {
			return v, true
		}
		switch {
		case top && name == "__return__" && st.Event == grammar.EventReturn,
			top && name == "__exception__" && st.Event == grammar.EventException:
			return st.Value, true
		}
		return "", false
	}
	v, err := evalExpr(args.Expression, env)
	if err != nil {
		return nil, quietf(ErrEvaluate, "%s", err.Error())
	}
	c.mu.Lock()
	out := c.variableNode("", v, exprPath(args.Expression))
	c.mu.Unlock()
	return &dap.EvaluateResponse{Response: newResponse(&req.Request), Body: dap.EvaluateResponseBody{
		Result: out.Value, Type: out.Type, VariablesReference: out.VariablesReference,
		IndexedVariables: out.IndexedVariables, NamedVariables: out.NamedVariables,
	}}, nil
}

// exprPath is an expression as the prefix of its elements' evaluateNames: wrapped in
// parentheses unless it is a name with fields and indexes.
func exprPath(expr string) string {
	toks, err := tokenize(expr)
	if err != nil {
		return ""
	}
	for _, t := range toks {
		if t.kind == tokOp && t.text != "." && t.text != "[" && t.text != "]" || t.kind == tokName && (t.text == "and" || t.text == "or" || t.text == "not" || t.text == "in") {
			return "(" + expr + ")"
		}
	}
	return expr
}
