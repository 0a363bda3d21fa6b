package grammar

import "slices"

// This file is the value facts of the inverse actions (docs/decisions.md, "Value
// facts of the inverse actions"): the forward rules of values.go reversed. From a line
// state P the state before it in the same frame holds the values P's locals had
// before the lines that can run between them, so a local those lines cannot change
// is known. Everything here is sound or absent, as in values.go.

// valueCode returns the value facts of code c when the value rules may use them.
func (p *Program) valueCode(c int) *ValueFacts {
	cf := &p.f.Codes[c]
	if p.f.Open || cf.Loose || cf.Namespace || cf.OpenNames {
		return nil
	}
	return cf.Values
}

// callBefore returns the values the call state of prev's frame certainly gives its
// parameters (JSON string content by key), for an inv_step_call from prev, a line
// state of a frame of code c; or nil. A parameter no instruction of the code stores
// or deletes, and not a cell, is the same object at the call; its repr is the same
// when it is immutable or when no instruction can change any object.
func (p *Program) callBefore(c int, prev *State) map[string][]string {
	vf := p.valueCode(c)
	if vf == nil || vf.Whole == nil || prev.Event != EventLine {
		return nil
	}
	pure := vf.Whole.Pure && p.f.Closed
	out := map[string][]string{}
	for _, n := range p.f.Codes[c].Params {
		if slices.Contains(vf.Whole.Stores, n) || slices.Contains(vf.Cells, n) {
			continue
		}
		r, ok := prev.Locals.Get(n)
		if ok && (pure || (p.f.NoClass && immutableRepr.MatchString(r)) || p.untouched(c, Var{Name: n, Repr: r})) {
			out[content(n)] = []string{content(r)}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// callBeforeReturn returns the value the call state of prev's frame certainly gives a
// parameter, for an inv_step_call from prev, a return state of a frame of code c at a
// line that is exactly `return NAME`: when NAME is a parameter that no instruction of
// the code stores or deletes, and not a cell, the frame returns the object it was
// called with, whose repr is the same when it is immutable or when no instruction can
// change any object. Nil otherwise, and for a None that a re-raise can give.
func (p *Program) callBeforeReturn(c int, prev *State) map[string][]string {
	vf := p.valueCode(c)
	if vf == nil || vf.Whole == nil || prev.Event != EventReturn {
		return nil
	}
	line := prev.Loc.Line
	n, ok := vf.RetNames[line]
	if _, own := vf.Rets[line]; !ok || !own || !slices.Contains(p.f.Codes[c].Params, n) {
		return nil
	}
	if slices.Contains(vf.Whole.Stores, n) || slices.Contains(vf.Cells, n) || vf.Reraise && prev.Value == "None" {
		return nil
	}
	if !(vf.Whole.Pure && p.f.Closed || p.f.NoClass && immutableRepr.MatchString(prev.Value) || p.untouched(c, Var{Name: n, Repr: prev.Value})) {
		return nil
	}
	return map[string][]string{content(n): {content(prev.Value)}}
}

// entryBefore returns the values of the call state right before prev, a line state
// of a frame of code c at a line the call event can lead to (an inverse step from the
// frame's first line event): nothing runs between the two events, so every local has
// prev's value. Nil where the call state cannot come right before prev.
func (p *Program) entryBefore(c int, prev *State) map[string][]string {
	if p.valueCode(c) == nil || prev.Event != EventLine ||
		!slices.Contains(p.f.Codes[c].Entry.Next, prev.Loc.Line) {
		return nil
	}
	out := map[string][]string{}
	for _, v := range prev.Locals {
		out[content(v.Name)] = []string{content(v.Repr)}
	}
	return out
}

// localsBefore returns the rule for a line state Q that an inv_step_into or
// inv_step_over from prev (a line state of a frame of code c) leads to, or nil. Such a
// Q is the previous line event of the same frame; preds are the states the targets
// allow, and the rule holds for every line among them, since the locals are written
// before the line. Q's locals are prev's before Q's line ran, so a local that no such
// line stores or deletes keeps its value when those lines are pure, or when the value
// is an immutable repr and not a cell (values.go's forward rule, reversed). Q is
// written in the diff form against prev exactly when prev's variables are, in their
// order, the first variables of Q.
func (p *Program) localsBefore(c int, prev *State, preds []node) *localsRule {
	vf := p.valueCode(c)
	if vf == nil || prev.Event != EventLine {
		return nil
	}
	var stores, deletes []string
	var qs []LineValues
	pure := p.f.Closed
	for _, q := range preds {
		if q.ev != EventLine || q.code != c {
			continue
		}
		lv, ok := vf.Lines[q.line]
		if !ok {
			return nil
		}
		qs = append(qs, lv)
		stores = append(stores, lv.Stores...)
		deletes = append(deletes, lv.Deletes...)
		// An in-place operator on a list changes it and its aliases; its value before
		// the line is not known here, so any in-place operator makes the lines impure.
		pure = pure && lv.Pure && len(lv.Inplace) == 0
	}
	if len(qs) == 0 {
		return nil
	}
	// absent: unbound at every such line's event; bound: bound at every one.
	absent := func(n string) bool {
		for _, lv := range qs {
			if !slices.Contains(lv.Unbound, n) {
				return false
			}
		}
		return true
	}
	bound := func(n string) bool {
		for _, lv := range qs {
			if !slices.Contains(lv.Bound, n) {
				return false
			}
		}
		return true
	}
	cf := &p.f.Codes[c]
	order, last, ok := localsOrder(cf.Names, prev.Locals)
	if !ok {
		return nil
	}
	r := &localsRule{code: c, forced: map[string][]string{}}
	var kept []Var // certainly unchanged, so certainly bound before
	sure := true   // every variable of prev is certainly a variable of Q
	gone := false  // a variable of prev is certainly not one of Q
	for _, v := range prev.Locals {
		if absent(v.Name) {
			gone = true // first bound by Q's line: no key
			continue
		}
		stored := slices.Contains(stores, v.Name)
		cell := slices.Contains(vf.Cells, v.Name)
		if !bound(v.Name) && (stored || (!pure && cell)) {
			sure = false // perhaps first bound by Q's line (or by other code)
		}
		if stored || (!pure && (cell || !p.f.NoClass || !immutableRepr.MatchString(v.Repr)) && !p.untouched(c, v)) {
			r.keys = append(r.keys, content(v.Name))
		} else {
			kept = append(kept, v)
		}
	}
	// Names Q can have that prev lacks: those deleted, and cells when other code runs.
	fresh := slices.Clone(deletes)
	if !pure {
		fresh = append(fresh, vf.Cells...)
	}
	for _, n := range fresh {
		if _, ok := prev.Locals.Get(n); ok || n == "" || n[0] == '.' || slices.Contains(r.keys, content(n)) || absent(n) {
			continue
		}
		i, ok := order[n]
		if !ok {
			return nil
		}
		sure = sure && i > last // a new variable before an old one: the full form
		r.keys = append(r.keys, content(n))
	}
	// The diff form leaves a kept variable out, so the marker ends it; a variable of
	// prev missing from Q makes it the full form.
	r.noMarker = gone
	r.mustMarker = !gone && sure && len(kept) > 0
	if !r.mustMarker {
		r.showKept(kept)
	}
	if n, vs, ok := p.undoBefore(c, prev, preds); ok && slices.Contains(r.keys, content(n)) {
		for _, v := range vs {
			r.forced[content(n)] = append(r.forced[content(n)], content(v))
		}
		r.assign = true
		if cur, _ := prev.Locals.Get(n); !slices.Contains(vs, cur) {
			r.required = append(r.required, content(n)) // changed: the diff form shows it too
		}
	}
	return r
}

// inverseValues sets the value rules of an inverse action a from prev, a line state
// of a frame of code own.
func (p *Program) inverseValues(t *Targets, own int, prev *State, a Action) {
	switch a.Kind {
	case InvStepCall:
		t.callVals = p.callBefore(own, prev)
		t.callRule = callRuleInvCall
	case InvStepInto, InvStepOver:
		pi := p.preds()
		table := pi.into
		if a.Kind == InvStepOver {
			table = pi.over
		}
		preds := table[node{EventLine, prev.Loc.Line, own}]
		t.locals = p.localsBefore(own, prev, preds)
		for _, q := range preds {
			if q.ev == EventCall && q.code == own {
				t.callVals = p.entryBefore(own, prev)
				t.callRule = callRuleEntry
				break
			}
		}
	}
	if t.callVals == nil {
		t.callRule = 0
	}
}

// Which rule set the values of a call state's variables.
const (
	callRuleInvCall = 1 + iota // inv_step_call: parameters no instruction changes
	callRuleEntry              // the call state right before the first line event
	callRuleReturn             // inv_step_call from a return of a parameter no instruction changes
)

// CallRule reports which value rule narrows a call state's values: "" (none),
// "inv_step_call", "entry" or "return", for tests and statistics.
func (t *Targets) CallRule() string {
	switch t.callRule {
	case callRuleInvCall:
		return "inv_step_call"
	case callRuleEntry:
		return "entry"
	case callRuleReturn:
		return "return"
	}
	return ""
}

// callValues returns the values a call state's variable key (JSON string content)
// must have, or nil.
func (t *Targets) callValues(key string) []string {
	if t == nil || t.callVals == nil {
		return nil
	}
	return t.callVals[key]
}

// FullForm reports whether the value facts make a line state's locals certainly the
// full form (a variable of the state before is certainly unbound), for tests and
// statistics.
func (t *Targets) FullForm() bool { return t.locals != nil && t.locals.noMarker }
