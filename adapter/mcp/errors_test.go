package mcp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ndb-project/ndb/session"
)

// Bad input is a tool error (isError) whose message says what to fix; the server
// stays up and the session stays usable.
func TestToolErrors(t *testing.T) {
	cs := connect(t, newServer(t, testConfig(t)), nil)
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.py", "def f(:\n    pass\n")
	ok := write("ok.py", "def f(x):\n    # a comment\n    y = x + 1\n\n    return y\n")
	count := map[string]any{"program": "count.py", "entry": `count("berry", "r")`}
	with := func(m map[string]any, kv ...any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	id, _ := start(t, cs, "recorded")
	nid, _ := start(t, cs, "neural")

	cases := []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		// start_session
		{"no program", ToolStartSession, map[string]any{}, []string{"program"}},
		{"empty program", ToolStartSession, map[string]any{"program": " "}, []string{`"program" is required`}},
		{"missing file", ToolStartSession, map[string]any{"program": "nope.py"}, []string{"nope.py does not exist", "relative to"}},
		{"a folder", ToolStartSession, map[string]any{"program": dir}, []string{"is not a file"}},
		{"unknown mode", ToolStartSession, with(count, "mode", "fast"), []string{"mode"}},
		{"syntax error, neural", ToolStartSession, map[string]any{"program": bad}, []string{"cannot be debugged", "syntax"}},
		{"syntax error, recorded", ToolStartSession, map[string]any{"program": bad, "mode": "recorded"}, []string{"cannot be debugged", "syntax"}},
		{"entry names nothing", ToolStartSession, with(count, "entry", "nothing(1)", "mode", "recorded"), []string{"cannot be debugged", "nothing"}},
		{"breakpoint on a comment", ToolStartSession, map[string]any{"program": ok, "entry": "f(1)", "breakpoints": []int{2}}, []string{"line 2 has no code", "try line 1 or 3"}},
		{"breakpoint on a blank line", ToolStartSession, map[string]any{"program": ok, "entry": "f(1)", "breakpoints": []int{4}}, []string{"line 4 has no code", "try line 3 or 5"}},
		{"breakpoint past the end", ToolStartSession, with(count, "breakpoints", []int{40}), []string{"line 40 has no code", "try line 6"}},
		{"breakpoint twice", ToolStartSession, with(count, "breakpoints", []int{5, 5}), []string{"line 5 is given twice"}},
		{"breakpoint zero", ToolStartSession, with(count, "breakpoints", []int{0}), []string{"line 0 has no code"}},
		{"missing model", ToolStartSession, with(count, "model", "no-such-model"), []string{"not a checkpoint folder"}},
		{"negative temperature", ToolStartSession, with(count, "temperature", -1), []string{"temperature"}},
		// step
		{"no session", ToolStep, map[string]any{"action": "step_into"}, []string{"session"}},
		{"empty session", ToolStep, map[string]any{"session": "", "action": "step_into"}, []string{`"session" is required`}},
		{"unknown session", ToolStep, map[string]any{"session": "ndb-0", "action": "step_into"}, []string{`unknown session "ndb-0"`, "start_session"}},
		{"unknown action", ToolStep, map[string]any{"session": id, "action": "jump"}, []string{"action"}},
		{"breakpoint action", ToolStep, map[string]any{"session": id, "action": "breakpoint"}, []string{"action"}},
		{"back from the start", ToolStep, map[string]any{"session": id, "action": "inv_step_into"}, []string{"nothing earlier", "step forward first"}},
		// run_to
		{"no lines", ToolRunTo, map[string]any{"session": id, "lines": []int{}}, []string{`"lines" is empty`}},
		{"a line with no code", ToolRunTo, map[string]any{"session": id, "lines": []int{3, 9}}, []string{"line 9 has no code", "try line 6"}},
		{"run_to unknown session", ToolRunTo, map[string]any{"session": "x", "lines": []int{3}}, []string{"unknown session"}},
		// get_state, evaluate, set_variable
		{"get_state unknown session", ToolGetState, map[string]any{"session": "x"}, []string{"unknown session"}},
		{"empty expression", ToolEvaluate, map[string]any{"session": id, "expression": " "}, []string{`"expression" is empty`}},
		{"undefined name", ToolEvaluate, map[string]any{"session": id, "expression": "zz"}, []string{`cannot evaluate "zz"`}},
		{"unsupported expression", ToolEvaluate, map[string]any{"session": id, "expression": "f(s)"}, []string{`cannot evaluate "f(s)"`}},
		{"set_variable on recorded", ToolSetVariable, map[string]any{"session": id, "name": "s", "value": "'x'"}, []string{"neural or compare session", "mode neural"}},
		{"set_variable empty value", ToolSetVariable, map[string]any{"session": nid, "name": "s", "value": ""}, []string{`"value" is empty`}},
		{"set_variable unknown name", ToolSetVariable, map[string]any{"session": nid, "name": "zz", "value": "1"}, []string{"zz is not a local"}},
		// predict, compare
		{"predict bad action", ToolPredict, with(count, "action", "leap"), []string{`"action"`, "unknown action"}},
		{"predict bad breakpoint", ToolPredict, with(count, "action", "breakpoint:x"), []string{`"action"`, "not a positive line number"}},
		{"predict breakpoint without code", ToolPredict, with(count, "action", "breakpoint:30"), []string{"line 30 has no code"}},
		{"predict n too large", ToolPredict, with(count, "action", "step_into", "n", 99), []string{`"n" must be 1 to 16`}},
		{"predict missing file", ToolPredict, map[string]any{"program": "gone.py", "action": "step_into"}, []string{"does not exist"}},
		{"compare no actions", ToolCompare, with(count, "actions", []string{}), []string{`"actions" is empty`}},
		{"compare bad action", ToolCompare, with(count, "actions", []string{"step_into", "hop"}), []string{`"actions"[1]`, "unknown action"}},
		{"compare syntax error", ToolCompare, map[string]any{"program": bad, "actions": []string{"step_into"}}, []string{"cannot be debugged"}},
		// end_session
		{"end unknown session", ToolEndSession, map[string]any{"session": "ndb-1"}, []string{"unknown session"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := expectError(t, cs, c.tool, c.args, c.want...)
			t.Logf("%s: %s", c.tool, msg)
		})
	}
	// The sessions are still there and still work.
	if st, _ := step(t, cs, id, "step_into"); st.Line != 2 {
		t.Errorf("the recorded session after the errors: %+v", st)
	}
	step(t, cs, id, "continue")
	expectError(t, cs, ToolStep, map[string]any{"session": id, "action": "step_over"}, "the program has ended", "inv_ actions")
	expectError(t, cs, ToolEvaluate, map[string]any{"session": id, "expression": "n"}, "the program has ended")
	if st, _ := step(t, cs, id, "inv_step_into"); st.Event != "return" {
		t.Errorf("inv_step_into from the exit: %+v", st)
	}
	callOK(t, cs, ToolEndSession, map[string]any{"session": id}, &EndOutput{})
	expectError(t, cs, ToolEndSession, map[string]any{"session": id}, "unknown session")
}

// A build without the model refuses neural and compare sessions and says to use
// recorded mode.
func TestNoNeuralBackend(t *testing.T) {
	if session.NeuralAvailable() {
		t.Skip("a neural backend is registered")
	}
	cfg := testConfig(t)
	cfg.Session.Neural = nil
	cs := connect(t, newServer(t, cfg), nil)
	for _, mode := range []string{"neural", "compare"} {
		expectError(t, cs, ToolStartSession, map[string]any{"program": "count.py", "entry": `count("berry", "r")`, "mode": mode}, mode+" mode needs the model", "use mode recorded")
	}
	expectError(t, cs, ToolPredict, map[string]any{"program": "count.py", "action": "step_into"}, "needs the model")
	start(t, cs, "recorded")
}
