package eval

import "fmt"

// Component is a part of a next state that is scored on its own (the paper's
// Figure 7: EVT, SRC, LOCALS, ARGS), or the whole state.
type Component int

// The scored components. Exact is the whole next state.
const (
	Exact Component = iota
	EventC
	LineC
	LocalsC
	ValueC
	numComponents
)

// Components lists the components in table order.
var Components = []Component{Exact, EventC, LineC, LocalsC, ValueC}

// String is the component's column name.
func (c Component) String() string {
	return [...]string{"exact", "event", "line", "locals", "value"}[c]
}

// Verdict is the score of one component of one prediction.
type Verdict int8

// A component is hit, missed, or not applicable (the target state has no such
// component: a return state has no locals, an exit state no line).
const (
	NA Verdict = iota
	Miss
	Hit
)

// Scores holds a verdict for each component.
type Scores [numComponents]Verdict

// Score compares a prediction with the target next state, component by component.
// An undecoded prediction misses every applicable component. The event component of
// an exit target is hit by the same exit state; its line, locals and value are n/a.
// Locals are compared in order, name and repr.
func Score(target Next, p Prediction) Scores {
	var s Scores
	verdict := func(ok bool) Verdict {
		if ok && !p.Undecoded {
			return Hit
		}
		return Miss
	}
	if target.Exit != "" {
		s[EventC] = verdict(p.Exit == target.Exit)
		s[Exact] = s[EventC]
		return s
	}
	t, q := target.State, p.State
	isState := p.Exit == ""
	s[EventC] = verdict(isState && q.Event == t.Event)
	s[LineC] = verdict(isState && q.Loc == t.Loc)
	if t.Event.HasLocals() {
		s[LocalsC] = verdict(isState && q.Event.HasLocals() && q.Locals.Equal(t.Locals))
	}
	if t.Event.HasValue() {
		s[ValueC] = verdict(isState && q.Event.HasValue() && q.Value == t.Value)
	}
	exact := true
	for _, c := range Components[1:] {
		if s[c] == Miss {
			exact = false
		}
	}
	s[Exact] = verdict(exact)
	return s
}

// Tally counts the verdicts of many predictions.
type Tally struct {
	N          int
	Hits       [numComponents]int
	Applicable [numComponents]int
	Undecoded  int // predictions that did not decode, TooLong among them
	TooLong    int // prompts that did not fit the model's context
	Invented   int // predictions naming a line or local the program does not have
}

// Add counts one prediction's scores.
func (t *Tally) Add(s Scores, p Prediction) {
	t.N++
	if p.Undecoded {
		t.Undecoded++
	}
	if p.TooLong {
		t.TooLong++
	}
	if p.Invented {
		t.Invented++
	}
	for c, v := range s {
		if v != NA {
			t.Applicable[c]++
		}
		if v == Hit {
			t.Hits[c]++
		}
	}
}

// Rate is the share of hits among the applicable predictions (ok false when none
// was applicable).
func (t Tally) Rate(c Component) (float64, bool) {
	if t.Applicable[c] == 0 {
		return 0, false
	}
	return float64(t.Hits[c]) / float64(t.Applicable[c]), true
}

// Percent formats a component's rate as a percentage with one decimal, "n/a" when
// no target had the component.
func (t Tally) Percent(c Component) string {
	r, ok := t.Rate(c)
	if !ok {
		return "n/a"
	}
	return pct(r)
}

func pct(r float64) string { return fmt.Sprintf("%.1f", 100*r) }

// ratio formats hits out of n as a percentage, "n/a" when n is 0.
func ratio(hits, n int) string {
	if n == 0 {
		return "n/a"
	}
	return pct(float64(hits) / float64(n))
}
