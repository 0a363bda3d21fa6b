package synth

import (
	"fmt"
	"strconv"
	"strings"
)

// kind is the static type of a generated variable. Templates only combine variables
// whose kind they handle, and every template is total on its kinds (it cannot raise
// for any value of them), so only the failure templates end a program in an error.
type kind uint8

const (
	kNone    kind = iota // a reserved name (loop variable...), never used as an input
	kInt                 // int
	kStr                 // str
	kChar                // str of length 1; usable wherever a str is
	kIntList             // list[int]
	kStrList             // list[str]
	kDict                // dict[str, int]
	kIntSet              // set[int]: small ints only, so iteration order is deterministic
	kBool                // bool
	kOther               // any other value (list of tuples, dict of lists...): only returned
)

// flavor shapes the concrete value of a new parameter so that templates see inputs
// that exercise them (a sentence for split, digits for isdigit...).
type flavor uint8

const (
	flAny      flavor = iota
	flWord            // one lower-case word
	flSentence        // words separated by spaces
	flMixed           // letters and digits
	flCSV             // tokens separated by a punctuation character
	flDigits          // digits only (or nearly)
	flSmall           // small non-negative int / list of small ints
	flPos             // positive int
	flIndex           // int usable as a (possibly out of range) index
	flSorted          // sorted list
	flBrackets        // string of brackets
)

// variable is a name bound in a generated function.
type variable struct {
	name   string
	k      kind
	val    any       // the current value when statically known, else nil
	input  any       // for a parameter of f: the argument value
	param  bool      // a parameter of its function
	origin *variable // for a helper's parameter: the caller's argument
	uses   int
	ready  bool // readable by later templates: a parameter or a finished block's result
	// handedBack marks a parameter rebound or changed in place by a block, under its
	// own name: f may return it alone (`return text`).
	handedBack bool
}

// writer accumulates indented lines.
type writer struct {
	lines []string
	depth int
}

func (w *writer) line(format string, a ...any) {
	s := format
	if len(a) > 0 {
		s = fmt.Sprintf(format, a...)
	}
	w.lines = append(w.lines, strings.Repeat("    ", w.depth)+s)
}

func (w *writer) in()  { w.depth++ }
func (w *writer) out() { w.depth-- }

// fn is a function under construction: f itself or a helper extracted from a caller.
type fn struct {
	p         *prog
	g         *Generator
	name      string
	parent    *fn // the caller a helper was extracted from; nil for f and free helpers
	params    []*variable
	vars      []*variable
	w         writer
	maxParams int
	produced  []*variable // results of the blocks run in this function, in order
	depth     int         // helper nesting depth, 0 for f
}

func newFn(p *prog, name string, parent *fn) *fn {
	f := &fn{p: p, g: p.g, name: name, parent: parent, maxParams: 3}
	f.w.depth = 1
	if parent != nil {
		f.depth = parent.depth + 1
	}
	return f
}

// taken reports whether name is bound in f, global in the program, or reserved.
func (f *fn) taken(name string) bool {
	if isReserved(name) || f.p.isGlobal(name) || name == f.name {
		return true
	}
	for _, v := range f.vars {
		if v.name == name {
			return true
		}
	}
	return false
}

// fresh picks an unbound name from pool.
func (f *fn) fresh(pool []string) string {
	start := f.g.r.IntN(len(pool))
	for i := range pool {
		name := pool[(start+i)%len(pool)]
		if !f.taken(name) {
			f.p.useLocal(name)
			return name
		}
	}
	base := pool[start]
	for i := 2; ; i++ {
		name := base + strconv.Itoa(i)
		if !f.taken(name) {
			f.p.useLocal(name)
			return name
		}
	}
}

// reserve binds a fresh name that templates may not read later (a loop variable, a
// temporary): it may be unbound when its loop never ran.
func (f *fn) reserve(pool []string) string {
	name := f.fresh(pool)
	f.vars = append(f.vars, &variable{name: name, k: kNone})
	return name
}

// local binds a fresh variable of kind k.
func (f *fn) local(k kind, pool []string) *variable {
	v := &variable{name: f.fresh(pool), k: k}
	f.vars = append(f.vars, v)
	return v
}

// result binds a fresh variable for a block's result, sometimes with a generic name.
func (f *fn) result(k kind, pool []string) *variable {
	if f.g.chance(0.2) {
		return f.local(k, resultNames)
	}
	return f.local(k, pool)
}

func poolFor(k kind) []string {
	switch k {
	case kInt:
		return intNames
	case kStr:
		return strNames
	case kChar:
		return charNames
	case kIntList:
		return intListNames
	case kStrList:
		return strListNames
	case kDict:
		return dictNames
	case kIntSet:
		return setNames
	case kBool:
		return boolNames
	}
	return otherNames
}

// fits reports whether a variable of kind have may be read where kind want is needed.
func fits(have, want kind) bool {
	return have == want || want == kStr && have == kChar
}

// use returns a variable of kind k to read: an unconsumed block result, an existing
// parameter, or a new parameter.
func (f *fn) use(k kind, fl flavor) *variable {
	return f.useExcept(k, fl, nil)
}

// useExcept is use, avoiding the variable not (so a template gets two distinct inputs).
func (f *fn) useExcept(k kind, fl flavor, not *variable) *variable {
	var fresh, all []*variable
	for _, v := range f.vars {
		if v == not || !v.ready || !fits(v.k, k) || v.k == kChar && k == kStr && !f.g.chance(0.3) {
			continue
		}
		all = append(all, v)
		if !v.param && v.uses == 0 {
			fresh = append(fresh, v)
		}
	}
	var v *variable
	switch {
	case len(fresh) > 0 && f.g.chance(0.8):
		v = fresh[len(fresh)-1]
	case len(all) > 0 && (len(f.params) >= f.maxParams || f.g.chance(0.7)):
		v = all[f.g.r.IntN(len(all))]
	default:
		v = f.newParam(k, fl, not)
	}
	v.uses++
	return v
}

// newParam adds a parameter. In a helper the caller supplies the argument.
func (f *fn) newParam(k kind, fl flavor, not *variable) *variable {
	v := &variable{k: k, param: true, ready: true}
	if f.parent != nil {
		var avoid *variable
		if not != nil {
			avoid = not.origin
		}
		arg := f.parent.useExcept(k, fl, avoid)
		v.k, v.val, v.origin = arg.k, arg.val, arg
		if !f.taken(arg.name) && f.g.chance(0.6) {
			v.name = arg.name
		} else {
			v.name = f.fresh(poolFor(arg.k))
		}
	} else {
		v.name = f.fresh(poolFor(k))
		v.val = f.g.value(k, fl)
		v.input = v.val
	}
	f.params = append(f.params, v)
	f.vars = append(f.vars, v)
	return v
}

// mutate records that v (and the caller's argument behind it) changed in place or was
// rebound, so its concrete value is no longer known.
func (f *fn) mutate(v *variable) {
	for ; v != nil; v = v.origin {
		v.val = nil
	}
}

// known returns the variable's concrete value when known.
func known[T any](v *variable) (T, bool) {
	t, ok := v.val.(T)
	return t, ok
}

func (f *fn) line(format string, a ...any) { f.w.line(format, a...) }
func (f *fn) in()                          { f.w.in() }
func (f *fn) out()                         { f.w.out() }
func (f *fn) tag(tags ...string)           { f.p.tag(tags...) }

// produce records the result of a block, which later templates may now read.
func (f *fn) produce(v *variable) *variable {
	if v != nil {
		v.ready = true
		f.produced = append(f.produced, v)
	}
	return v
}

// header renders the def line.
func (f *fn) header() string {
	names := make([]string, len(f.params))
	for i, p := range f.params {
		names[i] = p.name
	}
	return fmt.Sprintf("def %s(%s):", f.name, strings.Join(names, ", "))
}

// args renders the argument list of a call of helper h from its caller.
func (h *fn) args() string {
	names := make([]string, len(h.params))
	for i, p := range h.params {
		names[i] = p.origin.name
	}
	return strings.Join(names, ", ")
}
