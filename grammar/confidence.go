package grammar

import "fmt"

// Confidence is how sure the model was of the parts of a state it wrote: each field
// is the probability, under the distribution the grammar constrains, of the text of
// that part (the product of its tokens' probabilities; a token the grammar forces
// counts 1). State is the product over every token of the state, so it is never larger
// than any part's. Every field is in [0, 1]. The tracer's states have none.
type Confidence struct {
	Event  float64 // the event token (for an exit state: the exit marker and word)
	Line   float64 // the SRC line (1 for an exit state)
	Locals float64 // the whole locals object (1 when the event has none)
	Value  float64 // the return value or exception repr (1 when the event has none)
	State  float64 // the whole state's text
	// Vars holds one entry per local of the state, in its order: the probability of
	// that variable's name and value as written, or, for a variable the diff form
	// left out, of the diff marker that kept it unchanged.
	Vars []VarConfidence
}

// VarConfidence is the confidence of one local variable.
type VarConfidence struct {
	Name string
	P    float64
	// Kept says the variable was not written: the diff marker kept its value.
	Kept bool
}

// Var returns the confidence of the named local (ok false when it has none).
func (c *Confidence) Var(name string) (float64, bool) {
	if c == nil {
		return 0, false
	}
	for _, v := range c.Vars {
		if v.Name == name {
			return v.P, true
		}
	}
	return 0, false
}

// Least returns the least certain part of the state: its name ("event", "line",
// "value" or a variable's name) and probability.
func (c *Confidence) Least() (string, float64) {
	if c == nil {
		return "", 1
	}
	name, p := "event", c.Event
	if c.Line < p {
		name, p = "line", c.Line
	}
	if c.Value < p {
		name, p = "value", c.Value
	}
	for _, v := range c.Vars {
		if v.P < p {
			name, p = v.Name, v.P
		}
	}
	return name, p
}

// Clone returns a copy that shares nothing with c (nil for nil).
func (c *Confidence) Clone() *Confidence {
	if c == nil {
		return nil
	}
	d := *c
	d.Vars = append([]VarConfidence(nil), c.Vars...)
	return &d
}

// Percent formats a probability as a whole percentage ("62%"), never rounding a
// probability below 1 up to 100% nor one above 0 down to 0%.
func Percent(p float64) string {
	n := int(p*100 + 0.5)
	switch {
	case n >= 100 && p < 1:
		n = 99
	case n <= 0 && p > 0:
		return "<1%"
	}
	return fmt.Sprintf("%d%%", n)
}
