package synth

import (
	"fmt"
	"slices"
	"strings"
)

// block is a template: gen emits its lines into f and returns the variable it binds
// (unconditionally, so later code may read it), or nil for a template that only
// changes its inputs in place. Every template is total on the kinds it reads.
type block struct {
	names  []string // names for a helper function made of this block
	in     kind     // the kind of its main input, for chaining blocks
	weight int
	gen    func(f *fn) *variable
}

var registry []block

// register adds templates; each domain file registers its own in init.
func register(bs ...block) { registry = append(registry, bs...) }

// block runs one template chosen at random, preferring one that consumes the latest
// unconsumed result, sometimes inside a branch or a loop wrapper.
func (f *fn) block() *variable {
	b := f.choose()
	if f.depth == 0 && f.g.chance(0.1) {
		return f.wrapped(b)
	}
	return f.run(b)
}

func (f *fn) choose() *block {
	want := kNone
	for i := len(f.produced) - 1; i >= 0; i-- {
		if v := f.produced[i]; v.uses == 0 && v.k != kOther {
			want = v.k
			if want == kChar {
				want = kStr
			}
			break
		}
	}
	total := 0
	for i := range registry {
		if want == kNone || registry[i].in == want {
			total += registry[i].weight
		}
	}
	if total == 0 || !f.g.chance(0.65) {
		want = kNone
		total = 0
		for i := range registry {
			total += registry[i].weight
		}
	}
	r := f.g.intn(total)
	for i := range registry {
		if want != kNone && registry[i].in != want {
			continue
		}
		r -= registry[i].weight
		if r < 0 {
			return &registry[i]
		}
	}
	panic("unreachable")
}

// run emits b inline or, sometimes, as a helper function called from f.
func (f *fn) run(b *block) *variable {
	share := f.g.opts.HelperShare
	if f.depth > 0 {
		share *= 1.5
	}
	if len(b.names) > 0 && f.helperBudget() && f.g.chance(share) {
		return f.produce(f.extract(b))
	}
	return f.produce(b.gen(f))
}

// extract emits b as the body of a new helper and a call of it in f.
func (f *fn) extract(b *block) *variable {
	h := newFn(f.p, f.p.globalName(b.names...), f)
	f.p.helpers++
	f.tag("helper")
	if f.depth > 0 {
		f.tag("nested-call")
	}
	res := b.gen(h)
	if res != nil && f.depth == 0 && f.g.chance(0.3) {
		// A second step inside the helper, usually reading the first step's result;
		// it may become a helper of the helper.
		h.produce(res)
		if r := h.run(h.choose()); r != nil {
			res = r
		}
	}
	if res != nil {
		if res.k == kIntSet && h.g.chance(0.5) {
			h.line("return sorted(%s)", res.name)
			res = &variable{k: kIntList, name: res.name}
		} else {
			h.line("return %s", res.name)
		}
	}
	f.p.define(h)
	if res == nil {
		f.line("%s(%s)", h.name, h.args())
		return nil
	}
	v := f.result(res.k, poolFor(res.k))
	f.line("%s = %s(%s)", v.name, h.name, h.args())
	return v
}

// wrapped runs b inside an if/else on an input, or inside a for loop that repeats it
// a bounded number of times. Names b binds besides its result become unusable, since
// they may be unbound.
func (f *fn) wrapped(b *block) *variable {
	before := len(f.vars)
	var res *variable
	if f.g.chance(0.7) {
		x := f.use(kInt, flAny)
		f.line("if %s:", f.intCond(x.name, x))
		f.tag("if")
		f.in()
		res = f.run(b)
		f.out()
		if res != nil {
			f.line("else:")
			f.in()
			f.line("%s = %s", res.name, zeroOf(res.k))
			f.out()
		}
	} else {
		// Run the block twice over: results of the first pass feed the second.
		if res = f.run(b); res == nil {
			return nil
		}
		if !f.canRepeat(res) {
			return res
		}
		i := f.reserve([]string{"_", "rep", "attempt", "round_no"})
		f.line("for %s in range(%d):", i, f.g.between(1, 2))
		f.tag("loop", "for")
		f.in()
		f.line("%s = %s", res.name, f.again(res))
		f.out()
	}
	for _, v := range f.vars[before:] {
		if v != res && !v.param {
			v.k = kNone
		}
	}
	return res
}

func (f *fn) canRepeat(v *variable) bool {
	return v.k == kInt || v.k == kStr || v.k == kIntList || v.k == kStrList
}

// again returns an expression that transforms v once more (for repeat wrappers).
func (f *fn) again(v *variable) string {
	switch v.k {
	case kInt:
		return f.intMap(v.name)
	case kStr:
		return f.wordMap(v.name)
	case kIntList:
		x := f.reserve(intElemNames)
		f.tag("comprehension")
		return fmt.Sprintf("[%s for %s in %s]", f.intMap(x), x, v.name)
	default:
		w := f.reserve(strElemNames)
		f.tag("comprehension")
		return fmt.Sprintf("[%s for %s in %s]", f.wordMap(w), w, v.name)
	}
}

// zeroOf is the neutral value of a kind.
func zeroOf(k kind) string {
	switch k {
	case kInt:
		return "0"
	case kStr, kChar:
		return "''"
	case kIntList, kStrList, kOther:
		return "[]"
	case kDict:
		return "{}"
	case kIntSet:
		return "set()"
	case kBool:
		return "False"
	}
	return "None"
}

// finish ends f: an optional early-return guard, an optional print, and the return
// statement.
func (f *fn) finish() {
	f.finalRebind()
	var fresh []*variable
	for _, v := range f.produced {
		if v.uses == 0 && v.k != kNone {
			fresh = append(fresh, v)
		}
	}
	var expr string
	var k kind
	back := f.handBack(fresh)
	switch {
	case back != nil:
		expr, k = back.name, back.k
	case len(fresh) == 0 && len(f.produced) > 0:
		v := f.produced[len(f.produced)-1]
		if v.k == kNone {
			v = nil
		}
		if v != nil {
			expr, k = f.retExpr(v), v.k
		}
	case len(fresh) == 1:
		expr, k = f.retExpr(fresh[0]), fresh[0].k
	case len(fresh) >= 2:
		a, b := fresh[len(fresh)-2], fresh[len(fresh)-1]
		expr, k = f.combine(a, b)
	}
	if expr == "" {
		// Nothing bound: return an input, typically one changed in place.
		var ps []*variable
		for _, p := range f.params {
			if p.k == kIntList || p.k == kStrList || p.k == kDict {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			ps = f.params
		}
		if len(ps) == 0 {
			expr, k = "None", kNone
		} else {
			v := pick(f.g, ps)
			expr, k = f.retExpr(v), v.k
		}
	}
	if f.p.printing && !f.p.printed {
		f.printResult(expr)
	}
	f.line("return %s", expr)
	if f.p.mode == modeNormal && f.g.chance(0.12) {
		f.guard(k)
	}
}

// handBack returns, usually, the latest unconsumed parameter that a block rebound
// under its own name: f then returns it alone (`return text`), as CruxEval's functions
// often do; the other unconsumed results stay unread.
func (f *fn) handBack(fresh []*variable) *variable {
	for _, v := range slices.Backward(fresh) {
		if v.handedBack {
			if f.g.chance(0.7) {
				return v
			}
			return nil
		}
	}
	return nil
}

func (f *fn) retExpr(v *variable) string {
	if v.k == kIntSet {
		f.tag("set")
		return "sorted(" + v.name + ")"
	}
	return v.name
}

// combine returns an expression of two results.
func (f *fn) combine(a, b *variable) (string, kind) {
	g := f.g
	switch {
	case a.k == kInt && b.k == kInt && g.chance(0.5):
		return fmt.Sprintf("%s %s %s", a.name, pick(g, []string{"+", "-", "*"}), b.name), kInt
	case (a.k == kStr || a.k == kChar) && b.k == kInt && g.chance(0.5):
		switch g.intn(3) {
		case 0:
			f.tag("fstring")
			return fmt.Sprintf("f'{%s}%s{%s}'", a.name, pick(g, []string{":", "-", " ", "#", "="}), b.name), kStr
		case 1:
			f.tag("format")
			return fmt.Sprintf("'{}%s{}'.format(%s, %s)", pick(g, []string{"/", "|", ": ", "x"}), a.name, b.name), kStr
		}
		return fmt.Sprintf("%s + str(%s)", a.name, b.name), kStr
	case a.k == kIntList && b.k == kIntList && g.chance(0.3):
		return a.name + " + " + b.name, kIntList
	case a.k == kBool && g.chance(0.5):
		return fmt.Sprintf("%s if %s else %s", f.retExpr(b), a.name, zeroOf(b.k)), b.k
	}
	f.tag("tuple")
	return f.retExpr(a) + ", " + f.retExpr(b), kOther
}

// printResult prints the result (or part of it) before returning.
func (f *fn) printResult(expr string) {
	f.p.printed = true
	f.tag("print")
	g := f.g
	if strings.Contains(expr, " if ") || strings.Contains(expr, ", ") {
		expr = "(" + expr + ")"
	}
	choice := g.intn(4)
	if choice == 2 && strings.ContainsAny(expr, "'\"") {
		choice = 1 // no quotes inside an f-string's braces before Python 3.12
	}
	switch choice {
	case 0:
		f.line("print(%s)", expr)
	case 1:
		f.line("print(%s, %s)", g.str(pick(g, []string{"result:", "done", "->", "got", "answer ="})), expr)
	case 2:
		f.tag("fstring")
		f.line("print(f'%s {%s}')", pick(g, []string{"value", "out", "final", "res"}), expr)
	default:
		f.tag("format")
		f.line("print('%s {}'.format(%s))", pick(g, []string{"total", "result", "=>", "got"}), expr)
	}
}

// maybePrint prints progress from inside a loop in printing programs.
func (f *fn) maybePrint(exprs ...string) {
	if f.p.printing && !f.p.printed && f.g.chance(0.5) {
		f.p.printed = true
		f.tag("print")
		f.line("print(%s)", strings.Join(exprs, ", "))
	}
}

// guard inserts an early return at the top of f for an empty input.
func (f *fn) guard(k kind) {
	var ps []*variable
	for _, p := range f.params {
		if p.k == kIntList || p.k == kStrList || p.k == kStr || p.k == kDict {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return
	}
	p := pick(f.g, ps)
	def := zeroOf(k)
	if k == kNone || k == kOther {
		def = pick(f.g, []string{"None", "[]", "()"})
	}
	guard := []string{"    if not " + p.name + ":", "        return " + def}
	f.w.lines = slices.Insert(f.w.lines, 0, guard...)
	f.tag("if", "early-return")
}
