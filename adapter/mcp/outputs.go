package mcp

// StartOutput is start_session's result.
type StartOutput struct {
	Session string `json:"session" jsonschema:"the session's id: pass it to the other tools"`
	Mode    string `json:"mode"`
	State   State  `json:"state" jsonschema:"the entry state"`
}

// Frame is one frame of the call stack.
type Frame struct {
	Function string `json:"function"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line"`
	Source   string `json:"source,omitempty"`
}

// GetStateOutput is get_state's result.
type GetStateOutput struct {
	State State   `json:"state"`
	Stack []Frame `json:"stack" jsonschema:"the call stack, innermost frame first; empty once the program ended"`
}

// EvaluateOutput is evaluate's result.
type EvaluateOutput struct {
	Expression string `json:"expression"`
	Value      string `json:"value" jsonschema:"the value's repr"`
}

// PredictOutput is predict's result.
type PredictOutput struct {
	Action      string  `json:"action"`
	Entry       Point   `json:"entry" jsonschema:"the state the action was taken from"`
	Predictions []Point `json:"predictions" jsonschema:"the predicted states, one per sample"`
}

// CompareStep is one action of a compare and the two states it led to.
type CompareStep struct {
	Action      string       `json:"action" jsonschema:"the action, or entry for the entry states"`
	Predicted   *Point       `json:"predicted,omitempty"`
	Recorded    *Point       `json:"recorded,omitempty"`
	Differences []Difference `json:"differences,omitempty"`
	Matches     bool         `json:"matches" jsonschema:"both sides agree entirely"`
	// Error says why the predicted side could not take the action (the walk
	// stopped there); RecordedError why the recorded side did not move.
	Error         string `json:"error,omitempty"`
	RecordedError string `json:"recorded_error,omitempty"`
}

// CompareSummary counts the matches over the actions.
type CompareSummary struct {
	Steps        int     `json:"steps" jsonschema:"actions both sides answered"`
	Exact        int     `json:"exact" jsonschema:"steps where the prediction matched the recorded state entirely"`
	ExactPercent float64 `json:"exact_percent"`
	EntryMatches bool    `json:"entry_matches"`
	Stopped      string  `json:"stopped,omitempty" jsonschema:"why the walk ended before the last action"`
}

// CompareOutput is compare's result.
type CompareOutput struct {
	Steps   []CompareStep  `json:"steps" jsonschema:"the entry states, then one step per action"`
	Summary CompareSummary `json:"summary"`
}

// EndOutput is end_session's result.
type EndOutput struct {
	Session string `json:"session"`
	Ended   bool   `json:"ended"`
}
