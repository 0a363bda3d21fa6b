package grammar

import "testing"

// TestBranchRuleNarrowsTheLine: after `if c == t:` with c and t known, a step goes
// only the way the test goes; with c unknown (a cut repr) or a partial state, both ways.
func TestBranchRuleNarrowsTheLine(t *testing.T) {
	p := countProgram(t)
	at := func(c string) State {
		return State{Event: EventLine, Loc: Loc{Line: 4}, Frame: 1,
			Locals: Locals{{"s", "'berry'"}, {"t", "'r'"}, {"n", "0"}, {"c", c}}}
	}
	over := Action{Kind: StepOver}
	body := `<|line_sep|>{"..": ".."}<|src_sep|>  5|             n += 1<|frame_sep|>`
	loop := `<|line_sep|>{"..": ".."}<|src_sep|>  3|     for c in s:<|frame_sep|>`
	// A state in the diff form (not the whole state the session holds) gets no rule.
	partial := at("'r'")
	partial.Locals = append(partial.Locals, Var{DiffMarkerKey, DiffMarkerKey})
	if p.Targets(&partial, over).BranchRule() {
		t.Errorf("the rule applies to a partial state")
	}
	for _, c := range []struct {
		name       string
		prev       State
		ruled      bool
		body, loop bool // accepted
	}{
		{"c == t", at("'r'"), true, true, false},
		{"c != t", at("'b'"), true, false, true},
		{"c cut", at("'rrrrrr..."), false, true, true},
		{"c a float", at("1.0"), false, true, true},
	} {
		if got := p.Targets(&c.prev, over).BranchRule(); got != c.ruled {
			t.Errorf("%s: rule %v, want %v", c.name, got, c.ruled)
		}
		if got := accepts(p, c.prev, over, body); got != c.body {
			t.Errorf("%s: the body accepted %v, want %v", c.name, got, c.body)
		}
		if got := accepts(p, c.prev, over, loop); got != c.loop {
			t.Errorf("%s: the loop line accepted %v, want %v", c.name, got, c.loop)
		}
	}
}
