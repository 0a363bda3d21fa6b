package grammar

import "testing"

// typicalTrajectory is a forward trajectory of ten actions over the spec's function:
// count("berry", "r") walked with step_into, step_over, a breakpoint and step_return.
func typicalTrajectory() Trajectory {
	ctx := NewContext("", countSource)
	args := Locals{{"s", "'berry'"}, {"t", "'r'"}}
	with := func(vs ...Var) Locals { return append(args.Clone(), vs...) }
	line := func(n int, l Locals) State {
		return State{Event: EventLine, Loc: Loc{Line: n}, Locals: l, Frame: 1, Func: "count"}
	}
	return Trajectory{
		Context:   ctx,
		Direction: Forward,
		Start:     State{Event: EventCall, Loc: Loc{Line: 1}, Locals: args, Frame: 1, Func: "count"},
		Steps: []Step{
			{Action: Action{Kind: StepInto}, State: line(2, args)},
			{Action: Action{Kind: StepInto}, State: line(3, with(Var{"n", "0"}))},
			{Action: Action{Kind: StepOver}, State: line(4, with(Var{"n", "0"}, Var{"c", "'b'"}))},
			{Action: Action{Kind: StepInto}, State: line(3, with(Var{"n", "0"}, Var{"c", "'b'"}))},
			{Action: Action{Kind: StepInto}, State: line(4, with(Var{"n", "0"}, Var{"c", "'e'"}))},
			{Action: Action{Kind: StepInto}, State: line(3, with(Var{"n", "0"}, Var{"c", "'e'"}))},
			{Action: Action{Kind: Breakpoint, Lines: []Loc{{Line: 5}}}, State: line(5, with(Var{"n", "0"}, Var{"c", "'r'"}))},
			{Action: Action{Kind: StepOver}, State: line(3, with(Var{"n", "1"}, Var{"c", "'r'"}))},
			{Action: Action{Kind: StepInto}, State: line(4, with(Var{"n", "1"}, Var{"c", "'r'"}))},
			{Action: Action{Kind: StepReturn}, State: State{Event: EventReturn, Loc: Loc{Line: 6}, Value: "2", Frame: 1, Func: "count"}},
		},
	}
}

func BenchmarkEncodeTrajectory(b *testing.B) {
	t := typicalTrajectory()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendTrajectory(buf[:0], t); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "traj/s")
}

// BenchmarkEncodeTrajectoryString measures EncodeTrajectory itself (a fresh string
// each time) over a context written as a literal (no precomputed index).
func BenchmarkEncodeTrajectoryString(b *testing.B) {
	t := typicalTrajectory()
	t.Context = Context{Files: t.Context.Files}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeTrajectory(t); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "traj/s")
}

func BenchmarkDecodeTrajectory(b *testing.B) {
	text, err := EncodeTrajectory(typicalTrajectory())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeTrajectory(text); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "traj/s")
}
