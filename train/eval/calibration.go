package eval

import (
	"fmt"
	"math"

	"github.com/ndb-project/ndb/grammar"
)

// This file measures whether the model's confidences mean what they say: among the
// parts it gave 70%, about 70% should be right. Each predicted part with a confidence
// is a point (confidence, right); points are binned by confidence (ten bins of 10%)
// and the expected calibration error (ECE) is the mean gap between a bin's mean
// confidence and its share of right answers, weighted by the bin's size.

// ConfPart is a part of a predicted state whose confidence is measured.
type ConfPart int

// The measured parts: the whole state, the event (or exit), the line, the locals
// object, the return value or exception, and each variable (name and value).
const (
	PartState ConfPart = iota
	PartEvent
	PartLine
	PartLocals
	PartValue
	PartVariable
	NumParts
)

// ConfParts lists the parts in table order.
var ConfParts = []ConfPart{PartState, PartEvent, PartLine, PartLocals, PartValue, PartVariable}

// String is the part's column name.
func (p ConfPart) String() string {
	return [...]string{"state", "event", "line", "locals", "value", "variable"}[p]
}

// ConfPoint is one predicted part: the model's confidence and whether it was right.
type ConfPoint struct {
	Part ConfPart
	Conf float64
	Hit  bool
}

// ConfPoints returns the points of one prediction against the target (none when the
// prediction has no confidence). A part counts when the prediction wrote it: its line
// when it is a state, its locals and each variable when its event has locals (a
// variable is right when the target has it with the same repr), its value when its
// event has one. The event and the whole state always count, scored as Score does.
func ConfPoints(target Next, p Prediction) []ConfPoint {
	c := p.Confidence
	if c == nil {
		return nil
	}
	s := Score(target, p)
	out := []ConfPoint{
		{PartState, c.State, s[Exact] == Hit},
		{PartEvent, c.Event, s[EventC] == Hit},
	}
	if p.Exit != "" {
		return out
	}
	q, t := p.State, target.State
	isState := target.Exit == "" && !p.Undecoded
	out = append(out, ConfPoint{PartLine, c.Line, isState && q.Loc == t.Loc})
	if q.Event.HasLocals() {
		out = append(out, ConfPoint{PartLocals, c.Locals, isState && t.Event.HasLocals() && q.Locals.Equal(t.Locals)})
		for _, v := range c.Vars {
			mine, _ := q.Locals.Get(v.Name)
			theirs, ok := t.Locals.Get(v.Name)
			out = append(out, ConfPoint{PartVariable, v.P, isState && t.Event.HasLocals() && ok && theirs == mine})
		}
	}
	if q.Event.HasValue() {
		out = append(out, ConfPoint{PartValue, c.Value, isState && t.Event.HasValue() && q.Value == t.Value})
	}
	return out
}

// NumBins is the number of confidence bins of a reliability table.
const NumBins = 10

// Reliability bins the points of one part: per bin the count, the hits and the sum
// of confidences.
type Reliability struct {
	N, Hits [NumBins]int
	Conf    [NumBins]float64
}

// Add counts one point.
func (r *Reliability) Add(conf float64, hit bool) {
	b := min(max(int(conf*NumBins), 0), NumBins-1)
	r.N[b]++
	r.Conf[b] += conf
	if hit {
		r.Hits[b]++
	}
}

// Total is the number of points.
func (r *Reliability) Total() int {
	n := 0
	for _, k := range r.N {
		n += k
	}
	return n
}

// ECE is the expected calibration error in [0, 1] (ok false with no points).
func (r *Reliability) ECE() (float64, bool) {
	total := r.Total()
	if total == 0 {
		return 0, false
	}
	var e float64
	for b, n := range r.N {
		if n > 0 {
			e += float64(n) / float64(total) * math.Abs(r.Conf[b]/float64(n)-float64(r.Hits[b])/float64(n))
		}
	}
	return e, true
}

// Bin returns bin b's mean confidence and share of hits (ok false when empty).
func (r *Reliability) Bin(b int) (conf, acc float64, ok bool) {
	if r.N[b] == 0 {
		return 0, 0, false
	}
	return r.Conf[b] / float64(r.N[b]), float64(r.Hits[b]) / float64(r.N[b]), true
}

// Calibration is the reliability of every part, per action.
type Calibration struct {
	ByAction map[grammar.ActionKind]*[NumParts]Reliability
	All      [NumParts]Reliability
}

// NewCalibration returns an empty calibration tally.
func NewCalibration() *Calibration {
	return &Calibration{ByAction: map[grammar.ActionKind]*[NumParts]Reliability{}}
}

// Add counts the points of one prediction after action k.
func (c *Calibration) Add(k grammar.ActionKind, pts []ConfPoint) {
	if len(pts) == 0 {
		return
	}
	rs := c.ByAction[k]
	if rs == nil {
		rs = &[NumParts]Reliability{}
		c.ByAction[k] = rs
	}
	for _, p := range pts {
		rs[p.Part].Add(p.Conf, p.Hit)
		c.All[p.Part].Add(p.Conf, p.Hit)
	}
}

// ECE returns the ECE of part p over all actions, in % (NaN with no points).
func (c *Calibration) ECE(p ConfPart) float64 {
	e, ok := c.All[p].ECE()
	if !ok {
		return math.NaN()
	}
	return 100 * e
}

// eceCell formats an ECE in % with the number of points, "n/a" for none.
func eceCell(r *Reliability) string {
	e, ok := r.ECE()
	if !ok {
		return "n/a"
	}
	return fmt.Sprintf("%.1f (%d)", 100*e, r.Total())
}

// Tables returns the calibration tables of level: the ECE of every part per action
// and over all actions, then the reliability table (per action and bin, each part's
// share of right answers and count).
func (c *Calibration) Tables(level, predictor string) []*Table {
	ece := &Table{
		Title:  fmt.Sprintf("Confidence calibration, %s level: expected calibration error %% (points), %s", level, predictor),
		Header: []string{"action"},
	}
	rel := &Table{
		Title:  fmt.Sprintf("Reliability, %s level: %% right (points) per confidence bin, %s", level, predictor),
		Header: []string{"action", "confidence"},
	}
	for _, p := range ConfParts {
		ece.Header = append(ece.Header, p.String())
		rel.Header = append(rel.Header, p.String())
	}
	rows := func(name string, rs *[NumParts]Reliability) {
		row := []string{name}
		for _, p := range ConfParts {
			row = append(row, eceCell(&rs[p]))
		}
		ece.Rows = append(ece.Rows, row)
		for b := 0; b < NumBins; b++ {
			any := false
			row := []string{name, fmt.Sprintf("%d–%d%%", 100*b/NumBins, 100*(b+1)/NumBins)}
			for _, p := range ConfParts {
				_, acc, ok := rs[p].Bin(b)
				if !ok {
					row = append(row, "")
					continue
				}
				any = true
				row = append(row, fmt.Sprintf("%.0f (%d)", 100*acc, rs[p].N[b]))
			}
			if any {
				rel.Rows = append(rel.Rows, row)
			}
		}
	}
	for _, k := range grammar.AllActions {
		if rs := c.ByAction[k]; rs != nil {
			rows(k.String(), rs)
		}
	}
	rows("all", &c.All)
	ece.Notes = []string{
		"ECE: the mean gap between confidence and the share right, over ten bins of 10%, weighted by size;",
		"0 is perfectly calibrated. A part counts when the prediction wrote it; variable: each local",
		"(name and value), right when the target has it with the same repr.",
	}
	rel.Notes = []string{"A calibrated model's parts are right as often as the bin's confidence says."}
	return []*Table{ece, rel}
}
