package mcp

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools' names.
const (
	ToolStartSession = "start_session"
	ToolStep         = "step"
	ToolRunTo        = "run_to"
	ToolGetState     = "get_state"
	ToolEvaluate     = "evaluate"
	ToolSetVariable  = "set_variable"
	ToolPredict      = "predict"
	ToolCompare      = "compare"
	ToolEndSession   = "end_session"
)

// stepActions are step's actions (a breakpoint set is run_to).
var stepActions = []any{"step_into", "step_over", "step_return", "continue", "inv_step_into", "inv_step_over", "inv_step_call"}

var modes = []any{"neural", "recorded", "compare"}

// annotations describe what a tool does to its environment.
func annotations(title string, readOnly, idempotent, runsProgram bool) *sdk.ToolAnnotations {
	no := false
	a := &sdk.ToolAnnotations{Title: title, ReadOnlyHint: readOnly, IdempotentHint: idempotent}
	if !runsProgram {
		// Only a recorded run touches anything outside ndb: it runs the program.
		a.OpenWorldHint = &no
		if !readOnly {
			a.DestructiveHint = &no
		}
	}
	return a
}

// inputSchema infers T's schema and sets the enums of its fields.
func inputSchema[T any](enums map[string][]any) *jsonschema.Schema {
	sch, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %s: %v", reflect.TypeFor[T](), err))
	}
	for name, vals := range enums {
		p, ok := sch.Properties[name]
		if !ok {
			panic(fmt.Sprintf("schema of %s: no field %s", reflect.TypeFor[T](), name))
		}
		p.Enum = vals
	}
	return sch
}

func (s *Server) addTools() {
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolStartSession,
		Description: "Open a debugging session on a Python program (or one call in it) and return its id and the entry state. mode neural (default) predicts every state with the model without running the program; recorded replays the real execution; compare does both side by side.",
		InputSchema: inputSchema[StartInput](map[string][]any{"mode": modes}),
		Annotations: annotations("Start a debugging session", false, false, true),
	}, guard(s, s.startSession))
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolStep,
		Description: "Take one debugger action in a session (step_into, step_over, step_return, continue, or backwards: inv_step_into, inv_step_over, inv_step_call) and return the new state.",
		InputSchema: inputSchema[StepInput](map[string][]any{"action": stepActions}),
		Annotations: annotations("Step", false, false, false),
	}, guard(s, s.step))
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolRunTo,
		Description: "Run a session to the first of the given lines that is reached (a breakpoint on a set of lines), or to the program's exit, and return the state there.",
		InputSchema: inputSchema[RunToInput](nil),
		Annotations: annotations("Run to lines", false, false, false),
	}, guard(s, s.runTo))
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolGetState,
		Description: "Return a session's current state (location, source line, locals, return value or exception, exit) and its call stack.",
		InputSchema: inputSchema[SessionInput](nil),
		Annotations: annotations("Get the state", true, true, false),
	}, guard(s, s.getState))
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolEvaluate,
		Description: "Evaluate a Python expression over the current locals of a session, without running any code (the expression is read, not executed).",
		InputSchema: inputSchema[EvaluateInput](nil),
		Annotations: annotations("Evaluate an expression", true, true, false),
	}, guard(s, s.evaluate))
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolSetVariable,
		Description: "Set a local variable of the current state of a neural or compare session; later predictions are conditioned on the new value (a recorded session refuses: its run is real).",
		InputSchema: inputSchema[SetVariableInput](nil),
		Annotations: annotations("Set a variable", false, true, false),
	}, guard(s, s.setVariable))
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolPredict,
		Description: "Predict, with the model and without running the program, the state one action leads to from the entry state (one-shot: no session to manage); n > 1 draws several samples.",
		InputSchema: inputSchema[PredictInput](nil),
		Annotations: annotations("Predict a step", true, false, false),
	}, guard(s, s.predict))
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolCompare,
		Description: "Take the same actions with the model's predictions and with the real (recorded) execution, and return both states of every step side by side with the differences and a match summary (one-shot).",
		InputSchema: inputSchema[CompareInput](nil),
		Annotations: annotations("Compare prediction and real run", false, false, true),
	}, guard(s, s.compare))
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolEndSession,
		Description: "End a session and free what it holds.",
		InputSchema: inputSchema[SessionInput](nil),
		Annotations: annotations("End a session", false, false, false),
	}, guard(s, s.endSession))
}

// text is a tool result with a short text for the agent (the structured content is
// added by the SDK from the output).
func text(format string, a ...any) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf(format, a...)}}}
}

// progress reports progress when the client asked for it (a progress token).
func progress(ctx context.Context, req *sdk.CallToolRequest, done, total float64, msg string) {
	if req == nil || req.Params == nil || req.Session == nil {
		return
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return
	}
	req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: done, Total: total, Message: msg})
}

// guard turns a panic in a tool call into a tool error, so that one bad call never
// takes the server (and every other session) down; the stack goes to the log.
func guard[In, Out any](s *Server, h sdk.ToolHandlerFor[In, Out]) sdk.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				name := ""
				if req != nil && req.Params != nil {
					name = req.Params.Name
				}
				s.cfg.Log.Error().Str("tool", name).Interface("panic", p).Str("stack", string(debug.Stack())).Msg("a tool call panicked")
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("internal error in ndb (%v): the call was abandoned and the server is still up; please report it with the server's log", p)
			}
		}()
		return h(ctx, req, in)
	}
}
