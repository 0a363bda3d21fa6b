package adapter

import (
	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/session"
)

// stackFrame describes one frame of a stack trace (c.mu held). A Gap frame (callers
// the model did not predict) is a label with no source and no line, so that VS Code
// shows it as a separator and never opens a wrong line for it.
func (c *conn) stackFrame(l *launched, id int, f session.Frame) dap.StackFrame {
	if f.Gap {
		return dap.StackFrame{Id: id, Name: f.Func, PresentationHint: "label"}
	}
	return dap.StackFrame{Id: id, Name: f.Func, Source: c.source(l), Line: c.lineOut(f.Loc.Line), Column: c.column()}
}
