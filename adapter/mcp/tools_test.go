package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestListTools(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{ToolStartSession, ToolStep, ToolRunTo, ToolGetState, ToolEvaluate, ToolSetVariable, ToolPredict, ToolCompare, ToolEndSession}
	var got []string
	readOnly := map[string]bool{}
	for _, tool := range res.Tools {
		got = append(got, tool.Name)
		if tool.Description == "" || tool.Annotations == nil || tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s: description, annotations or schemas missing: %+v", tool.Name, tool)
			continue
		}
		readOnly[tool.Name] = tool.Annotations.ReadOnlyHint
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("tools: %v, want %v", got, want)
	}
	for _, name := range want {
		ro := name == ToolGetState || name == ToolEvaluate || name == ToolPredict
		if readOnly[name] != ro {
			t.Errorf("%s: readOnlyHint %v, want %v", name, readOnly[name], ro)
		}
	}
	for _, tool := range res.Tools {
		if tool.Name != ToolStep {
			continue
		}
		props := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		enum, _ := props["action"].(map[string]any)["enum"].([]any)
		if len(enum) != 7 || enum[6] != "inv_step_call" {
			t.Errorf("step's action enum: %v", enum)
		}
		if req := tool.InputSchema.(map[string]any)["required"]; len(req.([]any)) != 2 {
			t.Errorf("step's required arguments: %v", req)
		}
	}
}

// A recorded session walked with every session tool: the states are the real run's.
func TestRecordedSession(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	id, entry := start(t, cs, "recorded")
	if entry.Event != "call" || entry.Line != 1 || entry.Stop != "entry" || entry.Function != "count" || len(entry.Locals) != 2 || entry.Locals[0] != (Var{"s", "'berry'"}) {
		t.Fatalf("entry: %+v", entry)
	}
	if st, _ := step(t, cs, id, "step_into"); st.Line != 2 || st.Source != "n = 0" || st.Stop != "step" {
		t.Fatalf("step_into: %+v", st)
	}
	step(t, cs, id, "step_over")

	var st State
	txt := callOK(t, cs, ToolRunTo, map[string]any{"session": id, "lines": []int{5}}, &st)
	if st.Line != 5 || st.Stop != "breakpoint" || !slices.Contains(st.Locals, Var{"c", "'r'"}) {
		t.Fatalf("run_to 5: %+v", st)
	}
	if want := "breakpoint: line 5 in count  n += 1   locals: s='berry', t='r', n=0, c='r'"; txt != want {
		t.Errorf("run_to text:\n got %s\nwant %s", txt, want)
	}

	var gs GetStateOutput
	txt = callOK(t, cs, ToolGetState, map[string]any{"session": id}, &gs)
	if gs.State.Line != 5 || len(gs.Stack) != 1 || gs.Stack[0] != (Frame{Function: "count", Line: 5, Source: "n += 1"}) {
		t.Errorf("get_state: %+v", gs)
	}
	if !strings.HasSuffix(txt, "stack: count:5") {
		t.Errorf("get_state text: %s", txt)
	}

	for expr, want := range map[string]string{"n": "0", "c == t": "True", "len(s)": "5", "s[0]": "'b'", "n < len(s) and not t": "False"} {
		var ev EvaluateOutput
		callOK(t, cs, ToolEvaluate, map[string]any{"session": id, "expression": expr}, &ev)
		if ev.Value != want {
			t.Errorf("evaluate %s = %s, want %s", expr, ev.Value, want)
		}
	}

	if st, _ = step(t, cs, id, "step_return"); st.Event != "return" || st.Line != 6 || st.Return != "2" {
		t.Fatalf("step_return: %+v", st)
	}
	var ev EvaluateOutput
	callOK(t, cs, ToolEvaluate, map[string]any{"session": id, "expression": "__return__"}, &ev)
	if ev.Value != "2" {
		t.Errorf("__return__ = %s", ev.Value)
	}
	if st, _ = step(t, cs, id, "inv_step_call"); st.Event != "call" || st.Line != 1 {
		t.Fatalf("inv_step_call: %+v", st)
	}
	st, txt = step(t, cs, id, "continue")
	if st.Exit != "normal" || st.Stop != "exit" || txt != "exit: normal" {
		t.Fatalf("continue: %+v %q", st, txt)
	}
	callOK(t, cs, ToolGetState, map[string]any{"session": id}, &gs)
	if gs.State.Exit != "normal" || len(gs.Stack) != 0 {
		t.Errorf("get_state after the exit: %+v", gs)
	}

	var end EndOutput
	callOK(t, cs, ToolEndSession, map[string]any{"session": id}, &end)
	if !end.Ended || end.Session != id {
		t.Errorf("end_session: %+v", end)
	}
	expectError(t, cs, ToolGetState, map[string]any{"session": id}, "unknown session", "start_session")
}

// Breakpoints given to start_session are where continue stops.
func TestContinueToBreakpoint(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	id, _ := start(t, cs, "recorded", "breakpoints", []int{5})
	for _, want := range []string{"'r'", "'r'"} {
		st, txt := step(t, cs, id, "continue")
		if st.Line != 5 || st.Stop != "breakpoint" || !slices.Contains(st.Locals, Var{"c", want}) || !strings.HasPrefix(txt, "breakpoint: line 5") {
			t.Fatalf("continue: %+v", st)
		}
	}
	if st, _ := step(t, cs, id, "continue"); st.Exit != "normal" {
		t.Fatalf("continue past the last hit: %+v", st)
	}
}

// A neural session steps on the model's predictions (here the stand-in) and takes
// set_variable edits.
func TestNeuralSessionSetVariable(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	id, _ := start(t, cs, "neural")
	step(t, cs, id, "step_into")
	st, _ := step(t, cs, id, "step_over")
	if st.Line != 3 || !slices.Contains(st.Locals, Var{"n", "1"}) {
		t.Fatalf("neural step_over: %+v", st)
	}
	txt := callOK(t, cs, ToolSetVariable, map[string]any{"session": id, "name": "n", "value": "5"}, &st)
	if !slices.Contains(st.Locals, Var{"n", "5"}) || !strings.HasPrefix(txt, "n = 5\nline 3") {
		t.Fatalf("set_variable: %+v %q", st, txt)
	}
	var ev EvaluateOutput
	callOK(t, cs, ToolEvaluate, map[string]any{"session": id, "expression": "n == 5"}, &ev)
	if ev.Value != "True" {
		t.Errorf("n == 5 after set_variable: %s", ev.Value)
	}
	expectError(t, cs, ToolSetVariable, map[string]any{"session": id, "name": "zz", "value": "1"}, "cannot set zz", "not a local")
}

// Compare mode answers both sides and their differences.
func TestCompareSession(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	id, entry := start(t, cs, "compare")
	if entry.Recorded == nil || entry.Matches == nil || !*entry.Matches {
		t.Fatalf("compare entry: %+v", entry)
	}
	step(t, cs, id, "step_into")
	st, txt := step(t, cs, id, "step_over")
	if st.Recorded == nil || st.Recorded.Line != 3 || *st.Matches || len(st.Differences) != 1 ||
		st.Differences[0] != (Difference{Kind: "variable", Name: "n", Predicted: "1", Recorded: "0"}) {
		t.Fatalf("compare step_over: %+v", st)
	}
	if !strings.Contains(txt, "\nrecorded: line 3 in count") || !strings.HasSuffix(txt, "differs: n: predicted 1, recorded 0") {
		t.Errorf("compare text:\n%s", txt)
	}
	var after State
	callOK(t, cs, ToolSetVariable, map[string]any{"session": id, "name": "n", "value": "0"}, &after)
	if !*after.Matches {
		t.Errorf("compare after setting n back to 0: %+v", after)
	}
}

func TestPredict(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	args := map[string]any{"program": "count.py", "entry": `count("berry", "r")`, "action": "step_into"}
	var out PredictOutput
	txt := callOK(t, cs, ToolPredict, args, &out)
	if out.Entry.Line != 1 || len(out.Predictions) != 1 || out.Predictions[0].Line != 2 || out.Predictions[0].Source != "n = 0" {
		t.Fatalf("predict: %+v", out)
	}
	if !strings.HasSuffix(txt, "step_into -> line 2 in count  n = 0   locals: s='berry', t='r'") {
		t.Errorf("predict text: %q", txt)
	}
	args["action"], args["n"] = "breakpoint:5", 3
	callOK(t, cs, ToolPredict, args, &out)
	if len(out.Predictions) != 3 || out.Predictions[2].Line != 5 || out.Action != "breakpoint:5" {
		t.Fatalf("predict breakpoint:5 n=3: %+v", out)
	}
}

func TestCompareTool(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	var out CompareOutput
	txt := callOK(t, cs, ToolCompare, map[string]any{"program": "count.py", "entry": `count("berry", "r")`, "actions": []string{"step_into", "step_over", "step_return"}}, &out)
	if len(out.Steps) != 4 || out.Steps[0].Action != "entry" || !out.Steps[1].Matches || out.Steps[2].Matches {
		t.Fatalf("compare steps: %+v", out.Steps)
	}
	if d := out.Steps[3].Differences; len(d) != 1 || d[0] != (Difference{Kind: "value", Predicted: "3", Recorded: "2"}) {
		t.Errorf("compare step_return differences: %+v", d)
	}
	if s := out.Summary; s.Steps != 3 || s.Exact != 1 || !s.EntryMatches {
		t.Errorf("compare summary: %+v", s)
	}
	if !strings.Contains(txt, "step_return") || !strings.Contains(txt, "exact") {
		t.Errorf("compare text:\n%s", txt)
	}
}

// Progress notifications come when the client gives a progress token.
func TestProgress(t *testing.T) {
	var mu = make(chan struct{}, 1)
	var got []float64
	cs := connect(t, newServer(t, testConfig(t)), &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu <- struct{}{}
			got = append(got, req.Params.Progress)
			<-mu
		},
	})
	params := &sdk.CallToolParams{Name: ToolCompare, Arguments: map[string]any{"program": "count.py", "entry": `count("berry", "r")`, "actions": []string{"step_into", "step_over"}}}
	params.SetProgressToken("p1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("compare: %v %s", err, textOf(res))
	}
	// Notifications may trail the result.
	for range 100 {
		mu <- struct{}{}
		n := len(got)
		<-mu
		if n >= 3 {
			break
		}
		waitABit()
	}
	mu <- struct{}{}
	defer func() { <-mu }()
	if !slices.Equal(got, []float64{0, 1, 2}) {
		t.Errorf("progress: %v, want [0 1 2]", got)
	}
}

// A continue that ends in an uncaught exception stops at the exception first.
func TestContinueStopsAtUncaughtException(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	var out StartOutput
	callOK(t, cs, ToolStartSession, map[string]any{"program": "exception_uncaught.py", "entry": `lookup({"a": 1, "b": 2}, ["a", "c"])`, "mode": "recorded"}, &out)
	st, txt := step(t, cs, out.Session, "continue")
	if st.Stop != "exception" || st.Event != "exception" || st.Exception != "KeyError('c')" || txt != "exception line 8 in lookup  found.append(get(table, k))   raises KeyError('c')" {
		t.Fatalf("continue to the uncaught exception: %+v %q", st, txt)
	}
	if st, _ = step(t, cs, out.Session, "continue"); st.Exit != "error" {
		t.Fatalf("continue past it: %+v", st)
	}
}
