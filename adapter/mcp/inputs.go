package mcp

// The arguments of the tools. A field without omitempty is required; the enums
// (mode, action) are set on the schemas in tools.go.

// StartInput are start_session's arguments.
type StartInput struct {
	Program     string  `json:"program" jsonschema:"the Python file to debug: an absolute path, or one relative to the server's working directory"`
	Entry       string  `json:"entry,omitempty" jsonschema:"a call to debug, such as count('berry', 'r'); empty debugs the whole script"`
	Mode        string  `json:"mode,omitempty" jsonschema:"neural (the default: the model predicts every state and the program never runs), recorded (the real execution) or compare (both side by side)"`
	Breakpoints []int   `json:"breakpoints,omitempty" jsonschema:"line numbers where a continue stops"`
	Model       string  `json:"model,omitempty" jsonschema:"a checkpoint folder for neural and compare modes (default: the server's model)"`
	Temperature float64 `json:"temperature,omitempty" jsonschema:"the model's sampling temperature; 0 (the default) is greedy"`
	Seed        int64   `json:"seed,omitempty" jsonschema:"the model's sampling seed"`
}

// SessionInput names a session.
type SessionInput struct {
	Session string `json:"session" jsonschema:"the id start_session returned"`
}

// StepInput are step's arguments.
type StepInput struct {
	Session string `json:"session" jsonschema:"the id start_session returned"`
	Action  string `json:"action" jsonschema:"the debugger action; continue runs to a breakpoint of start_session, the uncaught exception that ends the program, or the end; the inv_ actions walk backwards (inv_step_call: back to the call of the current function)"`
}

// RunToInput are run_to's arguments.
type RunToInput struct {
	Session string `json:"session" jsonschema:"the id start_session returned"`
	Lines   []int  `json:"lines" jsonschema:"line numbers: the session stops at the first of them that is reached"`
}

// EvaluateInput are evaluate's arguments.
type EvaluateInput struct {
	Session    string `json:"session" jsonschema:"the id start_session returned"`
	Expression string `json:"expression" jsonschema:"a Python expression over the current locals: names, literals, indexing, attributes, len(), comparisons, in, and/or/not (no arithmetic, no calls); __return__ and __exception__ name a return value and an exception"`
}

// SetVariableInput are set_variable's arguments.
type SetVariableInput struct {
	Session string `json:"session" jsonschema:"the id start_session returned"`
	Name    string `json:"name" jsonschema:"a local variable of the current state"`
	Value   string `json:"value" jsonschema:"its new value as a Python repr, such as 5 or 'abc' or [1, 2]"`
}

// PredictInput are predict's arguments.
type PredictInput struct {
	Program     string  `json:"program" jsonschema:"the Python file: an absolute path, or one relative to the server's working directory"`
	Entry       string  `json:"entry,omitempty" jsonschema:"a call such as count('berry', 'r'); empty means the whole script"`
	Action      string  `json:"action" jsonschema:"the action taken from the entry state: one of the step actions, or breakpoint:LINE[+LINE...]"`
	N           int     `json:"n,omitempty" jsonschema:"how many predictions (samples) to return, 1 to 16 (default 1); with n > 1 give a temperature"`
	Model       string  `json:"model,omitempty" jsonschema:"a checkpoint folder (default: the server's model)"`
	Temperature float64 `json:"temperature,omitempty" jsonschema:"sampling temperature; 0 (the default) is greedy"`
	Seed        int64   `json:"seed,omitempty" jsonschema:"sampling seed"`
}

// CompareInput are compare's arguments.
type CompareInput struct {
	Program string   `json:"program" jsonschema:"the Python file: an absolute path, or one relative to the server's working directory"`
	Entry   string   `json:"entry,omitempty" jsonschema:"a call such as count('berry', 'r'); empty means the whole script"`
	Actions []string `json:"actions" jsonschema:"the actions both sides take in turn: step_into, step_over, step_return, continue, inv_step_into, inv_step_over, inv_step_call or breakpoint:LINE[+LINE...]"`
	Model   string   `json:"model,omitempty" jsonschema:"a checkpoint folder (default: the server's model)"`
}
