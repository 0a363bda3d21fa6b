package infer

import (
	"math"

	"github.com/ndb-project/ndb/grammar"
)

// This file turns the probabilities of the tokens a Generator chose into a confidence
// per part of the state (grammar.Confidence), during the decode: the logits are the
// ones the choice was made from, so no forward pass is added. A token's probability is
// its softmax among the tokens the grammar allows at that point (the constrained
// distribution), at the temperature of its kind (Calibration; 1 when uncalibrated).
// Tokens the grammar forces, and the determined rest of a SRC line, are not choices:
// they count 1. A part's confidence is the product of its tokens' probabilities: the
// probability of its text (docs/decisions.md says why not the geometric mean).

// TokenKind is what a token writes: each kind has its own temperature.
type TokenKind uint8

// The token kinds.
const (
	KindEvent  TokenKind = iota // the event token, the exit marker and word
	KindLine                    // the SRC line
	KindName                    // a local's name, the locals object's punctuation, the diff marker
	KindValue                   // a local's value
	KindReturn                  // the return value or exception repr
	NumKinds
)

var kindNames = [NumKinds]string{"event", "line", "name", "value", "return"}

// String is the kind's name (its key in calibration.json).
func (k TokenKind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return "invalid"
}

// TokenScore is one token the model chose among several.
type TokenScore struct {
	Kind TokenKind
	// Entry is the locals entry the token writes (0-based, in the text's order), -1
	// for a token outside the entries (the event, the line, the value, the '}' that
	// closes the object).
	Entry int
	LogP  float64 // its log-probability (at its kind's temperature)
	// Dist is the constrained distribution it was drawn from, kept only when the
	// generator records (Generator.Record), to refit the temperatures.
	Dist *TokenDist
}

// confPlan says how a generated state's tokens map to its parts.
type confPlan struct {
	exit    bool
	ev      grammar.Event
	entries []string // the keys written, in order (the diff marker as "..")
}

// tokenPart classifies a token by the phase ph the automaton was in before it, its
// first byte, and the entries begun before (entries) and after it (after): its kind,
// and the locals entry it writes (-1 for none).
func tokenPart(ph phase, first byte, entries, after int) (TokenKind, int) {
	switch ph {
	case phEvent, phExit:
		return KindEvent, -1
	case phSrcSep, phSrc:
		return KindLine, -1
	case phArgOpen, phArgStr, phFrame:
		return KindReturn, -1
	case phValOpen, phVal:
		return KindValue, entries - 1
	case phKey, phColon, phColonSp, phMarker:
		return KindName, entries - 1
	case phCommaSp, phKeyOpen:
		return KindName, entries // the next entry's separator or opening quote
	}
	// phObjOpen, phObjFirst, phAfterVal: '{', or whether another variable follows.
	if after > entries || (ph == phAfterVal && first == ',') {
		return KindName, entries
	}
	return KindName, -1 // '}': there are no more variables
}

// maskedLogProb returns the log-probability of id under softmax(logits/t) restricted
// to mask.
func maskedLogProb(logits []float32, mask []bool, id int, t float64) float64 {
	m := math.Inf(-1)
	for i, ok := range mask {
		if ok {
			if v := float64(logits[i]); v > m {
				m = v
			}
		}
	}
	if math.IsInf(m, -1) || math.IsNaN(float64(logits[id])) {
		return 0 // nothing to compare with: no information
	}
	inv := 1 / t
	// A token more than 40 (at the temperature) below the highest adds under e^-40
	// each: nothing, next to the highest's 1, and no exp is spent on it.
	cut := float32(m - 40*t)
	var s float64
	for i, ok := range mask {
		if ok && logits[i] > cut {
			s += math.Exp((float64(logits[i]) - m) * inv)
		}
	}
	return (float64(logits[id])-m)*inv - math.Log(s)
}

// confidence sums the tokens' log-probabilities (logp(i) for scores[i]) into the
// parts of the state. locals is the decoded state's locals (merged with the previous
// state's when the text was a diff).
func (p *confPlan) confidence(scores []TokenScore, logp func(i int) float64, locals grammar.Locals) *grammar.Confidence {
	var ev, line, loc, val, all float64
	entry := make([]float64, len(p.entries))
	for i, s := range scores {
		lp := logp(i)
		all += lp
		switch s.Kind {
		case KindEvent:
			ev += lp
		case KindLine:
			line += lp
		case KindReturn:
			val += lp
		default:
			loc += lp
			if s.Entry >= 0 && s.Entry < len(entry) {
				entry[s.Entry] += lp
			}
		}
	}
	c := &grammar.Confidence{Event: exp01(ev), Line: exp01(line), Locals: exp01(loc), Value: exp01(val), State: exp01(all)}
	if p.exit || !p.ev.HasLocals() {
		return c
	}
	written := map[string]float64{}
	kept := 1.0
	for i, name := range p.entries {
		if name == grammar.DiffMarkerKey {
			kept = exp01(entry[i])
			continue
		}
		written[name] = exp01(entry[i])
	}
	for _, v := range locals {
		if pv, ok := written[v.Name]; ok {
			c.Vars = append(c.Vars, grammar.VarConfidence{Name: v.Name, P: pv})
		} else {
			c.Vars = append(c.Vars, grammar.VarConfidence{Name: v.Name, P: kept, Kept: true})
		}
	}
	return c
}

// zero sets every probability of c to 0.
func zero(c *grammar.Confidence) {
	c.Event, c.Line, c.Locals, c.Value, c.State = 0, 0, 0, 0, 0
	for i := range c.Vars {
		c.Vars[i].P = 0
	}
}

// exp01 is exp(lp) clamped to [0, 1] (rounding can put a sum of log-probabilities a
// hair above 0).
func exp01(lp float64) float64 {
	return min(max(math.Exp(lp), 0), 1)
}

// entryNames returns the keys a wrote, in order, the diff marker included (last).
func (a *automaton) entryNames() []string {
	out := make([]string, 0, a.entries)
	for _, n := range a.names {
		k, err := grammar.UnquoteJSON(`"` + string(a.keys[n[0]:n[1]]) + `"`)
		if err != nil {
			k = string(a.keys[n[0]:n[1]])
		}
		out = append(out, k)
	}
	if a.entries > len(a.names) {
		out = append(out, grammar.DiffMarkerKey)
	}
	return out
}

// ConfidenceAt recomputes a generated state's confidence with the temperatures of
// cal, from the distributions the generator recorded (Generator.Record). ok is false
// when a chosen token has no recorded distribution.
func (g *Generated) ConfidenceAt(cal *Calibration) (*grammar.Confidence, bool) {
	if g.plan == nil {
		return nil, false
	}
	for _, s := range g.Scores {
		if s.Dist == nil {
			return nil, false
		}
	}
	c := g.plan.confidence(g.Scores, func(i int) float64 {
		s := g.Scores[i]
		return s.Dist.LogP(cal.Temperature(s.Kind))
	}, g.State.Locals)
	if g.Forced {
		zero(c)
	}
	return c, true
}
