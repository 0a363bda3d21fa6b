package mcp

import (
	"fmt"
	"strings"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// Var is one local variable: its name and the repr of its value.
type Var struct {
	Name  string `json:"name"`
	Value string `json:"value" jsonschema:"the repr of the value"`
}

// Point is one side's program state: where the program stands and what it holds, or
// how it ended.
type Point struct {
	Event     string `json:"event,omitempty" jsonschema:"call, line, return, exception or inv_line_call; empty once the program ended"`
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	Source    string `json:"source,omitempty" jsonschema:"the text of the source line"`
	Function  string `json:"function,omitempty"`
	Locals    []Var  `json:"locals,omitempty" jsonschema:"the local variables in f_locals order (call and line states)"`
	Return    string `json:"return,omitempty" jsonschema:"the repr of the return value (return states)"`
	Exception string `json:"exception,omitempty" jsonschema:"the repr of the exception (exception states)"`
	Exit      string `json:"exit,omitempty" jsonschema:"how the program ended: normal, error or never; empty while it runs"`
	// Confidence is the model's, for a predicted state (neural mode, compare mode's
	// predicted side); nil for a recorded state.
	Confidence *Confidence `json:"confidence,omitempty" jsonschema:"how sure the model was of each part of a predicted state"`
}

// Difference is one way compare mode's predicted and recorded states differ.
type Difference struct {
	Kind      string `json:"kind" jsonschema:"exit, event, line, variable or value"`
	Name      string `json:"name,omitempty" jsonschema:"the variable, for kind variable"`
	Predicted string `json:"predicted"`
	Recorded  string `json:"recorded"`
}

// State is what a session tool answers: the session's state (in compare mode the
// predicted side), why it stopped there, and in compare mode the recorded side and
// the differences.
type State struct {
	Point
	Stop        string       `json:"stop,omitempty" jsonschema:"why the session stopped here: entry, step, breakpoint, exception, exit, limit or pause"`
	Output      string       `json:"output,omitempty" jsonschema:"what the program printed during this step (recorded mode)"`
	Recorded    *Point       `json:"recorded,omitempty" jsonschema:"compare mode: the recorded (real) state"`
	Differences []Difference `json:"differences,omitempty" jsonschema:"compare mode: how the prediction differs from the recorded state"`
	Matches     *bool        `json:"matches,omitempty" jsonschema:"compare mode: the prediction equals the recorded state"`
}

// pointOf converts an outcome, with the source line's text from gctx.
func pointOf(gctx grammar.Context, o session.Outcome) Point {
	if o.Ended() {
		return Point{Exit: string(o.Exit)}
	}
	s := o.State
	p := Point{Event: s.Event.String(), File: s.Loc.File, Line: s.Loc.Line, Function: s.Func}
	p.Confidence = confidenceOf(o.Confidence, s.Event)
	p.Source = sourceText(gctx, s.Loc)
	if s.Event.HasLocals() {
		p.Locals = make([]Var, len(s.Locals))
		for i, v := range s.Locals {
			p.Locals[i] = Var{Name: v.Name, Value: v.Repr}
		}
	}
	switch s.Event {
	case grammar.EventReturn:
		p.Return = s.Value
	case grammar.EventException:
		p.Exception = s.Value
	}
	return p
}

// stateOf is a session's current state after a stop (reason "" for none).
func stateOf(s *session.Session, reason string) State {
	gctx := s.Program().Context
	cur := s.Current()
	st := State{Point: pointOf(gctx, cur), Stop: reason, Output: cur.Output}
	if st.Function == "" && !cur.Ended() {
		// A predicted state names no function: the derived stack does.
		if frames := s.Stack(); len(frames) > 0 {
			st.Function = frames[0].Func
		}
	}
	if cmp := s.Compare(); cmp != nil {
		rec, _ := cmp.Recorded()
		r := pointOf(gctx, rec)
		st.Recorded = &r
		st.Differences = differences(s.Differences())
		m := len(st.Differences) == 0
		st.Matches = &m
	}
	return st
}

func differences(ds []session.Difference) []Difference {
	var out []Difference
	for _, d := range ds {
		out = append(out, Difference{Kind: string(d.Kind), Name: d.Name, Predicted: d.Predicted, Recorded: d.Recorded})
	}
	return out
}

// maxTextRepr bounds one value in the short text (the structured content has it
// whole).
const maxTextRepr = 60

func clip(s string) string {
	if r := []rune(s); len(r) > maxTextRepr {
		return string(r[:maxTextRepr-1]) + "…"
	}
	return s
}

// Text is a point in one line: `line 5  n += 1   locals: n=2, c='r'`.
func (p Point) Text() string {
	if p.Exit != "" {
		return "exit: " + p.Exit
	}
	var b strings.Builder
	if p.Event != "line" {
		b.WriteString(p.Event + " ")
	}
	if p.File != "" {
		fmt.Fprintf(&b, "%s:", p.File)
	}
	fmt.Fprintf(&b, "line %d", p.Line)
	if p.Function != "" && p.Function != "<module>" {
		fmt.Fprintf(&b, " in %s", p.Function)
	}
	if p.Source != "" {
		fmt.Fprintf(&b, "  %s", p.Source)
	}
	if len(p.Locals) > 0 {
		b.WriteString("   locals: ")
		for i, v := range p.Locals {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(v.Name + "=" + clip(v.Value))
		}
	}
	if p.Return != "" {
		b.WriteString("   returns " + clip(p.Return))
	}
	if p.Exception != "" {
		b.WriteString("   raises " + clip(p.Exception))
	}
	if p.Confidence != nil {
		b.WriteString("   " + p.Confidence.text())
	}
	return b.String()
}

// Text is the state as an agent reads it: the stop (when it is not a plain step),
// the state, program output, and in compare mode the recorded side and the
// differences.
func (s State) Text() string {
	var b strings.Builder
	if s.Stop != "" && s.Stop != string(session.StopStep) && s.Stop != string(session.StopExit) && s.Stop != s.Event {
		b.WriteString(s.Stop + ": ")
	}
	b.WriteString(s.Point.Text())
	if s.Output != "" {
		fmt.Fprintf(&b, "\noutput: %q", clip(s.Output))
	}
	if s.Recorded != nil {
		b.WriteString("\nrecorded: " + s.Recorded.Text())
		if len(s.Differences) == 0 {
			b.WriteString("\nthe prediction matches the recorded run")
		}
		for _, d := range s.Differences {
			what := d.Kind
			if d.Name != "" {
				what = d.Name
			}
			fmt.Fprintf(&b, "\ndiffers: %s: predicted %s, recorded %s", what, orAbsent(d.Predicted), orAbsent(d.Recorded))
		}
	}
	return b.String()
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return clip(s)
}

// sourceText is the text of a location's source line, trimmed ("" when the context
// does not hold it).
func sourceText(gctx grammar.Context, loc grammar.Loc) string {
	for _, f := range gctx.Files {
		if loc.File != "" && f.Path != loc.File {
			continue
		}
		for _, l := range f.Lines {
			if l.N == loc.Line {
				return strings.TrimSpace(l.Text)
			}
		}
	}
	return ""
}
