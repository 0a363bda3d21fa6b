package grammar

// This file narrows the automaton by the value facts (values.go): the keys and
// values of a line state's locals, and the value of a return.

// rule is the locals rule of the state being written, or nil: the rule is about a
// line state of one code object's frame, and says nothing once the state cannot be one
// (the targets may allow line states of other code objects at prev's line, which
// the rule's names would leave nothing to write).
func (a *Automaton) rule() *localsRule {
	if a.tg == nil || a.ev != EventLine || a.tg.locals == nil || !a.alive.has(a.tg.locals.code) {
		return nil
	}
	return a.tg.locals
}

// setVals starts a value that must be one of vals (nil: any).
func (a *Automaton) setVals(vals []string) {
	a.vals, a.vpos, a.vdead = vals, 0, 0
	if len(vals) > 8 {
		a.vals = nil // more than vdead can track: leave it free
	}
	for _, v := range vals {
		if len(v) > a.lim.MaxRepr {
			a.vals = nil // past the limit the value cannot be written: leave it free
		}
	}
}

// valByte reports whether content byte c (or the closing quote) keeps the value one
// of the candidates, and moves on.
func (a *Automaton) valByte(c byte, closed bool) bool {
	live := false
	for i, v := range a.vals {
		if a.vdead&(1<<i) != 0 {
			continue
		}
		if closed && len(v) == a.vpos || !closed && a.vpos < len(v) && v[a.vpos] == c {
			live = true
		} else {
			a.vdead |= 1 << i
		}
	}
	a.vpos++
	return live
}

// valueRest returns the rest of the value (and its closing quote) when only one
// candidate is left, or "".
func (a *Automaton) valueRest() string {
	if a.vals == nil || a.s.esc != 0 || a.s.needLow {
		return ""
	}
	only := ""
	n := 0
	for i, v := range a.vals {
		if a.vdead&(1<<i) == 0 {
			only = v
			n++
		}
	}
	if n != 1 || a.vpos > len(only) {
		return ""
	}
	return only[a.vpos:] + `"`
}

// finishVal is what closes the value being written: the rest of a candidate the
// value facts leave (the first), or the closing quote.
func (a *Automaton) finishVal() string {
	for i, v := range a.vals {
		if a.vdead&(1<<i) == 0 && a.vpos <= len(v) {
			return v[a.vpos:] + `"`
		}
	}
	return a.s.r.finish(a.lim.MaxRepr-a.s.n) + `"`
}

// forcedCallValue is the value a call state's variable key must have when the value
// facts give exactly one that can be written, or "".
func (a *Automaton) forcedCallValue(key string) string {
	vals := a.tg.callValues(key)
	if len(vals) != 1 || len(vals[0]) > a.lim.MaxRepr {
		return ""
	}
	return vals[0]
}
