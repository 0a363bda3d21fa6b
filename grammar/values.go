package grammar

import (
	"regexp"
	"slices"
	"strings"
)

// This file is what the program facts say about values (docs/decisions.md, "Value
// facts"): which locals a line state after a step can show and with what value, and
// what a return can give. Everything here is sound or absent: where a value cannot be
// known the rule says nothing and the grammar (and the other facts) decide.

// ValueFacts are a function's value facts (trace/analyze.py, _value_facts).
type ValueFacts struct {
	// Cells are the cell and free variables that other frames can change: the free
	// ones, and the cells that nested code stores or deletes (all of them in facts
	// written before session 15, and in a dynamic program).
	Cells    []string           `json:"cells"`
	Lines    map[int]LineValues `json:"lines"`
	Rets     map[int][]string   `json:"rets"`      // the reprs a return at the line can give (absent or null: unknown)
	RetNames map[int]string     `json:"ret_names"` // lines that are exactly `return NAME`
	// RetTuples are the lines that are exactly `return a, b, ...` (names, in order).
	RetTuples map[int][]string `json:"ret_tuples"`
	// Reach is, per line, what the frame can still do after a line event there.
	Reach map[int]Reach `json:"reach"`
	// Reraise: the code can re-raise, and a frame left so reports a return of None.
	Reraise bool `json:"reraise"`
	// Whole is what the whole code object does (the inverse rules; nil in facts
	// written before it: no inverse rule).
	Whole *WholeValues `json:"whole"`
	// Unescaped are the parameters that the code only reads, for the function with a
	// single frame (Facts.EntryCode; untouched).
	Unescaped []string `json:"unescaped"`
}

// WholeValues is what every instruction of a code object does to its locals.
type WholeValues struct {
	Stores []string `json:"stores"` // names stored or deleted anywhere
	// Pure: no instruction runs code of the program or changes an object in place
	// (given a closed program), and there is no in-place operator at all.
	Pure bool `json:"pure"`
}

// Reach is what the instructions reachable from a line's (normal and exception
// edges, the line's own included) can do before the frame ends.
type Reach struct {
	Stores []string `json:"stores"` // names stored or deleted
	// Pure: all of them are pure and none is an in-place operator, so that in a
	// closed program no object changes until the frame ends.
	Pure bool `json:"pure"`
}

// LineValues is what the instructions run between a line event at the line and the
// next line event of the frame do to its locals.
type LineValues struct {
	// Pure: they run no code of the program and change no object in place (given a
	// closed program and in-place targets that hold immutable values).
	Pure    bool              `json:"pure"`
	Stores  []string          `json:"stores"`  // names stored or deleted
	Deletes []string          `json:"deletes"` // names deleted
	Inplace []string          `json:"inplace"` // targets of in-place operators
	Consts  map[string]string `json:"consts"`  // names every store of which is this constant's repr
	// At the line event (the inverse rules): the names stored somewhere in the code
	// that no path has bound yet, and the locals (not cells) every path has bound.
	Unbound []string `json:"unbound"`
	Bound   []string `json:"bound"`
}

// localsRule is what the value facts say about the locals object of a line state
// that a step leads to. Keys and values are JSON string content, as written.
type localsRule struct {
	code       int                 // the code object of the frame it is about
	keys       []string            // the keys the object may have
	forced     map[string][]string // a key's value is one of these
	mustMarker bool                // the diff form with its marker, certainly
	noMarker   bool                // the full form, certainly
	assign     bool                // a key's value is the one the line's assignment stores
	// evaluated: the assignment or loop rule evaluated prev's line, which so raises
	// nothing (lineDecided).
	evaluated bool
	// required are keys the object certainly has in either form (a variable the
	// line's assignment changes): it cannot close, nor take the marker, without them.
	required []string
	// present are keys the full form certainly has (variables certainly still
	// bound): it cannot close with the brace without them (the marker leaves them out).
	present []string
}

// immutableRepr matches the reprs that, in a program without classes, only
// immutable builtin values have: ints, floats, strings, bytes, True, False, None.
var immutableRepr = regexp.MustCompile(`^(-?[0-9]+|-?[0-9]+\.[0-9]+(e[+-][0-9]+)?|-?[0-9]+e[+-][0-9]+|-?inf|nan|True|False|None|b?'.*|b?".*)$`)

// untouched reports whether local v of the frame of code c holds, with the same repr,
// the object it was called with: c has a single frame (its entry's arguments are
// literals, so nothing else refers to them), v is a parameter that c only reads
// (Unescaped), and v's value is a container of immutable values, so that no element
// can change either. The value rules then keep v as they keep an immutable value.
func (p *Program) untouched(c int, v Var) bool {
	vf := p.f.Codes[c].Values
	if vf == nil || !p.f.NoClass || !p.singleFrame(c) || !slices.Contains(vf.Unescaped, v.Name) {
		return false
	}
	n := ParseRepr(v.Repr)
	if n.Kind == ReprLeaf || n.Kind == ReprObject || n.Text != v.Repr {
		return false
	}
	for _, it := range n.Items {
		if it.Value.Kind != ReprLeaf || !immutableRepr.MatchString(it.Value.Text) ||
			it.Key != "" && !immutableRepr.MatchString(it.Key) {
			return false
		}
	}
	return true
}

// singleFrame reports whether a run has at most one frame of code c: the one its entry
// expression makes (Facts.EntryCode), when no line of the program can call c.
func (p *Program) singleFrame(c int) bool {
	e := p.f.EntryCode
	return e != nil && *e == c && len(p.callers[c]) == 0 && !p.anyCaller[c]
}

// content is s as JSON string content.
func content(s string) string {
	b := AppendQuoteJSON(nil, s)
	return string(b[1 : len(b)-1])
}

// localsAfter returns the rule for the line state that a step_into or step_over from
// prev (a line or call state of a frame of code c) leads to, or nil. Such a line
// state is the next line event of the same frame: a call made on the way shows as a
// call state instead, an exception as an exception state.
func (p *Program) localsAfter(c int, prev *State) *localsRule {
	cf := &p.f.Codes[c]
	vf := cf.Values
	if vf == nil || p.f.Open || cf.Loose || cf.Namespace || cf.OpenNames {
		return nil
	}
	var lv LineValues
	switch prev.Event {
	case EventCall:
		lv.Pure = true // nothing runs between the call event and the first line event
	case EventLine:
		var ok bool
		if lv, ok = vf.Lines[prev.Loc.Line]; !ok {
			return nil
		}
		lv.Pure = lv.Pure && p.f.Closed
		for _, n := range lv.Inplace {
			if r, ok := prev.Locals.Get(n); ok && !immutableRepr.MatchString(r) {
				lv.Pure = false // += on a list changes it in place, and its aliases
			}
		}
	default:
		return nil
	}
	order, last, ok := localsOrder(cf.Names, prev.Locals)
	if !ok {
		return nil
	}
	changeable := func(v Var) bool {
		if slices.Contains(lv.Stores, v.Name) {
			return true
		}
		if lv.Pure || p.untouched(c, v) {
			return false
		}
		return slices.Contains(vf.Cells, v.Name) || !p.f.NoClass || !immutableRepr.MatchString(v.Repr)
	}
	var kept []Var // certainly unchanged
	r := &localsRule{code: c, forced: map[string][]string{}}
	for _, v := range prev.Locals {
		if changeable(v) {
			r.keys = append(r.keys, content(v.Name))
		} else {
			kept = append(kept, v)
		}
	}
	// Names that can become bound: those stored, and cells when other code runs.
	fresh := slices.Clone(lv.Stores)
	if !lv.Pure {
		fresh = append(fresh, vf.Cells...)
	}
	outOfOrder := false
	for _, n := range fresh {
		if _, ok := prev.Locals.Get(n); ok || n == "" || n[0] == '.' || slices.Contains(r.keys, content(n)) {
			continue
		}
		i, ok := order[n]
		if !ok {
			return nil
		}
		outOfOrder = outOfOrder || i < last
		r.keys = append(r.keys, content(n))
	}
	deletes := len(lv.Deletes) > 0 || (!lv.Pure && len(vf.Cells) > 0)
	// The encoder writes the diff form unless a variable disappeared or a new one
	// comes before an old one; a kept variable is then left out, so the marker ends it.
	r.mustMarker = len(kept) > 0 && !deletes && !outOfOrder
	for n, rep := range lv.Consts {
		if slices.Contains(vf.Cells, n) {
			continue
		}
		old, had := prev.Locals.Get(n)
		if had && !lv.Pure && !(p.f.NoClass && immutableRepr.MatchString(old)) {
			continue // other code may change it in place without the store running
		}
		vals := []string{content(rep)}
		if had && old != rep && !r.mustMarker {
			// The full form shows a variable whose store did not run with its old value.
			vals = append(vals, content(old))
		}
		r.forced[content(n)] = vals
	}
	stored, assigned := p.assignAfter(c, prev)
	loopVars, looped := p.forNext(c, prev)
	r.evaluated = assigned || looped
	for _, sv := range stored {
		n := content(sv.name)
		if !slices.Contains(r.keys, n) {
			continue
		}
		r.forced[n] = []string{content(sv.repr)} // the store runs once, before the next line event
		r.assign = true
		if old, had := prev.Locals.Get(sv.name); !had || old != sv.repr {
			r.required = append(r.required, n) // changed: the diff form shows it too
		}
	}
	for _, lvar := range loopVars {
		n := content(lvar.name)
		if !slices.Contains(r.keys, n) {
			continue
		}
		for _, v := range lvar.reprs {
			r.forced[n] = append(r.forced[n], content(v))
		}
		r.assign = true
		if _, bound := prev.Locals.Get(lvar.name); !bound {
			// The loop starts over a non-empty iterable: the body's first line, with it.
			r.required = append(r.required, n)
		}
	}
	if !r.mustMarker {
		r.showKept(kept)
		// A variable the line stores but does not delete is still bound too.
		for _, v := range prev.Locals {
			k := content(v.Name)
			if slices.Contains(r.keys, k) && !slices.Contains(r.present, k) && !slices.Contains(lv.Deletes, v.Name) &&
				(lv.Pure || !slices.Contains(vf.Cells, v.Name)) {
				r.present = append(r.present, k)
			}
		}
	}
	// A name every path has bound at each line the step can stop at is a change when
	// prev has not bound it yet (x = g(y), a, b = t: values the rules above leave free).
	next := cf.Entry.Next
	if prev.Event == EventLine {
		next = cf.AfterLine[prev.Loc.Line].Next
	}
	r.requireNew(prev, boundAt(vf, next))
	return r
}

// firstForced is the first value the rule allows key, "" when it leaves it free: what
// a forced close writes for a key the object must still have.
func (r *localsRule) firstForced(key string) string {
	if vs := r.forced[key]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// showKept lets the full form show the kept variables, each with its value in prev,
// and makes it show them: they are certainly bound.
func (r *localsRule) showKept(kept []Var) {
	for _, v := range kept {
		k := content(v.Name)
		r.keys = append(r.keys, k)
		r.forced[k] = []string{content(v.Repr)}
		r.present = append(r.present, k)
	}
}

// localsOrder returns the code's names in f_locals order (varnames, cells, frees) as
// positions, and the last position of a local of locals; false when locals has a
// name the code does not.
func localsOrder(names []string, locals Locals) (order map[string]int, last int, ok bool) {
	order = make(map[string]int, len(names))
	for i, n := range names {
		order[n] = i
	}
	last = -1
	for _, v := range locals {
		i, ok := order[v.Name]
		if !ok {
			return nil, 0, false
		}
		last = max(last, i)
	}
	return order, last, true
}

// retOverride is what a return at some lines of a code object certainly gives.
type retOverride struct {
	code int
	vals map[int][]string // line -> the candidates (JSON string content)
}

// retAfter returns what a return event right after prev (a line state of a frame of
// code c at a line that is exactly `return NAME` or `return a, b, ...`) gives: the
// names' values, or nil.
func (p *Program) retAfter(c int, prev *State) *retOverride {
	vf := p.f.Codes[c].Values
	if vf == nil || prev.Event != EventLine || p.f.Open || p.f.Codes[c].Loose {
		return nil
	}
	// Right after the line event nothing but the line's loads runs: any value is kept.
	v, ok := retRepr(vf, prev.Loc.Line, prev.Locals, func(Var) bool { return true })
	if !ok {
		if v, ok = p.retExprAt(c, prev); !ok {
			return nil
		}
	}
	return &retOverride{code: c, vals: map[int][]string{prev.Loc.Line: {content(v)}}}
}

// retOnReturn returns what the return event that a step_return from prev (a line or
// call state of a frame of code c) leads to gives, at the lines that are exactly
// `return NAME` or `return a, b, ...` where every name keeps its value in prev until
// the frame ends: not stored or deleted by anything the frame can still run (Reach
// from a line; from the call, every instruction of the code), not a cell, and
// holding an immutable builtin value, or nothing the frame can still run changes an
// object (a pure Reach in a closed program). Nil when no line has one.
func (p *Program) retOnReturn(c int, prev *State) *retOverride {
	cf := &p.f.Codes[c]
	vf := cf.Values
	if vf == nil || p.f.Open || cf.Loose || cf.Namespace || cf.OpenNames {
		return nil
	}
	reach, ok := reachFrom(vf, prev)
	if !ok {
		return nil
	}
	kept := func(v Var) bool {
		if slices.Contains(reach.Stores, v.Name) || slices.Contains(vf.Cells, v.Name) {
			return false
		}
		return reach.Pure && p.f.Closed || p.f.NoClass && immutableRepr.MatchString(v.Repr) || p.untouched(c, v)
	}
	r := &retOverride{code: c, vals: map[int][]string{}}
	for _, line := range cf.Returns {
		if _, ok := vf.Rets[line]; !ok {
			continue // no return instruction of its own (or one without a line): unknown
		}
		k := kept
		// At prev's own line, or at the first line from the call (nothing runs
		// between the call event and the first line event), the return's loads
		// read prev's locals.
		at := prev
		sameLine := prev.Event == EventLine && line == prev.Loc.Line
		if prev.Event == EventCall && len(cf.Entry.Next) == 1 && cf.Entry.Next[0] == line && len(cf.Entry.Ret) == 0 {
			sameLine = true
			at = &State{Event: EventLine, Loc: Loc{Line: line}, Locals: prev.Locals}
		}
		if sameLine {
			k = func(Var) bool { return true } // nothing but the line's loads runs (retAfter)
		}
		v, ok := retRepr(vf, line, prev.Locals, k)
		if !ok && sameLine {
			v, ok = p.retExprAt(c, at)
		}
		if !ok {
			continue
		}
		vals := []string{content(v)}
		if vf.Reraise && v != "None" && !sameLine {
			vals = append(vals, "None") // a frame left by a re-raise returns None
		}
		r.vals[line] = vals
	}
	if len(r.vals) == 0 {
		return nil
	}
	return r
}

// reachFrom is what the frame of prev (a line or call state) can still do before it
// ends: the Reach of prev's line, or, from the call event, what the whole code does.
func reachFrom(vf *ValueFacts, prev *State) (Reach, bool) {
	switch prev.Event {
	case EventLine:
		r, ok := vf.Reach[prev.Loc.Line]
		return r, ok
	case EventCall:
		if vf.Whole == nil {
			return Reach{}, false
		}
		return Reach{Stores: vf.Whole.Stores, Pure: vf.Whole.Pure}, true
	}
	return Reach{}, false
}

// retRepr returns the repr that the return at line (exactly `return NAME` or `return
// a, b, ...`) gives when its names hold their values in locals (each passing kept).
// A tuple's repr is built as Python writes it only up to maxConstRepr characters: a
// longer one could be cut by the tracer's repr limit, which the facts do not know.
func retRepr(vf *ValueFacts, line int, locals Locals, kept func(Var) bool) (string, bool) {
	if n, ok := vf.RetNames[line]; ok {
		r, ok := locals.Get(n)
		if !ok || !kept(Var{Name: n, Repr: r}) {
			return "", false
		}
		return r, true
	}
	names, ok := vf.RetTuples[line]
	if !ok || len(names) == 0 {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('(')
	for i, n := range names {
		r, ok := locals.Get(n)
		if !ok || !kept(Var{Name: n, Repr: r}) {
			return "", false
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(r)
	}
	if len(names) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	if b.Len() > maxConstRepr {
		return "", false
	}
	return b.String(), true
}

// maxConstRepr is the longest repr the facts build, the evaluator's values included
// (trace/analyze.py's _MAX_CONST_REPR bounds the constants it writes at 32): the
// tracer's repr limit (200 characters by default, which no front end changes) is
// assumed no shorter.
const maxConstRepr = 100

// retValues returns the values a return state at line can give in a frame of one
// of the codes in play (JSON string content), or nil when any is unknown.
func (t *Targets) retValues(alive codeSet, line int) []string {
	var out []string
	for c, lines := range t.set[EventReturn] {
		if !alive.has(c) || !lines[line] {
			continue
		}
		var vals []string
		if t.ret != nil && t.ret.code == c && t.ret.vals[line] != nil {
			vals = t.ret.vals[line]
		} else if t.p.f.Codes[c].Values != nil && !t.p.f.Codes[c].Loose {
			rs := t.p.f.Codes[c].Values.Rets[line]
			if rs == nil {
				return nil
			}
			for _, r := range rs {
				vals = append(vals, content(r))
			}
		} else {
			return nil
		}
		for _, v := range vals {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// ValueRule reports whether the value facts narrow the locals of a line state (and
// whether they force the diff marker), for tests and statistics.
func (t *Targets) ValueRule() (locals, marker bool) {
	if t.locals == nil {
		return false, false
	}
	return true, t.locals.mustMarker
}

// ReturnRule reports whether the value facts force the value of a return at some
// line (from a step_into, step_over or step_return), for tests and statistics.
func (t *Targets) ReturnRule() bool { return t.ret != nil }
