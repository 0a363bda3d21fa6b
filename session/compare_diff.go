package session

import "fmt"

// DiffKind says what a Difference is about.
type DiffKind string

// The kinds of difference between a predicted and a recorded outcome, in the order
// Diff reports them.
const (
	DiffExit     DiffKind = "exit"     // one side ended (or they ended differently)
	DiffEvent    DiffKind = "event"    // call, line, return, exception
	DiffLine     DiffKind = "line"     // the source location
	DiffVariable DiffKind = "variable" // a local variable's repr, or its presence
	DiffValue    DiffKind = "value"    // the return value or the exception
)

// Difference is one way two outcomes differ. Predicted and Recorded are the two
// sides' texts: an exit state or "<event> at line N" for DiffExit, the event name,
// the location, a variable's repr or the value. For a variable that only one side
// has, the other side's text is empty (a Python repr is never empty in practice).
type Difference struct {
	Kind      DiffKind
	Name      string // the variable's name, for DiffVariable
	Predicted string
	Recorded  string
}

// String writes the difference as one line, e.g. `n: predicted 2, recorded 3`.
func (d Difference) String() string {
	what := string(d.Kind)
	if d.Kind == DiffVariable {
		what = d.Name
	}
	return fmt.Sprintf("%s: predicted %s, recorded %s", what, orAbsent(d.Predicted), orAbsent(d.Recorded))
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

// Diff compares a predicted outcome with a recorded one: the exit state when either
// side ended, else the event, the line, every local variable (predicted order first,
// then those only the recorded side has) and the return value or exception.
func Diff(predicted, recorded Outcome) []Difference {
	if predicted.Ended() || recorded.Ended() {
		if predicted.Exit == recorded.Exit {
			return nil
		}
		return []Difference{{Kind: DiffExit, Predicted: outcomeText(predicted), Recorded: outcomeText(recorded)}}
	}
	p, r := predicted.State, recorded.State
	var ds []Difference
	if p.Event != r.Event {
		ds = append(ds, Difference{Kind: DiffEvent, Predicted: p.Event.String(), Recorded: r.Event.String()})
	}
	if p.Loc != r.Loc {
		ds = append(ds, Difference{Kind: DiffLine, Predicted: p.Loc.String(), Recorded: r.Loc.String()})
	}
	if p.Event.HasLocals() && r.Event.HasLocals() {
		for _, v := range p.Locals {
			if rv, ok := r.Locals.Get(v.Name); !ok || rv != v.Repr {
				ds = append(ds, Difference{Kind: DiffVariable, Name: v.Name, Predicted: v.Repr, Recorded: rv})
			}
		}
		for _, v := range r.Locals {
			if _, ok := p.Locals.Get(v.Name); !ok {
				ds = append(ds, Difference{Kind: DiffVariable, Name: v.Name, Recorded: v.Repr})
			}
		}
	}
	if p.Event.HasValue() && r.Event.HasValue() && p.Value != r.Value {
		ds = append(ds, Difference{Kind: DiffValue, Predicted: p.Value, Recorded: r.Value})
	}
	return ds
}

// outcomeText is an exit state's name, or "<event> at line N" for a state.
func outcomeText(o Outcome) string {
	if o.Ended() {
		return string(o.Exit)
	}
	return fmt.Sprintf("%s at line %s", o.State.Event, o.State.Loc)
}
