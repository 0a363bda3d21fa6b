// Package comparereport renders a compare run (the neural backend and the recorded
// backend stepped in lockstep on the same actions, session.Compare) for people: a
// side-by-side table in the terminal (text.go) and a self-contained HTML page
// (html.go), each with a summary of how often the prediction matched the real run.
//
// It is pure Go: the report is built from session outcomes, never from the model.
package comparereport

import (
	"fmt"
	"strings"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// Report is one compare run.
type Report struct {
	Program string          // the program's path, as given
	Entry   string          // the entry call; "" for a whole script
	Model   string          // the checkpoint folder (shown only)
	Actions string          // how the actions were chosen, e.g. "seed 3" (shown only)
	Context grammar.Context // the program source, for lines' text and the listing
	Steps   []Step          // Steps[0] is the entry states; one step per action after it
}

// Step is the entry (Action nil) or one action and the two outcomes it led to.
type Step struct {
	Action    *grammar.Action
	Predicted session.Outcome
	Recorded  session.Outcome
	// Diffs are session.Diff(Predicted, Recorded).
	Diffs []session.Difference
	// RecordedErr says why the action did not move the recorded side (it stayed where
	// it was), when it did not.
	RecordedErr string
	// Err says why the predicted side could not take the action: the walk stopped
	// here and the outcomes are unset.
	Err string
}

// NewStep builds a step, computing its differences.
func NewStep(a *grammar.Action, predicted, recorded session.Outcome, recordedErr error) Step {
	s := Step{Action: a, Predicted: predicted, Recorded: recorded, Diffs: session.Diff(predicted, recorded)}
	if recordedErr != nil {
		s.RecordedErr = recordedErr.Error()
	}
	return s
}

// Failed reports whether the predicted side could not take the step's action.
func (s Step) Failed() bool { return s.Err != "" }

// Exact reports whether both sides agree entirely.
func (s Step) Exact() bool { return !s.Failed() && len(s.Diffs) == 0 && s.RecordedErr == "" }

// Title is "entry" or the action's spec.
func (s Step) Title() string {
	if s.Action == nil {
		return "entry"
	}
	return s.Action.Spec()
}

// Row is one line of a step's side-by-side table.
type Row struct {
	Label     string // "event", "line", "value", "exit", or a variable's name
	Variable  bool   // Label is a variable name
	Predicted string // "" when the side has no such thing (shown as Absent), Empty for an empty repr
	Recorded  string
	Differs   bool
	// Conf is the model's confidence in the predicted side's text (when HasConf:
	// the predicted side wrote this row and the model said how sure it was).
	Conf    float64
	HasConf bool
}

// Absent is shown for a side that lacks a row (a variable only one side has, a
// value on a state without one).
const Absent = "—"

// Rows lays a step out for display: exit (when either side ended), event, line with
// its source text, every local variable (predicted order first, then those only the
// recorded side has) and the value. A row differs when Diff reported that component.
func (s Step) Rows(ctx grammar.Context) []Row {
	if s.Failed() {
		return nil
	}
	p, r := s.Predicted, s.Recorded
	diff := map[session.DiffKind]bool{}
	vars := map[string]bool{}
	for _, d := range s.Diffs {
		diff[d.Kind] = true
		if d.Kind == session.DiffVariable {
			vars[d.Name] = true
		}
	}
	// When one side ended, everything the other side still shows is a difference.
	exitDiff := diff[session.DiffExit]
	var rows []Row
	if p.Ended() || r.Ended() {
		rows = append(rows, Row{Label: "exit", Predicted: exitText(p), Recorded: exitText(r), Differs: exitDiff})
	}
	ps, rs := stateOf(p), stateOf(r)
	if ps == nil && rs == nil {
		return withConfidence(rows, p)
	}
	rows = append(rows, Row{Label: "event", Predicted: eventText(ps), Recorded: eventText(rs), Differs: exitDiff || diff[session.DiffEvent]})
	rows = append(rows, Row{Label: "line", Predicted: lineText(ctx, ps), Recorded: lineText(ctx, rs), Differs: exitDiff || diff[session.DiffLine]})
	pl, rl := localsOf(ps), localsOf(rs)
	seen := map[string]bool{}
	addVar := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		pv, pok := pl.Get(name)
		rv, rok := rl.Get(name)
		differs := exitDiff || vars[name]
		// Diff compares locals only when both states have them; a side that has none
		// (a return against a line) is already an event difference.
		if ps != nil && rs != nil && ps.Event.HasLocals() != rs.Event.HasLocals() {
			differs = true
		}
		pv, rv = present(pv, pok), present(rv, rok)
		rows = append(rows, Row{Label: name, Variable: true, Predicted: pv, Recorded: rv, Differs: differs})
	}
	for _, v := range pl {
		addVar(v.Name)
	}
	for _, v := range rl {
		addVar(v.Name)
	}
	if hasValue(ps) || hasValue(rs) {
		differs := exitDiff || diff[session.DiffValue] || hasValue(ps) != hasValue(rs)
		rows = append(rows, Row{Label: "value", Predicted: valueText(ps), Recorded: valueText(rs), Differs: differs})
	}
	return withConfidence(rows, p)
}

// withConfidence sets each row's confidence from the predicted outcome's.
func withConfidence(rows []Row, p session.Outcome) []Row {
	c := p.Confidence
	if c == nil {
		return rows
	}
	for i := range rows {
		r := &rows[i]
		if r.Predicted == "" && r.Label != "exit" {
			continue // the predicted side has no such thing
		}
		switch {
		case r.Label == "exit":
			if p.Ended() {
				r.Conf, r.HasConf = c.Event, true
			}
		case r.Variable:
			r.Conf, r.HasConf = c.Var(r.Label)
		case r.Label == "event":
			r.Conf, r.HasConf = c.Event, true
		case r.Label == "line":
			r.Conf, r.HasConf = c.Line, true
		case r.Label == "value":
			r.Conf, r.HasConf = c.Value, true
		}
	}
	return rows
}

func stateOf(o session.Outcome) *grammar.State {
	if o.Ended() {
		return nil
	}
	return &o.State
}

func localsOf(s *grammar.State) grammar.Locals {
	if s == nil || !s.Event.HasLocals() {
		return nil
	}
	return s.Locals
}

func hasValue(s *grammar.State) bool { return s != nil && s.Event.HasValue() }

func exitText(o session.Outcome) string {
	if o.Ended() {
		return string(o.Exit)
	}
	return "(running)"
}

func eventText(s *grammar.State) string {
	if s == nil {
		return ""
	}
	return s.Event.String()
}

func valueText(s *grammar.State) string {
	if !hasValue(s) {
		return ""
	}
	return present(s.Value, true)
}

// Empty is shown for a repr or value that is there but empty (a prediction cut
// short), so that it is not taken for an absent one.
const Empty = "(empty)"

func present(s string, ok bool) string {
	switch {
	case !ok:
		return ""
	case s == "":
		return Empty
	}
	return s
}

// lineText is "N  source text" (the location as Loc.String writes it, and the line's
// text without its indentation).
func lineText(ctx grammar.Context, s *grammar.State) string {
	if s == nil {
		return ""
	}
	src, ok := SourceText(ctx, s.Loc)
	if !ok {
		return s.Loc.String()
	}
	return strings.TrimRight(fmt.Sprintf("%s  %s", s.Loc, strings.TrimSpace(src)), " ")
}

// SourceText is the program text of a line, indentation kept (the context writes a
// line as `%3d| text`; this is the text).
func SourceText(ctx grammar.Context, loc grammar.Loc) (string, bool) {
	src, ok := ctx.Src(loc)
	if !ok {
		return "", false
	}
	if i := strings.IndexByte(src, '|'); i >= 0 {
		src = strings.TrimPrefix(src[i+1:], " ")
	}
	return src, true
}

// Count is how many of Total compared items matched.
type Count struct{ Match, Total int }

// String is "M/T", or "–" when nothing was compared.
func (c Count) String() string {
	if c.Total == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d", c.Match, c.Total)
}

// Percent is 100·Match/Total (0 when nothing was compared).
func (c Count) Percent() float64 {
	if c.Total == 0 {
		return 0
	}
	return 100 * float64(c.Match) / float64(c.Total)
}

func (c *Count) add(match bool) {
	c.Total++
	if match {
		c.Match++
	}
}

// Summary counts the matches over the actions (the entry is reported apart).
type Summary struct {
	Steps int // actions both sides answered
	Exact Count
	Entry bool // the entry states agree
	// Per component: Event and Line over steps where both sides are states; Locals
	// over steps where both have locals (a match when every variable agrees) and
	// Variables over their variables (the union of both sides' names); Value over
	// steps where both have a value; Exit over steps where either side ended.
	Event, Line, Locals, Variables, Value, Exit Count
	// Stopped says why the walk ended before the last action ("" when it did not).
	Stopped string
	// Unsure and Sure count, among the predicted parts with a confidence (event,
	// line, each variable, value, exit) under 50% and over 90%, those that differ
	// from the recorded run (Match counts the differences): whether low confidence
	// predicts the differences.
	Unsure, Sure Count
	// Confidence is the mean confidence of the whole predicted states (HasConf when
	// the model gave any).
	Confidence float64
	HasConf    bool
}

// Summarize counts a report's matches.
func (r Report) Summarize() Summary {
	var sum Summary
	for i, s := range r.Steps {
		if s.Action == nil && i == 0 {
			sum.Entry = s.Exact()
			continue
		}
		if s.Failed() {
			sum.Stopped = fmt.Sprintf("step %d (%s): %s", i, s.Title(), s.Err)
			break
		}
		sum.Steps++
		sum.Exact.add(s.Exact())
		sum.addConfidence(s, r.Context)
		kinds := map[session.DiffKind]int{}
		bad := map[string]bool{}
		for _, d := range s.Diffs {
			kinds[d.Kind]++
			if d.Kind == session.DiffVariable {
				bad[d.Name] = true
			}
		}
		p, q := s.Predicted, s.Recorded
		if p.Ended() || q.Ended() {
			sum.Exit.add(kinds[session.DiffExit] == 0)
			continue
		}
		sum.Event.add(kinds[session.DiffEvent] == 0)
		sum.Line.add(kinds[session.DiffLine] == 0)
		if p.State.Event.HasLocals() && q.State.Event.HasLocals() {
			sum.Locals.add(kinds[session.DiffVariable] == 0)
			names := map[string]bool{}
			for _, v := range p.State.Locals {
				names[v.Name] = true
			}
			for _, v := range q.State.Locals {
				names[v.Name] = true
			}
			for n := range names {
				sum.Variables.add(!bad[n])
			}
		}
		if p.State.Event.HasValue() && q.State.Event.HasValue() {
			sum.Value.add(kinds[session.DiffValue] == 0)
		}
	}
	if sum.HasConf {
		states := 0
		for i, s := range r.Steps {
			if i > 0 && !s.Failed() && s.Predicted.Confidence != nil {
				states++
			}
		}
		sum.Confidence /= float64(max(states, 1))
	}
	return sum
}

// addConfidence counts a step's predicted parts by confidence and difference.
func (sum *Summary) addConfidence(s Step, ctx grammar.Context) {
	c := s.Predicted.Confidence
	if c == nil {
		return
	}
	sum.HasConf = true
	sum.Confidence += c.State // a sum until Summarize divides it
	for _, row := range s.Rows(ctx) {
		if !row.HasConf {
			continue
		}
		switch {
		case row.Conf < 0.5:
			sum.Unsure.add(row.Differs)
		case row.Conf > 0.9:
			sum.Sure.add(row.Differs)
		}
	}
}

// Component is one summary count with its name.
type Component struct {
	Name  string
	Count Count
}

// Components lists the summary's per-component counts in display order.
func (s Summary) Components() []Component {
	return []Component{
		{"event", s.Event}, {"line", s.Line}, {"locals", s.Locals},
		{"variables", s.Variables}, {"value", s.Value}, {"exit", s.Exit},
	}
}

// ConfidenceLine says whether low confidence predicted the differences, e.g. "mean
// confidence 71%; differ: 82% of the 11 predicted parts under 50%, 16% of the 45
// over 90%".
func ConfidenceLine(sum Summary) string {
	share := func(c Count) string {
		if c.Total == 0 {
			return "none of the 0"
		}
		return fmt.Sprintf("%.0f%% of the %d", c.Percent(), c.Total)
	}
	return fmt.Sprintf("mean confidence %s; differ from the real run: %s predicted parts under 50%%, %s over 90%%",
		grammar.Percent(sum.Confidence), share(sum.Unsure), share(sum.Sure))
}
