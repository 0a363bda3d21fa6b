package grammar

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// countProgram is the spec example's program with its facts, as trace/analyze.py
// computes them (testdata/count_facts.json).
func countProgram(t testing.TB) *Program {
	t.Helper()
	js, err := os.ReadFile("testdata/count_facts.json")
	if err != nil {
		t.Fatal(err)
	}
	var f Facts
	if err := json.Unmarshal(js, &f); err != nil {
		t.Fatal(err)
	}
	p, err := NewProgram(NewContext("", countSource), &f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// accepts reports whether the automaton of the state after a from prev (under p's
// facts when p is not nil) accepts text as a whole state.
func accepts(p *Program, prev State, a Action, text string) bool {
	ctx := NewContext("", countSource)
	var tg *Targets
	if p != nil {
		tg = p.Targets(&prev, a)
	}
	dir := Forward
	if a.Kind.Inverse() {
		dir = Inverse
	}
	au := NewAutomaton(ctx, dir, &prev, a.Kind, tg, Limits{})
	return au.FeedText(text) && au.Done()
}

func TestProgramFactsNarrowTheState(t *testing.T) {
	p := countProgram(t)
	call := State{Event: EventCall, Loc: Loc{Line: 1}, Locals: Locals{{"s", "'berry'"}, {"t", "'r'"}}, Frame: 1}
	line2 := State{Event: EventLine, Loc: Loc{Line: 2}, Locals: call.Locals, Frame: 1}
	line3 := State{Event: EventLine, Loc: Loc{Line: 3}, Locals: append(call.Locals.Clone(), Var{"n", "0"}), Frame: 1}
	line6 := State{Event: EventLine, Loc: Loc{Line: 6}, Locals: append(line3.Locals.Clone(), Var{"c", "'y'"}), Frame: 1}
	line6.Locals[2].Repr = "2"
	into, ret, bp := Action{Kind: StepInto}, Action{Kind: StepReturn}, Action{Kind: Breakpoint, Lines: []Loc{{Line: 5}}}
	bp2 := Action{Kind: Breakpoint, Lines: []Loc{{Line: 2}, {Line: 5}}}
	for _, c := range []struct {
		name    string
		prev    State
		a       Action
		text    string
		grammar bool // the grammar alone accepts it
		program bool // the program facts accept it
	}{
		{"the real next line", line2, into, `<|line_sep|>{"n": "0", "..": ".."}<|src_sep|>  3|     for c in s:<|frame_sep|>`, true, true},
		{"n = 0 makes n 1", line2, into, `<|line_sep|>{"n": "1", "..": ".."}<|src_sep|>  3|     for c in s:<|frame_sep|>`, true, false},
		{"n = 0 leaves nothing out", line2, into, `<|line_sep|>{"n": "0"}<|src_sep|>  3|     for c in s:<|frame_sep|>`, true, false},
		{"the call's first line changes nothing", call, into, `<|line_sep|>{"..": ".."}<|src_sep|>  2|     n = 0<|frame_sep|>`, true, true},
		{"the call's first line changes s", call, into, `<|line_sep|>{"s": "'b'", "..": ".."}<|src_sep|>  2|     n = 0<|frame_sep|>`, true, false},
		{"return n gives n", line6, into, `<|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"2"<|frame_sep|>`, true, true},
		{"return n gives another value", line6, into, `<|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"3"<|frame_sep|>`, true, false},
		{"a line that cannot follow", line2, into, `<|line_sep|>{"n": "0"}<|src_sep|>  5|             n += 1<|frame_sep|>`, true, false},
		{"the same line again", line2, into, `<|line_sep|>{"n": "0"}<|src_sep|>  2|     n = 0<|frame_sep|>`, true, false},
		{"a name no frame has", line3, into, `<|line_sep|>{"parts": "[]"}<|src_sep|>  4|         if c == t:<|frame_sep|>`, true, false},
		{"s = 0 after for c in s", line3, into, `<|line_sep|>{"s": "0"}<|src_sep|>  4|         if c == t:<|frame_sep|>`, true, false},
		{"c after for c in s", line3, into, `<|line_sep|>{"c": "'b'", "..": ".."}<|src_sep|>  4|         if c == t:<|frame_sep|>`, true, true},
		{"a loop exit to the return", line3, into, `<|line_sep|>{"..": ".."}<|src_sep|>  6|     return n<|frame_sep|>`, true, true},
		{"a call state's keys are the parameters", line2, Action{Kind: InvStepCall}, `<|call_sep|>{"s": "'ab'", "t": "'b'"}<|src_sep|>  1| def count(s, t):<|frame_sep|>`, true, true},
		{"a call state missing a parameter", line2, Action{Kind: InvStepCall}, `<|call_sep|>{"s": "'ab'"}<|src_sep|>  1| def count(s, t):<|frame_sep|>`, true, false},
		{"a call state at a line that is no def", line2, Action{Kind: InvStepCall}, `<|call_sep|>{"s": "'ab'", "t": "'b'"}<|src_sep|>  2|     n = 0<|frame_sep|>`, true, false},
		{"step_return at the return line", line3, ret, `<|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"2"<|frame_sep|>`, true, true},
		{"step_return at a line that does not return", line3, ret, `<|return_sep|><|src_sep|>  3|     for c in s:<|arg_sep|>"2"<|frame_sep|>`, true, false},
		{"a breakpoint stops at its line", call, bp, `<|line_sep|>{"s": "'berry'", "t": "'r'", "n": "0", "c": "'r'"}<|src_sep|>  5|             n += 1<|frame_sep|>`, true, true},
		{"a breakpoint elsewhere", call, bp, `<|line_sep|>{"s": "'berry'", "t": "'r'", "n": "0", "c": "'r'"}<|src_sep|>  4|         if c == t:<|frame_sep|>`, true, false},
		{"the exit after a breakpoint", call, bp, `<|exit_sep|>normal<|frame_sep|>`, true, true},
		{"a breakpoint at the first line stops there", call, bp2, `<|line_sep|>{"s": "'berry'", "t": "'r'"}<|src_sep|>  2|     n = 0<|frame_sep|>`, true, true},
		{"no exit before the first line", call, bp2, `<|exit_sep|>normal<|frame_sep|>`, true, false},
		{"a repeated name", line3, into, `<|line_sep|>{"n": "0", "n": "1"}<|src_sep|>  4|         if c == t:<|frame_sep|>`, false, false},
	} {
		if got := accepts(nil, c.prev, c.a, c.text); got != c.grammar {
			t.Errorf("%s: the grammar accepts %v, want %v", c.name, got, c.grammar)
		}
		if got := accepts(p, c.prev, c.a, c.text); got != c.program {
			t.Errorf("%s: the program facts accept %v, want %v", c.name, got, c.program)
		}
	}
}

func TestInventedCountsWhatTheProgramLacks(t *testing.T) {
	p := countProgram(t)
	for _, c := range []struct {
		s    State
		want bool
	}{
		{State{Event: EventLine, Loc: Loc{Line: 3}, Locals: Locals{{"n", "0"}}}, false},
		{State{Event: EventLine, Loc: Loc{Line: 3}, Locals: Locals{{"parts", "[]"}}}, true},
		{State{Event: EventCall, Loc: Loc{Line: 2}}, true},
		{State{Event: EventReturn, Loc: Loc{Line: 6}, Value: "0"}, false},
		{State{Event: EventReturn, Loc: Loc{Line: 3}, Value: "0"}, true},
	} {
		if got := p.Invented(c.s); got != c.want {
			t.Errorf("%s %d %v: invented %v, want %v", c.s.Event, c.s.Loc.Line, c.s.Locals, got, c.want)
		}
	}
}

// FuzzAutomaton walks the automaton with the fuzzer's bytes choosing among what it
// allows (special tokens and bytes), under the grammar alone and under the program
// facts: every state it accepts must decode with DecodeNext, whole.
func FuzzAutomaton(f *testing.F) {
	p := countProgram(f)
	ctx := NewContext("", countSource)
	f.Add([]byte{0, 1, 2, 3}, uint8(0))
	f.Add([]byte("\x01\x00\x07\x07\x03\x09\x11"), uint8(9))
	f.Add([]byte(strings.Repeat("\x05\x02\xff", 40)), uint8(21))
	prevs := []State{
		{Event: EventCall, Loc: Loc{Line: 1}, Locals: Locals{{"s", "'berry'"}, {"t", "'r'"}}, Frame: 1},
		{Event: EventLine, Loc: Loc{Line: 3}, Locals: Locals{{"s", "'b'"}, {"t", "'r'"}, {"n", "0"}}, Frame: 1},
		{Event: EventReturn, Loc: Loc{Line: 6}, Value: "1", Frame: 1},
		{Event: EventLine, Loc: Loc{Line: 9}, Locals: Locals{{"x", "1"}}}, // no code object has it
		// the branch rule: c == t is known
		{Event: EventLine, Loc: Loc{Line: 4}, Locals: Locals{{"s", "'berry'"}, {"t", "'r'"}, {"n", "0"}, {"c", "'r'"}}, Frame: 1},
	}
	f.Fuzz(func(t *testing.T, choices []byte, setup uint8) {
		prev := prevs[int(setup)%len(prevs)]
		kind := AllActions[int(setup/4)%len(AllActions)]
		a := Action{Kind: kind}
		if kind == Breakpoint {
			a.Lines = []Loc{{Line: 3}, {Line: 5}}
		}
		dir := Forward
		if kind.Inverse() {
			dir = Inverse
		}
		var tg *Targets
		if setup&0x80 == 0 {
			tg = p.Targets(&prev, a)
		}
		au := NewAutomaton(ctx, dir, &prev, kind, tg, Limits{MaxRepr: 6, MaxKey: 8, MaxVars: 4})
		var text []byte
		for _, ch := range choices {
			if au.Done() {
				break
			}
			var opts []string
			for _, sp := range SpecialTokens {
				c := au
				if c.FeedSpecial(sp) {
					opts = append(opts, sp)
				}
			}
			for b := 0; b < 256; b++ {
				c := au
				if c.FeedByte(byte(b)) {
					opts = append(opts, string([]byte{byte(b)}))
				}
			}
			if len(opts) == 0 {
				if tg == nil {
					return // the grammar alone: a key at its length limit can repeat one
				}
				t.Fatalf("a dead end under the facts after %q", text)
			}
			pick := opts[int(ch)%len(opts)]
			if IsSpecialToken(pick) {
				au.FeedSpecial(pick)
			} else {
				au.FeedByte(pick[0])
			}
			text = append(text, pick...)
		}
		if !au.Done() {
			return
		}
		_, _, n, err := DecodeNext(ctx, &prev, string(text))
		if err != nil || n != len(text) {
			t.Fatalf("accepted %q does not decode: %v (%d of %d bytes)", text, err, n, len(text))
		}
		if tg != nil {
			st, x, _, _ := DecodeNext(ctx, &prev, string(text))
			if x == "" && p.Invented(st) {
				t.Fatalf("accepted %q invents a line or a name", text)
			}
		}
	})
}

// TestProgramIsSafeForConcurrentUse asks a Program for targets from several goroutines
// (go test -race).
func TestProgramIsSafeForConcurrentUse(t *testing.T) {
	p := countProgram(t)
	prev := State{Event: EventLine, Loc: Loc{Line: 3}, Locals: Locals{{"n", "0"}}}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			for _, k := range AllActions {
				p.Targets(&prev, Action{Kind: k})
			}
			done <- true
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	if !p.Targets(&prev, Action{Kind: InvStepInto}).Has(EventLine, 2) {
		t.Error("inv_step_into from line 3 does not allow line 2")
	}
}
