package synth

import (
	"slices"
	"strings"
)

// Failure templates: code that, for the program's concrete inputs, certainly ends the
// run in an uncaught exception (fail) or never terminates (never). A template asks for
// inputs with a property (a key missing from a dict, an odd number...); an input of f
// whose value is still known and has the property is reused, else f gets a new
// parameter with such a value. The failing code sits in f or in a helper f calls.
// Endless loops only grow ints, never containers, so they run in constant memory.

// failure is the place a failure template writes to.
type failure struct {
	f  *fn // the program's f
	at *fn // f, or a helper of f
}

// arg is an input of a failure template: its name where the code goes, and its value.
type arg struct {
	name string
	val  any
}

// in returns an input of kind k whose value satisfies ok.
func (s *failure) in(k kind, ok func(any) bool, gen func() any) arg {
	var cands []*variable
	for _, v := range s.f.vars {
		if v.k == k && v.param && v.val != nil && ok(v.val) {
			cands = append(cands, v)
		}
	}
	var v *variable
	if len(cands) > 0 && s.f.g.chance(0.7) {
		v = pick(s.f.g, cands)
	} else {
		val := gen()
		v = &variable{name: s.f.fresh(poolFor(k)), k: k, val: val, input: val, param: true, ready: true}
		s.f.params = append(s.f.params, v)
		s.f.vars = append(s.f.vars, v)
	}
	v.uses++
	if s.at == s.f {
		return arg{v.name, v.val}
	}
	pv := &variable{k: k, val: v.val, param: true, origin: v, ready: true}
	if !s.at.taken(v.name) && s.f.g.chance(0.6) {
		pv.name = v.name
	} else {
		pv.name = s.at.fresh(poolFor(k))
	}
	s.at.params = append(s.at.params, pv)
	s.at.vars = append(s.at.vars, pv)
	return arg{pv.name, pv.val}
}

func anyVal(any) bool { return true }

// start opens a failure site: f itself, or sometimes a new helper.
func (f *fn) start(names []string) *failure {
	s := &failure{f: f, at: f}
	if f.g.chance(0.3) {
		s.at = newFn(f.p, f.p.globalName(names...), f)
		f.p.helpers++
		f.tag("helper")
	}
	return s
}

// finish closes the site: a helper is defined and called from f.
func (s *failure) finish(ret string) {
	if s.at == s.f {
		return
	}
	if ret != "" {
		s.at.line("return %s", ret)
	}
	s.f.p.define(s.at)
	if ret == "" {
		s.f.line("%s(%s)", s.at.name, s.at.args())
		return
	}
	v := s.f.reserve(resultNames)
	s.f.line("%s = %s(%s)", v, s.at.name, s.at.args())
}

type failTemplate struct {
	names []string
	gen   func(s *failure) string // returns a name for a helper to return, or ""
}

var errorTemplates = []failTemplate{
	{[]string{"pick_at", "item_at", "take_item"}, errIndex},
	{[]string{"sum_through", "add_up", "total_all"}, errOffByOne},
	{[]string{"lookup", "fetch_value", "read_key"}, errKey},
	{[]string{"price_total", "cost_of", "sum_lookup"}, errKeyLoop},
	{[]string{"parse", "to_number", "read_int"}, errInt},
	{[]string{"sum_tokens", "add_tokens", "parse_all"}, errIntLoop},
	{[]string{"locate", "position", "find_at"}, errListIndex},
	{[]string{"split_pair", "key_value", "two_parts"}, errUnpack},
	{[]string{"average", "mean_of", "per_item"}, errZeroDiv},
	{[]string{"require", "validate", "check_input"}, errRaise},
	{[]string{"describe", "caption", "label_for"}, errType},
	{[]string{"split_items", "tokenize_all", "break_words"}, errAttr},
	{[]string{"safe_read", "careful_get", "guarded_parse"}, errWrongExcept},
	{[]string{"need_items", "assert_size", "precheck"}, errAssert},
	{[]string{"biggest", "top_of", "pop_last"}, errEmpty},
	{[]string{"prune", "drop_small", "clean_table"}, errDictMutation},
	{[]string{"bump_count", "increment", "add_one"}, errNoneValue},
	{[]string{"depth_of", "walk_down", "descend"}, errRecursion},
}

var neverTemplates = []failTemplate{
	{[]string{"accumulate", "sum_items", "total_up"}, nevForgot},
	{[]string{"advance", "skip_large", "scan_until"}, nevCondIncrement},
	{[]string{"sum_odd", "skip_some", "filter_sum"}, nevContinue},
	{[]string{"step_to", "climb", "walk_to"}, nevParity},
	{[]string{"cycle", "spin", "churn"}, nevModCycle},
	{[]string{"square_walk", "settle", "iterate"}, nevSquares},
	{[]string{"shout", "raise_case", "loud"}, nevReplace},
	{[]string{"wait_until", "align", "round_up_to"}, nevWait},
	{[]string{"halve_steps", "drain_by_two", "count_pairs"}, nevOddStep},
}

// fail emits code that raises an uncaught exception for the program's inputs.
func (f *fn) fail() {
	t := pick(f.g, errorTemplates)
	s := f.start(t.names)
	s.finish(t.gen(s))
	f.tag("exception")
}

// never emits code that loops forever for the program's inputs.
func (f *fn) never() {
	t := pick(f.g, neverTemplates)
	s := f.start(t.names)
	s.finish(t.gen(s))
	f.tag("loop")
}

func intList(v any) []int { x, _ := v.([]int); return x }

func errIndex(s *failure) string {
	g := s.f.g
	xs := s.in(kIntList, anyVal, func() any { return g.intList(flAny) })
	n := len(intList(xs.val))
	idx := s.in(kInt, func(v any) bool { i := v.(int); return i >= n || i < -n }, func() any {
		if g.chance(0.2) {
			return -n - 1
		}
		return n + g.between(0, 2)
	})
	v := s.at.reserve([]string{"picked", "item", "chosen"})
	s.at.line("%s = %s[%s]", v, xs.name, idx.name)
	s.at.line("%s = %s", v, s.at.intMap(v))
	s.at.tag("error-index")
	return v
}

func errOffByOne(s *failure) string {
	g := s.f.g
	i := s.at.reserve(indexNames)
	total := s.at.reserve([]string{"total", "acc", "out"})
	if g.chance(0.5) {
		xs := s.in(kIntList, anyVal, func() any { return g.intList(flAny) })
		s.at.line("%s = 0", total)
		s.at.line("for %s in range(len(%s) + 1):", i, xs.name)
		s.at.in()
		s.at.line("%s += %s[%s]", total, xs.name, i)
		s.at.out()
	} else {
		str := s.in(kStr, anyVal, func() any { return g.strValue(flWord) })
		s.at.line("%s = ''", total)
		s.at.line("%s = 0", i)
		s.at.line("while %s <= len(%s):", i, str.name)
		s.at.in()
		s.at.line("%s += %s[%s]", total, str.name, i)
		s.at.line("%s += 1", i)
		s.at.out()
		s.at.tag("while")
	}
	s.at.tag("error-index")
	return total
}

func hasKey(d dictVal, k string) bool {
	return slices.ContainsFunc(d, func(e kv) bool { return e.k == k })
}

// missingKey returns a vocabulary word that is not a key of d.
func missingKey(g *Generator, d dictVal) string {
	for {
		if w := pick(g, vocabulary); !hasKey(d, w) {
			return w
		}
	}
}

func errKey(s *failure) string {
	g := s.f.g
	d := s.in(kDict, anyVal, func() any { return g.dictValue() })
	dv := d.val.(dictVal)
	key := s.in(kStr, func(v any) bool { return !hasKey(dv, v.(string)) }, func() any { return missingKey(g, dv) })
	v := s.at.reserve([]string{"amount", "qty", "found"})
	s.at.line("%s = %s[%s] * %d", v, d.name, key.name, g.between(1, 3))
	s.at.tag("error-key")
	return v
}

func errKeyLoop(s *failure) string {
	g := s.f.g
	d := s.in(kDict, anyVal, func() any { return g.dictValue() })
	dv := d.val.(dictVal)
	ws := s.in(kStrList, func(v any) bool {
		return slices.ContainsFunc(v.([]string), func(w string) bool { return !hasKey(dv, w) })
	}, func() any {
		var ws []string
		for _, e := range dv {
			if g.chance(0.5) {
				ws = append(ws, e.k)
			}
		}
		return slices.Insert(ws, g.intn(len(ws)+1), missingKey(g, dv))
	})
	w, total := s.at.reserve(strElemNames), s.at.reserve([]string{"total", "cost", "bill"})
	s.at.line("%s = 0", total)
	s.at.line("for %s in %s:", w, ws.name)
	s.at.in()
	s.at.line("%s += %s[%s]", total, d.name, w)
	s.at.out()
	s.at.tag("error-key", "for")
	return total
}

func hasLetter(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' })
}

func errInt(s *failure) string {
	g := s.f.g
	str := s.in(kStr, func(v any) bool { return hasLetter(v.(string)) }, func() any { return g.strValue(flWord) })
	v := s.at.reserve([]string{"number", "n", "parsed"})
	s.at.line("%s = int(%s.strip())", v, str.name)
	s.at.tag("error-value")
	return v
}

func errIntLoop(s *failure) string {
	g := s.f.g
	ws := s.in(kStrList, func(v any) bool { return slices.ContainsFunc(v.([]string), hasLetter) }, func() any {
		xs := []string{itoa(g.between(0, 50))}
		for range g.between(0, 3) {
			xs = append(xs, itoa(g.between(0, 99)))
		}
		return slices.Insert(xs, g.intn(len(xs)+1), g.word())
	})
	w, total := s.at.reserve(strElemNames), s.at.reserve([]string{"total", "acc"})
	s.at.line("%s = 0", total)
	s.at.line("for %s in %s:", w, ws.name)
	s.at.in()
	s.at.line("%s += int(%s)", total, w)
	s.at.out()
	s.at.tag("error-value", "for")
	return total
}

func errListIndex(s *failure) string {
	g := s.f.g
	xs := s.in(kIntList, anyVal, func() any { return g.intList(flAny) })
	lst := intList(xs.val)
	v := g.between(60, 99)
	for slices.Contains(lst, v) {
		v++
	}
	if g.chance(0.5) {
		at := s.at.reserve([]string{"pos", "where"})
		s.at.line("%s = %s.index(%d)", at, xs.name, v)
		return at
	}
	s.at.line("%s.remove(%d)", xs.name, v)
	s.at.tag("error-value")
	return ""
}

func errUnpack(s *failure) string {
	g := s.f.g
	sep := pick(g, []string{",", "-", ":"})
	str := s.in(kStr, func(v any) bool { return strings.Count(v.(string), sep) != 1 }, func() any {
		if g.chance(0.5) {
			return g.word()
		}
		return strings.Join([]string{g.word(), g.word(), g.word()}, sep)
	})
	a, b := s.at.reserve([]string{"key", "head", "left"}), s.at.reserve([]string{"value", "tail", "right"})
	s.at.line("%s, %s = %s.split(%s)", a, b, str.name, g.str(sep))
	s.at.tag("error-value", "unpacking")
	return a
}

func errZeroDiv(s *failure) string {
	g := s.f.g
	v := s.at.reserve([]string{"avg", "mean", "each"})
	if g.chance(0.5) {
		xs := s.in(kIntList, func(v any) bool { return len(v.([]int)) == 0 }, func() any { return []int{} })
		s.at.line("%s = sum(%s) // len(%s)", v, xs.name, xs.name)
	} else {
		n := s.in(kInt, anyVal, func() any { return g.intValue(flAny) })
		k := s.in(kInt, func(v any) bool { return v.(int) == 0 }, func() any { return 0 })
		s.at.line("%s = %s %s %s", v, n.name, pick(g, []string{"//", "%"}), k.name)
	}
	s.at.tag("error-zero")
	return v
}

func errRaise(s *failure) string {
	g := s.f.g
	if g.chance(0.5) {
		n := s.in(kInt, func(v any) bool { return v.(int) < 0 }, func() any { return -g.between(1, 9) })
		s.at.line("if %s < 0:", n.name)
		s.at.in()
		if g.chance(0.5) {
			s.at.line("raise ValueError(%s)", g.str(pick(g, []string{"negative input", "must be non-negative", "bad count"})))
		} else {
			s.at.line("raise ValueError(f'expected a non-negative number, got {%s}')", n.name)
		}
		s.at.out()
		s.at.tag("if")
		return ""
	}
	xs := s.in(kIntList, func(v any) bool { return len(v.([]int)) < 3 }, func() any { return g.intList(flAny)[:0] })
	s.at.line("if len(%s) < 3:", xs.name)
	s.at.in()
	s.at.line("raise %s(%s)", pick(g, []string{"ValueError", "IndexError", "RuntimeError"}), g.str(pick(g, []string{"too few items", "need at least three values", "input too short"})))
	s.at.out()
	s.at.tag("if", "raise")
	return ""
}

func errType(s *failure) string {
	g := s.f.g
	n := s.in(kInt, anyVal, func() any { return g.intValue(flAny) })
	v := s.at.reserve([]string{"label", "caption", "line"})
	if g.chance(0.5) {
		s.at.line("%s = %s + %s", v, g.str(pick(g, []string{"count: ", "total=", "n "})), n.name)
	} else {
		s.at.line("%s = len(%s)", v, n.name)
	}
	s.at.tag("error-type")
	return v
}

func errAttr(s *failure) string {
	g := s.f.g
	ws := s.in(kStrList, anyVal, func() any { return g.strList() })
	v := s.at.reserve([]string{"parts", "pieces"})
	s.at.line("%s = %s.split(%s)", v, ws.name, g.str(","))
	s.at.tag("error-attribute")
	return v
}

func errWrongExcept(s *failure) string {
	g := s.f.g
	v := s.at.reserve([]string{"value", "n", "result_val"})
	if g.chance(0.5) {
		d := s.in(kDict, anyVal, func() any { return g.dictValue() })
		dv := d.val.(dictVal)
		key := s.in(kStr, func(v any) bool { return !hasKey(dv, v.(string)) }, func() any { return missingKey(g, dv) })
		s.at.line("try:")
		s.at.in()
		s.at.line("%s = %s[%s]", v, d.name, key.name)
		s.at.out()
		s.at.line("except IndexError:")
	} else {
		str := s.in(kStr, func(v any) bool { return hasLetter(v.(string)) }, func() any { return g.strValue(flWord) })
		s.at.line("try:")
		s.at.in()
		s.at.line("%s = int(%s)", v, str.name)
		s.at.out()
		s.at.line("except %s:", pick(g, []string{"KeyError", "ZeroDivisionError", "IndexError"}))
	}
	s.at.in()
	s.at.line("%s = 0", v)
	s.at.out()
	s.at.tag("try")
	return v
}

func errAssert(s *failure) string {
	g := s.f.g
	xs := s.in(kIntList, anyVal, func() any { return g.intList(flAny) })
	k := len(intList(xs.val)) + g.between(0, 2)
	s.at.line("assert len(%s) > %d, %s", xs.name, k, g.str(pick(g, []string{"need more items", "too short", "not enough data"})))
	s.at.tag("assert")
	return ""
}

func errEmpty(s *failure) string {
	g := s.f.g
	xs := s.in(kIntList, func(v any) bool { return len(v.([]int)) == 0 }, func() any { return []int{} })
	v := s.at.reserve([]string{"top", "last", "edge"})
	s.at.line("%s = %s", v, pick(g, []string{"max(" + xs.name + ")", "min(" + xs.name + ")", xs.name + ".pop()", xs.name + "[0]", xs.name + "[-1]"}))
	return v
}

func errDictMutation(s *failure) string {
	g := s.f.g
	d := s.in(kDict, func(v any) bool { return len(v.(dictVal)) > 0 }, func() any {
		d := g.dictValue()
		if len(d) == 0 {
			d = dictVal{{pick(g, vocabulary), g.between(0, 9)}}
		}
		return d
	})
	dv := d.val.(dictVal)
	t := dv[g.intn(len(dv))].v - 1
	k := s.at.reserve([]string{"k", "key", "name"})
	s.at.line("for %s in %s:", k, d.name)
	s.at.in()
	s.at.line("if %s[%s] > %d:", d.name, k, t)
	s.at.in()
	s.at.line("del %s[%s]", d.name, k)
	s.at.out()
	s.at.out()
	s.at.tag("error-runtime", "for", "if")
	return ""
}

func errNoneValue(s *failure) string {
	g := s.f.g
	d := s.in(kDict, anyVal, func() any { return g.dictValue() })
	dv := d.val.(dictVal)
	key := s.in(kStr, func(v any) bool { return !hasKey(dv, v.(string)) }, func() any { return missingKey(g, dv) })
	v := s.at.reserve([]string{"current", "count", "old"})
	s.at.line("%s = %s.get(%s)", v, d.name, key.name)
	s.at.line("%s[%s] = %s + 1", d.name, key.name, v)
	s.at.tag("error-type")
	return v
}

func errRecursion(s *failure) string {
	g := s.f.g
	n := s.in(kInt, anyVal, func() any { return g.intValue(flSmall) })
	h := s.f.recHelper([]string{"walk", "dig", "unwind"}, "n")
	h.line("if n == %d:", -g.between(1, 3)-10000)
	h.in()
	h.line("return 0")
	h.out()
	h.line("return %s(n - 1) + 1", h.name)
	s.f.p.define(h)
	s.f.tag("recursion", "error-recursion")
	v := s.at.reserve([]string{"depth", "levels"})
	s.at.line("%s = %s(abs(%s))", v, h.name, n.name)
	return v
}

func nonEmptyList(g *Generator) func() any {
	return func() any {
		xs := g.intList(flAny)
		if len(xs) == 0 {
			xs = []int{g.between(0, 9)}
		}
		return xs
	}
}

func nonEmpty(v any) bool { return len(v.([]int)) > 0 }

func nevForgot(s *failure) string {
	g := s.f.g
	xs := s.in(kIntList, nonEmpty, nonEmptyList(g))
	i, total := s.at.reserve(indexNames), s.at.reserve([]string{"total", "acc"})
	s.at.line("%s = 0", i)
	s.at.line("%s = 0", total)
	s.at.line("while %s < len(%s):", i, xs.name)
	s.at.in()
	s.at.line("%s += %s[%s]", total, xs.name, i)
	s.at.out()
	s.at.tag("while")
	return total
}

func nevCondIncrement(s *failure) string {
	g := s.f.g
	xs := s.in(kIntList, nonEmpty, nonEmptyList(g))
	lst := intList(xs.val)
	t := lst[g.intn(len(lst))]
	i := s.at.reserve(indexNames)
	s.at.line("%s = 0", i)
	s.at.line("while %s < len(%s):", i, xs.name)
	s.at.in()
	s.at.line("if %s[%s] > %d:", xs.name, i, t)
	s.at.in()
	s.at.line("%s += 1", i)
	s.at.out()
	s.at.out()
	s.at.tag("while", "if")
	return i
}

func nevContinue(s *failure) string {
	g := s.f.g
	xs := s.in(kIntList, nonEmpty, nonEmptyList(g))
	lst := intList(xs.val)
	m := g.between(2, 4)
	e := lst[g.intn(len(lst))]
	r := ((e % m) + m) % m
	i, total := s.at.reserve(indexNames), s.at.reserve([]string{"total", "acc"})
	s.at.line("%s = %s = 0", i, total)
	s.at.line("while %s < len(%s):", i, xs.name)
	s.at.in()
	s.at.line("if %s[%s] %% %d == %d:", xs.name, i, m, r)
	s.at.in()
	s.at.line("continue")
	s.at.out()
	s.at.line("%s += %s[%s]", total, xs.name, i)
	s.at.line("%s += 1", i)
	s.at.out()
	s.at.tag("while", "continue", "if")
	return total
}

func nevParity(s *failure) string {
	g := s.f.g
	n := s.in(kInt, anyVal, func() any { return g.intValue(flAny) })
	goal := n.val.(int) + 2*g.between(0, 5) + 1
	if g.chance(0.3) {
		goal = n.val.(int) - 2*g.between(1, 3)
	}
	cur := s.at.reserve([]string{"cur", "pos", "x"})
	s.at.line("%s = %s", cur, n.name)
	s.at.line("while %s != %d:", cur, goal)
	s.at.in()
	s.at.line("%s += 2", cur)
	s.at.out()
	s.at.tag("while")
	return cur
}

func nevModCycle(s *failure) string {
	g := s.f.g
	n := s.in(kInt, anyVal, func() any { return g.intValue(flAny) })
	st := s.at.reserve([]string{"state", "cur", "phase"})
	mul := pick(g, []int{2, 3, 4, 5})
	s.at.line("%s = %s %% 6 + 1", st, n.name)
	s.at.line("while True:")
	s.at.in()
	s.at.line("%s = %s * %d %% 7", st, st, mul)
	s.at.line("if %s == 0:", st)
	s.at.in()
	s.at.line("break")
	s.at.out()
	s.at.out()
	s.at.tag("while", "while-true", "break")
	return st
}

func nevSquares(s *failure) string {
	g := s.f.g
	n := s.in(kInt, anyVal, func() any { return g.intValue(flAny) })
	x := s.at.reserve([]string{"x", "digit", "last"})
	s.at.line("%s = %s %% 10", x, n.name)
	s.at.line("while True:")
	s.at.in()
	s.at.line("%s = %s * %s %% 10", x, x, x)
	s.at.line("if %s in (%s):", x, pick(g, []string{"2, 3", "7, 8", "2, 8", "3, 7"}))
	s.at.in()
	s.at.line("break")
	s.at.out()
	s.at.out()
	s.at.tag("while", "while-true", "break")
	return x
}

func nevReplace(s *failure) string {
	g := s.f.g
	const marks = "0123456789-,:;| "
	str := s.in(kStr, func(v any) bool { return strings.ContainsAny(v.(string), marks) }, func() any {
		return g.strValue(flCSV) + "-" + itoa(g.intn(10))
	})
	text := str.val.(string)
	// The mark is not a letter, so upper() leaves it as it is and the loop never ends.
	c := s.in(kChar, func(v any) bool { return strings.Contains(marks, v.(string)) && strings.Contains(text, v.(string)) }, func() any {
		var cs []string
		for _, r := range text {
			if strings.ContainsRune(marks, r) {
				cs = append(cs, string(r))
			}
		}
		return pick(g, cs)
	})
	t := s.at.reserve([]string{"loud", "shouted", "upper_text"})
	s.at.line("%s = %s", t, str.name)
	s.at.line("while %s in %s:", c.name, t)
	s.at.in()
	s.at.line("%s = %s.replace(%s, %s.upper())", t, t, c.name, c.name)
	s.at.out()
	s.at.tag("while")
	return t
}

func nevWait(s *failure) string {
	g := s.f.g
	k := g.between(3, 6)
	n := s.in(kInt, anyVal, func() any { return g.intValue(flAny) })
	r := ((n.val.(int) % k) + k) % k
	goal := (r + g.between(1, k-1)) % k
	v := s.at.reserve([]string{"v", "cur", "probe"})
	s.at.line("%s = %s", v, n.name)
	s.at.line("while %s %% %d != %d:", v, k, goal)
	s.at.in()
	s.at.line("%s += %d", v, k)
	s.at.out()
	s.at.tag("while")
	return v
}

func nevOddStep(s *failure) string {
	g := s.f.g
	n := s.in(kInt, func(v any) bool { return v.(int)%2 != 0 }, func() any { return 2*g.between(0, 10) + 1 })
	k := s.at.reserve([]string{"k", "left", "rest"})
	s.at.line("%s = %s", k, n.name)
	s.at.line("while %s != 0:", k)
	s.at.in()
	s.at.line("%s -= 2", k)
	s.at.out()
	s.at.tag("while")
	return k
}
