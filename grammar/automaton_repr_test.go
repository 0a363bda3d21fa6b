package grammar

import (
	"strings"
	"testing"
)

// stateAfter is the text of st written after action a from prev in count's context.
func stateAfter(t *testing.T, prev State, a Action, st State) string {
	t.Helper()
	tr := Trajectory{Context: NewContext("", countSource), Direction: Forward, Start: prev}
	prompt, err := EncodePrompt(tr, a)
	if err != nil {
		t.Fatal(err)
	}
	tr.Steps = []Step{{Action: a, State: st}}
	full, err := EncodeTrajectory(tr)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(full, prompt)
}

// TestValuesAreReprs writes values as a local's and as a returned value's: reprs
// the tracer writes (cut ones too) are allowed, text that no repr is (source code,
// punctuation, brackets that do not match, a bare name, text after a repr's end) is
// not.
func TestValuesAreReprs(t *testing.T) {
	good := []string{
		"0", "-3", "1.5e-07", "'abc'", `"it's"`, `'it\'s'`, "'(unclosed paren in a string'",
		"[1, [2, (3,)], {'a': {4}}]", "{}", "set()", "frozenset({1})", "None", "True", "inf",
		"Point(x=1, y=2)", "<function f.<locals>.g>", "<class 'int'>", "[[...]]", "b'\\x00'",
		"'a\\nb'", "defaultdict(<class 'list'>, {})", "(1+2j)", "'\u00e9t\u00e9'", "'\U0001F600'",
		"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1...", "'abcdefghijklmnopqrst...", "b'ab'", "datetime.date(2020, 1, 1)",
		"Counter({'a': 1})", "<Color.RED: 1>", "nan", "NotImplemented", "Fooo...", "'ab'...",
		"[1, 2]...", "_Missing()",
	}
	bad := []string{
		"", " 3", ": ", ":", ".lower()", " + text.lower()", "[1, 2", "(1]", "'abc", "1}",
		"[1, 2]]", "'a' 'b", ",", "=", ")", "'a' + 'b')", "Node 3", "y", "Tru", "None.",
		"T elif self.low", "'An' and 'int'", "[1] + [2]", "(1, 2)[0]", "'a'.upper()", "x + 1",
		"math.pi", "c'a'", "bb'a'", "'a'b", "[3:].....", "Foo....", "'a'...b", "Fo...o",
	}
	prev := State{Event: EventCall, Loc: Loc{Line: 1}, Frame: 1, Locals: Locals{{"s", "'ab'"}, {"t", "'b'"}}}
	step := Action{Kind: StepInto}
	ret := Action{Kind: StepReturn}
	for _, v := range good {
		line := State{Event: EventLine, Loc: Loc{Line: 2}, Frame: 2, Locals: Locals{{"s", "'ab'"}, {"t", "'b'"}, {"n", v}}}
		if text := stateAfter(t, prev, step, line); !accepts(nil, prev, step, text) {
			t.Errorf("the repr %q is not allowed as a local: %q", v, text)
		}
		r := State{Event: EventReturn, Loc: Loc{Line: 6}, Value: v}
		if text := stateAfter(t, prev, ret, r); !accepts(nil, prev, ret, text) {
			t.Errorf("the repr %q is not allowed as a returned value: %q", v, text)
		}
	}
	for _, v := range bad {
		line := State{Event: EventLine, Loc: Loc{Line: 2}, Frame: 2, Locals: Locals{{"s", "'ab'"}, {"t", "'b'"}, {"n", v}}}
		if text := stateAfter(t, prev, step, line); accepts(nil, prev, step, text) {
			t.Errorf("%q is allowed as a local's repr", v)
		}
		r := State{Event: EventReturn, Loc: Loc{Line: 6}, Value: v}
		if text := stateAfter(t, prev, ret, r); accepts(nil, prev, ret, text) {
			t.Errorf("%q is allowed as a returned repr", v)
		}
	}
}

// TestForcedCloseWritesARepr closes values cut anywhere: the result is a state.
func TestForcedCloseWritesARepr(t *testing.T) {
	prev := State{Event: EventCall, Loc: Loc{Line: 1}, Frame: 1, Locals: Locals{{"s", "'ab'"}, {"t", "'b'"}}}
	step := Action{Kind: StepInto}
	for _, v := range []string{"[1, (2, 'x", "{'a': [", "'it\\'", "Point(x=", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1", "'a'..", "Foo.", "Tru", "f(1)."} {
		line := State{Event: EventLine, Loc: Loc{Line: 2}, Frame: 2, Locals: Locals{{"n", v + "]"}}}
		text := stateAfter(t, prev, step, line)
		esc := string(AppendQuoteJSON(nil, v))
		esc = esc[1 : len(esc)-1]
		cut := text[:strings.Index(text, esc)+len(esc)]
		au := NewAutomaton(NewContext("", countSource), Forward, &prev, StepInto, nil, Limits{})
		if !au.FeedText(cut) {
			t.Fatalf("%q: the prefix %q is not allowed", v, cut)
		}
		closed := string(au.Finish([]byte(cut), ""))
		if _, _, _, err := DecodeNext(NewContext("", countSource), &prev, closed); err != nil || !accepts(nil, prev, step, closed) {
			t.Errorf("%q closed as %q: %v", v, closed, err)
		}
	}
}
