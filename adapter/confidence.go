package adapter

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ndb-project/ndb/grammar"
)

// This file shows the model's confidence in a predicted state where clients look,
// without changing what a value is: a predicted variable's `value` stays its plain
// repr (copying, watching and setting it work as with any debugger) and its
// confidence goes in the `type` field after the type (`int  62%`), which VS Code
// shows on hover and in the Variables view's tooltip; the Confidence scope lists
// every part of the state, least certain first; the stopped event's description
// gives the whole state's (`Predicted: line 5 (92%)`), and says when it is under the
// launch's minConfidence.

// typeWithConfidence is a variable's type field: its type, two spaces and the
// confidence.
func typeWithConfidence(typ string, p float64) string {
	if typ == "" {
		return grammar.Percent(p)
	}
	return typ + "  " + grammar.Percent(p)
}

// confOf returns f(c), 0 for nil.
func confOf(c *grammar.Confidence, f func(*grammar.Confidence) float64) float64 {
	if c == nil {
		return 0
	}
	return f(c)
}

// confidenceScope lists the parts of a predicted state with the model's confidence:
// the whole state first, then the event, the line, the value and each variable,
// least certain first. Each value reads `62%  (what was predicted)`.
func confidenceScope(st grammar.State, c *grammar.Confidence) *scope {
	type part struct {
		name, what string
		p          float64
	}
	parts := []part{
		{"event", st.Event.String(), c.Event},
		{"line", fmt.Sprint(st.Loc.Line), c.Line},
	}
	if st.Event.HasValue() {
		parts = append(parts, part{"value", st.Value, c.Value})
	}
	if st.Event.HasLocals() {
		for _, v := range c.Vars {
			repr, _ := st.Locals.Get(v.Name)
			what := repr
			if v.Kept {
				what += ", unchanged"
			}
			parts = append(parts, part{v.Name, what, v.P})
		}
	}
	slices.SortStableFunc(parts, func(a, b part) int { return cmp.Compare(a.p, b.p) })
	sc := &scope{name: "Confidence", noPaths: true}
	sc.values = append(sc.values, namedValue{name: "(whole state)", repr: grammar.Percent(c.State)})
	for _, p := range parts {
		sc.values = append(sc.values, namedValue{name: p.name, repr: grammar.Percent(p.p) + "  (" + p.what + ")"})
	}
	return sc
}

// stopDescription is the stopped event's description of a stop at a predicted state
// whose confidence is c: base (the reason's own description, may be empty) with the
// predicted line and the whole state's confidence, and a warning when it is under
// minConf (0: off).
func stopDescription(base string, line int, c *grammar.Confidence, minConf float64) string {
	if c == nil {
		return base
	}
	d := fmt.Sprintf("Predicted: line %d (%s)", line, grammar.Percent(c.State))
	if minConf > 0 && c.State < minConf {
		d = fmt.Sprintf("Predicted: line %d: the model is unsure here: %s", line, grammar.Percent(c.State))
	}
	if base != "" {
		d = base + ". " + d
	}
	return d
}

// withConfidence adds the current state's line and confidence, and the launch's
// minConfidence, to a stop.
func withConfidence(l *launched, stop stopInfo) stopInfo {
	cur := l.sess.Current()
	if cur.Ended() {
		return stop
	}
	stop.line, stop.conf, stop.minConf = cur.State.Loc.Line, cur.Confidence, l.cfg.MinConfidence
	return stop
}
