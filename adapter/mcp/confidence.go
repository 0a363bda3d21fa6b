package mcp

import (
	"fmt"
	"strings"

	"github.com/ndb-project/ndb/grammar"
)

// Confidence is how sure the model was of a predicted state: each figure is the
// probability of that part's text under the constrained distribution (the product of
// its tokens' probabilities), so State is never larger than any part. Recorded states
// have none.
type Confidence struct {
	State  float64            `json:"state" jsonschema:"the whole state's probability (0-1)"`
	Event  float64            `json:"event" jsonschema:"the event's probability"`
	Line   float64            `json:"line" jsonschema:"the source line's probability"`
	Value  float64            `json:"value,omitempty" jsonschema:"the return value's or exception's probability (return and exception states)"`
	Locals map[string]float64 `json:"locals,omitempty" jsonschema:"each local variable's probability, by name"`
	// Least names the least certain part (event, line, value or a variable).
	Least string `json:"least" jsonschema:"the least certain part: event, line, value or a variable's name"`
}

// confidenceOf converts the model's confidence in a state (nil for none).
func confidenceOf(c *grammar.Confidence, ev grammar.Event) *Confidence {
	if c == nil {
		return nil
	}
	out := &Confidence{State: c.State, Event: c.Event, Line: c.Line}
	if ev == grammar.EventReturn || ev == grammar.EventException {
		out.Value = c.Value
	}
	if len(c.Vars) > 0 {
		out.Locals = make(map[string]float64, len(c.Vars))
		for _, v := range c.Vars {
			out.Locals[v.Name] = v.P
		}
	}
	out.Least, _ = c.Least()
	return out
}

// text is the confidence in a few words: `confidence 62% (least sure: n 41%)`.
func (c *Confidence) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "confidence %s", grammar.Percent(c.State))
	if p, ok := c.part(c.Least); ok && c.Least != "" {
		fmt.Fprintf(&b, " (least sure: %s %s)", c.Least, grammar.Percent(p))
	}
	return b.String()
}

// part is the probability of the named part.
func (c *Confidence) part(name string) (float64, bool) {
	switch name {
	case "event":
		return c.Event, true
	case "line":
		return c.Line, true
	case "value":
		return c.Value, true
	}
	p, ok := c.Locals[name]
	return p, ok
}
