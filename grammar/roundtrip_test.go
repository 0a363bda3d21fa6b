package grammar

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	markers, fulls, exits, inverse, multi := 0, 0, 0, 0, 0
	for i := range 5000 {
		tr := randomTrajectory(r)
		text, err := EncodeTrajectory(tr)
		if err != nil {
			t.Fatalf("#%d: %v", i, err)
		}
		back, err := DecodeTrajectory(text)
		if err != nil {
			t.Fatalf("#%d: %v\n%q", i, err, text)
		}
		if !back.Equal(tr) {
			t.Fatalf("#%d: round trip differs\n%q\n%+v\n%+v", i, text, tr, back)
		}
		again, err := EncodeTrajectory(back)
		if err != nil || again != text {
			t.Fatalf("#%d: re-encoding differs: %v\n%q\n%q", i, err, text, again)
		}
		// Decoding state by state, as a model's consumer does, gives the same states.
		e := NewEncoder(tr.Context, tr.Direction)
		pos, _ := e.Start(tr.Start)
		off := len(pos)
		prev := tr.Start
		for _, st := range tr.Steps {
			a, _ := e.Action(st.Action)
			got, n, err := DecodeAction(tr.Context, text[off:])
			if err != nil || n != len(a) || !got.Equal(st.Action) {
				t.Fatalf("#%d: DecodeAction = %v %d %v", i, got, n, err)
			}
			off += n
			s, x, n, err := DecodeNext(tr.Context, &prev, text[off:])
			if err != nil || x != st.Exit || (x == "" && !s.Equal(st.State)) {
				t.Fatalf("#%d: DecodeNext = %+v %q %v; want %+v", i, s, x, err, st)
			}
			off += n
			if st.Exit != "" {
				_, err = e.Exit(st.Exit)
			} else {
				_, err = e.State(st.State)
			}
			if err != nil {
				t.Fatal(err)
			}
			prev = st.State
		}
		if off != len(text) {
			t.Fatalf("#%d: pieces end at %d of %d", i, off, len(text))
		}
		markers += strings.Count(text, diffMarkerEntry+"}")
		fulls += strings.Count(text, TokenLineSep)
		if strings.Contains(text, TokenExitSep) {
			exits++
		}
		if tr.Direction == Inverse {
			inverse++
		}
		if len(tr.Context.Files) > 1 {
			multi++
		}
	}
	t.Logf("diff markers %d, line states %d, exits %d, inverse %d, multi-file %d", markers, fulls, exits, inverse, multi)
	if markers < 500 || exits < 300 || inverse < 500 || multi < 500 {
		t.Fatal("the generator does not cover every form")
	}
}

// TestDiffRule checks each condition of the diff form (Encoder.State).
func TestDiffRule(t *testing.T) {
	ctx := NewContext("", countSource)
	ab := Locals{{"a", "1"}, {"b", "2"}}
	line := func(frame int, l Locals) State {
		return State{Event: EventLine, Loc: Loc{Line: 2}, Locals: l, Frame: frame}
	}
	cases := []struct {
		name   string
		prev   State
		action Action
		s      State
		want   string
	}{
		{"unchanged", line(1, ab), Action{Kind: StepInto}, line(1, ab), `{"..": ".."}`},
		{"changed", line(1, ab), Action{Kind: StepOver}, line(1, Locals{{"a", "1"}, {"b", "3"}}), `{"b": "3", "..": ".."}`},
		{"new appended", line(1, ab), Action{Kind: StepInto}, line(1, Locals{{"a", "1"}, {"b", "2"}, {"n", "0"}}), `{"n": "0", "..": ".."}`},
		{"all changed", line(1, ab), Action{Kind: StepInto}, line(1, Locals{{"a", "5"}, {"b", "6"}}), `{"a": "5", "b": "6"}`},
		{"empty to empty", line(1, Locals{}), Action{Kind: StepInto}, line(1, Locals{}), `{}`},
		{"empty to new", line(1, nil), Action{Kind: StepInto}, line(1, Locals{{"n", "0"}}), `{"n": "0"}`},
		{"from call", State{Event: EventCall, Loc: Loc{Line: 1}, Locals: ab, Frame: 1}, Action{Kind: StepInto}, line(1, ab), `{"..": ".."}`},
		{"call state", line(1, ab), Action{Kind: StepInto}, State{Event: EventCall, Loc: Loc{Line: 1}, Locals: ab, Frame: 1}, `{"a": "1", "b": "2"}`},
		{"other frame", line(1, ab), Action{Kind: StepInto}, line(2, ab), `{"a": "1", "b": "2"}`},
		{"unknown frame", line(0, ab), Action{Kind: StepInto}, line(0, ab), `{"a": "1", "b": "2"}`},
		{"breakpoint", line(1, ab), Action{Kind: Breakpoint, Lines: []Loc{{Line: 2}}}, line(1, ab), `{"a": "1", "b": "2"}`},
		{"deleted", line(1, ab), Action{Kind: StepInto}, line(1, Locals{{"a", "1"}}), `{"a": "1"}`},
		{"new before old", line(1, ab), Action{Kind: StepInto}, line(1, Locals{{"n", "0"}, {"a", "1"}, {"b", "2"}}), `{"n": "0", "a": "1", "b": "2"}`},
		{"reordered", line(1, ab), Action{Kind: StepInto}, line(1, Locals{{"b", "2"}, {"a", "1"}}), `{"b": "2", "a": "1"}`},
		{"after return", State{Event: EventReturn, Loc: Loc{Line: 6}, Frame: 1}, Action{Kind: StepInto}, line(1, ab), `{"a": "1", "b": "2"}`},
	}
	for _, c := range cases {
		e := NewEncoder(ctx, Forward)
		if _, err := e.Start(c.prev); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, err := e.Action(c.action); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := e.State(c.s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := c.s.Event.Token() + c.want + TokenSrcSep
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want prefix %q", c.name, got, want)
		}
		back, _, n, err := DecodeNext(ctx, &c.prev, got)
		if err != nil || n != len(got) || !back.Equal(c.s) {
			t.Errorf("%s: DecodeNext = %+v %v", c.name, back, err)
		}
		if wantFrame := 0; strings.Contains(c.want, diffMarkerEntry) {
			wantFrame = c.prev.Frame
			if back.Frame != wantFrame {
				t.Errorf("%s: decoded Frame %d, want %d", c.name, back.Frame, wantFrame)
			}
		} else if back.Frame != 0 {
			t.Errorf("%s: decoded Frame %d, want 0", c.name, back.Frame)
		}
	}
}

func TestInverseAndBreakpoints(t *testing.T) {
	ctx := NewContext("", countSource)
	tr := Trajectory{
		Context:   ctx,
		Direction: Inverse,
		Start:     State{Event: EventReturn, Loc: Loc{Line: 6}, Value: "2", Frame: 1},
		Steps: []Step{
			{Action: Action{Kind: InvStepInto}, State: State{Event: EventInvLineCall, Loc: Loc{Line: 5}, Frame: 1}},
			{Action: Action{Kind: InvStepOver}, State: State{Event: EventLine, Loc: Loc{Line: 5}, Locals: Locals{{"n", "1"}}, Frame: 1}},
			{Action: Action{Kind: InvStepCall}, State: State{Event: EventCall, Loc: Loc{Line: 1}, Locals: Locals{{"s", "'r'"}, {"t", "'r'"}}, Frame: 1}},
		},
	}
	text, err := EncodeTrajectory(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := TokenTraceContextStart + ctx.Text() + `<|inverse|><|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"2"<|frame_sep|>` +
		`<|action_sep|><|inv_step_into|><|inv_line_call_sep|><|src_sep|>  5|             n += 1<|frame_sep|>` +
		`<|action_sep|><|inv_step_over|><|line_sep|>{"n": "1"}<|src_sep|>  5|             n += 1<|frame_sep|>` +
		`<|action_sep|><|inv_step_call|><|call_sep|>{"s": "'r'", "t": "'r'"}<|src_sep|>  1| def count(s, t):<|frame_sep|>`
	if text != want {
		t.Fatalf("got  %q\nwant %q", text, want)
	}
	fw := countTrajectory()
	fw.Steps = []Step{
		{Action: Action{Kind: Breakpoint, Lines: []Loc{{Line: 5}, {Line: 6}}}, State: State{Event: EventLine, Loc: Loc{Line: 5}, Locals: Locals{{"s", "'berry'"}, {"t", "'r'"}, {"n", "0"}, {"c", "'r'"}}, Frame: 1}},
		{Action: Action{Kind: Breakpoint, Lines: []Loc{{Line: 4}}}, Exit: ExitNormal},
	}
	text, err = EncodeTrajectory(fw)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `<|action_sep|><|breakpoint|>  5|             n += 1<|src_sep|>  6|     return n<|line_sep|>{"s": "'berry'", "t": "'r'", "n": "0", "c": "'r'"}`) ||
		!strings.HasSuffix(text, `<|action_sep|><|breakpoint|>  4|         if c == t:<|exit_sep|>normal<|frame_sep|>`) {
		t.Fatalf("breakpoint encoding: %q", text)
	}
	back, err := DecodeTrajectory(text)
	if err != nil || !back.Equal(fw) {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

func TestEncodeErrors(t *testing.T) {
	ctx := NewContext("", countSource)
	call := State{Event: EventCall, Loc: Loc{Line: 1}, Locals: Locals{}, Frame: 1}
	cases := []struct {
		name string
		t    Trajectory
	}{
		{"no direction", Trajectory{Context: ctx, Start: call}},
		{"missing location", Trajectory{Context: ctx, Direction: Forward, Start: State{Event: EventLine, Loc: Loc{Line: 9}}}},
		{"no event", Trajectory{Context: ctx, Direction: Forward, Start: State{Loc: Loc{Line: 1}}}},
		{"inv_line_call forward", Trajectory{Context: ctx, Direction: Forward, Start: State{Event: EventInvLineCall, Loc: Loc{Line: 1}}}},
		{"locals on a return", Trajectory{Context: ctx, Direction: Forward, Start: State{Event: EventReturn, Loc: Loc{Line: 6}, Locals: Locals{{"a", "1"}}}}},
		{"value on a line", Trajectory{Context: ctx, Direction: Forward, Start: State{Event: EventLine, Loc: Loc{Line: 6}, Value: "1"}}},
		{"marker name", Trajectory{Context: ctx, Direction: Forward, Start: State{Event: EventLine, Loc: Loc{Line: 6}, Locals: Locals{{"..", ".."}}}}},
		{"inverse action", Trajectory{Context: ctx, Direction: Forward, Start: call, Steps: []Step{{Action: Action{Kind: InvStepOver}, State: call}}}},
		{"forward action", Trajectory{Context: ctx, Direction: Inverse, Start: call, Steps: []Step{{Action: Action{Kind: StepOver}, State: call}}}},
		{"breakpoint without lines", Trajectory{Context: ctx, Direction: Forward, Start: call, Steps: []Step{{Action: Action{Kind: Breakpoint}, State: call}}}},
		{"breakpoint outside", Trajectory{Context: ctx, Direction: Forward, Start: call, Steps: []Step{{Action: Action{Kind: Breakpoint, Lines: []Loc{{Line: 70}}}, State: call}}}},
		{"breakpoint twice", Trajectory{Context: ctx, Direction: Forward, Start: call, Steps: []Step{{Action: Action{Kind: Breakpoint, Lines: []Loc{{Line: 2}, {Line: 2}}}, State: call}}}},
		{"bad exit", Trajectory{Context: ctx, Direction: Forward, Start: call, Steps: []Step{{Action: Action{Kind: Continue}, Exit: "crashed"}}}},
		{"state and exit", Trajectory{Context: ctx, Direction: Forward, Start: call, Steps: []Step{{Action: Action{Kind: Continue}, Exit: ExitNormal, State: call}}}},
		{"after exit", Trajectory{Context: ctx, Direction: Forward, Start: call, Steps: []Step{{Action: Action{Kind: Continue}, Exit: ExitNormal}, {Action: Action{Kind: StepInto}, State: call}}}},
	}
	for _, c := range cases {
		if text, err := EncodeTrajectory(c.t); err == nil {
			t.Errorf("%s: encoded as %q", c.name, text)
		}
	}
	// A failed call changes nothing: the encoder can go on.
	e := NewEncoder(ctx, Forward)
	if _, err := e.Start(State{Event: EventLine, Loc: Loc{Line: 99}}); err == nil {
		t.Fatal("missing location accepted")
	}
	if _, err := e.Start(call); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Step(Step{Action: Action{Kind: StepInto}, State: State{Event: EventLine, Loc: Loc{Line: 99}}}); err == nil {
		t.Fatal("missing location accepted")
	}
	if s, err := e.Step(Step{Action: Action{Kind: StepInto}, State: State{Event: EventLine, Loc: Loc{Line: 2}, Locals: Locals{}, Frame: 1}}); err != nil || s != "<|action_sep|><|step_into|><|line_sep|>{}<|src_sep|>  2|     n = 0<|frame_sep|>" {
		t.Fatalf("after a failed step: %q %v", s, err)
	}
}
