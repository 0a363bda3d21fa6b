package grammar

import (
	"strings"
	"testing"
)

const countSource = `def count(s, t):
    n = 0
    for c in s:
        if c == t:
            n += 1
    return n
`

// specExample is the example of spec section 5, byte for byte.
const specExample = "<|trace_context_start|>  1| def count(s, t):\n" +
	"  2|     n = 0\n" +
	"  3|     for c in s:\n" +
	"  4|         if c == t:\n" +
	"  5|             n += 1\n" +
	"  6|     return n\n" +
	`<|forward|><|call_sep|>{"s": "'berry'", "t": "'r'"}<|src_sep|>  1| def count(s, t):<|frame_sep|><|action_sep|><|step_into|><|line_sep|>{"..": ".."}<|src_sep|>  2|     n = 0<|frame_sep|><|action_sep|><|step_return|><|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"2"<|frame_sep|>`

func countTrajectory() Trajectory {
	args := Locals{{"s", "'berry'"}, {"t", "'r'"}}
	return Trajectory{
		Context:   NewContext("", countSource),
		Direction: Forward,
		Start:     State{Event: EventCall, Loc: Loc{Line: 1}, Locals: args, Frame: 1, Func: "count"},
		Steps: []Step{
			{Action: Action{Kind: StepInto}, State: State{Event: EventLine, Loc: Loc{Line: 2}, Locals: args.Clone(), Frame: 1, Func: "count"}},
			{Action: Action{Kind: StepReturn}, State: State{Event: EventReturn, Loc: Loc{Line: 6}, Value: "2", Frame: 1, Func: "count"}},
		},
	}
}

func TestSpecExample(t *testing.T) {
	got, err := EncodeTrajectory(countTrajectory())
	if err != nil {
		t.Fatal(err)
	}
	if got != specExample {
		t.Fatalf("encoding differs from spec section 5:\n got: %q\nwant: %q", got, specExample)
	}
	back, err := DecodeTrajectory(got)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(countTrajectory()) {
		t.Fatalf("round trip differs: %+v", back)
	}
	if l := back.Steps[0].State.Locals; !l.Equal(Locals{{"s", "'berry'"}, {"t", "'r'"}}) {
		t.Fatalf("merged locals = %v", l)
	}
	if back.Start.Frame != back.Steps[0].State.Frame || back.Steps[0].State.Frame == back.Steps[1].State.Frame {
		t.Fatalf("synthetic frames: %d %d %d", back.Start.Frame, back.Steps[0].State.Frame, back.Steps[1].State.Frame)
	}
	again, err := EncodeTrajectory(back)
	if err != nil || again != got {
		t.Fatalf("re-encoding the decoded trajectory: %v\n%q", err, again)
	}
}

// TestSpecExampleIncremental builds the example with the Encoder, piece by piece, and
// decodes the generated part with DecodeNext as the model's consumer would.
func TestSpecExampleIncremental(t *testing.T) {
	tr := countTrajectory()
	e := NewEncoder(tr.Context, Forward)
	var b strings.Builder
	s, err := e.Start(tr.Start)
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(s)
	prev := tr.Start
	for _, st := range tr.Steps {
		a, err := e.Action(st.Action)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(a)
		if !strings.HasSuffix(specExample[:b.Len()], a) || !strings.HasPrefix(specExample, b.String()) {
			t.Fatalf("prefix after action differs: %q", b.String())
		}
		x, err := e.State(st.State)
		if err != nil {
			t.Fatal(err)
		}
		got, exit, n, err := DecodeNext(tr.Context, &prev, specExample[b.Len():])
		if err != nil || exit != "" || n != len(x) || !got.Equal(st.State) {
			t.Fatalf("DecodeNext = %+v %q %d %v; want %+v, %d", got, exit, n, err, st.State, len(x))
		}
		b.WriteString(x)
		prev = st.State
	}
	if b.String() != specExample {
		t.Fatalf("incremental encoding differs:\n got: %q\nwant: %q", b.String(), specExample)
	}
	if _, err := e.State(prev); err == nil {
		t.Fatal("State without an action must fail")
	}
	if _, err := e.Action(Action{Kind: InvStepInto}); err == nil {
		t.Fatal("an inverse action in a forward trajectory must fail")
	}
	if a, _ := e.Action(Action{Kind: Continue}); a != TokenActionSep+TokenContinue {
		t.Fatalf("continue = %q", a)
	}
	if x, err := e.Exit(ExitNormal); err != nil || x != "<|exit_sep|>normal<|frame_sep|>" {
		t.Fatalf("exit = %q, %v", x, err)
	}
	if !e.Done() {
		t.Fatal("not done after exit")
	}
	if _, err := e.Action(Action{Kind: StepInto}); err == nil {
		t.Fatal("an action after the exit must fail")
	}
}
