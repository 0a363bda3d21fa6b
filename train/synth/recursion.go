package synth

import "fmt"

// Recursive helpers. Each is called from f with arguments bounded by slicing, abs, %
// or min, so recursion depth stays small (typically under a dozen frames).

type recTemplate func(f *fn) *variable

var recTemplates = []recTemplate{recDigits, recList, recReverse, recPower, recGCD, recFibMemo, recCountDown, recPalindrome, recMutual, recMoves, recCountChar, recBisect}

// recursionBlock adds a recursive helper and a call of it in f.
func (f *fn) recursionBlock() {
	f.produce(pick(f.g, recTemplates)(f))
	f.tag("recursion", "helper")
}

// recHelper starts a helper named from names, with the given parameter names.
func (f *fn) recHelper(names []string, params ...string) *fn {
	h := newFn(f.p, f.p.globalName(names...), nil)
	h.depth = f.depth + 1
	f.p.helpers++
	for _, p := range params {
		f.p.useLocal(p)
		v := &variable{name: p, k: kNone, param: true}
		h.params = append(h.params, v)
		h.vars = append(h.vars, v)
	}
	return h
}

// call binds the result of expr in f.
func (f *fn) call(k kind, pool []string, expr string) *variable {
	v := f.result(k, pool)
	f.line("%s = %s", v.name, expr)
	return v
}

func recDigits(f *fn) *variable {
	n := f.use(kInt, flAny)
	p := pick(f.g, []string{"n", "num", "value"})
	h := f.recHelper([]string{"digit_sum", "add_digits", "digit_root"}, p)
	if f.g.chance(0.5) {
		h.line("if %s < 10:", p)
		h.in()
		h.line("return %s", p)
		h.out()
		h.line("return %s %% 10 + %s(%s // 10)", p, h.name, p)
	} else {
		d := pick(f.g, []string{"d", "ch", "c"})
		h.line("if %s < 10:", p)
		h.in()
		h.line("return %s", p)
		h.out()
		h.line("return %s(sum(int(%s) for %s in str(%s)))", h.name, d, d, p)
	}
	f.p.define(h)
	return f.call(kInt, []string{"digits_total", "root", "reduced"}, fmt.Sprintf("%s(abs(%s))", h.name, n.name))
}

func recList(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	p := pick(f.g, []string{"xs", "items", "seq", "nums"})
	g := f.g
	switch g.intn(3) {
	case 0:
		h := f.recHelper([]string{"total_of", "rsum", "add_all"}, p)
		h.line("if not %s:", p)
		h.in()
		h.line("return 0")
		h.out()
		h.line("return %s[0] + %s(%s[1:])", p, h.name, p)
		f.p.define(h)
		return f.call(kInt, []string{"total", "summed"}, fmt.Sprintf("%s(%s)", h.name, xs.name))
	case 1:
		h := f.recHelper([]string{"count_if", "count_matching", "tally_rec"}, p)
		h.line("if not %s:", p)
		h.in()
		h.line("return 0")
		h.out()
		h.line("return (1 if %s else 0) + %s(%s[1:])", h.cond(kInt, p+"[0]", xs), h.name, p)
		f.p.define(h)
		return f.call(kInt, []string{"matching", "hits"}, fmt.Sprintf("%s(%s)", h.name, xs.name))
	}
	h := f.recHelper([]string{"largest", "rmax", "peak_of"}, p)
	rest := pick(g, []string{"rest", "best_rest", "tail_max"})
	h.line("if len(%s) == 1:", p)
	h.in()
	h.line("return %s[0]", p)
	h.out()
	h.line("%s = %s(%s[1:])", rest, h.name, p)
	h.line("return %s[0] if %s[0] > %s else %s", p, p, rest, rest)
	f.p.define(h)
	return f.call(kInt, []string{"top", "peak"}, fmt.Sprintf("%s(%s) if %s else 0", h.name, xs.name, xs.name))
}

func recReverse(f *fn) *variable {
	s := f.use(kStr, flWord)
	p := pick(f.g, []string{"s", "text", "word"})
	h := f.recHelper([]string{"reverse", "backwards", "flip_text"}, p)
	h.line("if len(%s) <= 1:", p)
	h.in()
	h.line("return %s", p)
	h.out()
	if f.g.chance(0.5) {
		h.line("return %s(%s[1:]) + %s[0]", h.name, p, p)
	} else {
		h.line("return %s[-1] + %s(%s[:-1])", p, h.name, p)
	}
	f.p.define(h)
	return f.call(kStr, []string{"flipped", "reversed_text"}, fmt.Sprintf("%s(%s[:%d])", h.name, s.name, f.g.between(8, 12)))
}

func recPower(f *fn) *variable {
	b := f.use(kInt, flSmall)
	e := f.useExcept(kInt, flSmall, b)
	base, exp := pick(f.g, []string{"base", "b", "x"}), pick(f.g, []string{"exp", "e", "k"})
	h := f.recHelper([]string{"power", "raise_to", "pow_rec"}, base, exp)
	h.line("if %s == 0:", exp)
	h.in()
	h.line("return 1")
	h.out()
	if f.g.chance(0.5) {
		half := pick(f.g, []string{"half", "root", "sq"})
		h.line("%s = %s(%s, %s // 2)", half, h.name, base, exp)
		h.line("if %s %% 2 == 0:", exp)
		h.in()
		h.line("return %s * %s", half, half)
		h.out()
		h.line("return %s * %s * %s", half, half, base)
	} else {
		h.line("return %s * %s(%s, %s - 1)", base, h.name, base, exp)
	}
	f.p.define(h)
	return f.call(kInt, []string{"powered", "raised"}, fmt.Sprintf("%s(%s %% 10, min(abs(%s), %d))", h.name, b.name, e.name, f.g.between(4, 7)))
}

func recGCD(f *fn) *variable {
	a := f.use(kInt, flPos)
	b := f.useExcept(kInt, flPos, a)
	x, y := pick(f.g, []string{"a", "x", "m"}), pick(f.g, []string{"b", "y", "n"})
	h := f.recHelper([]string{"gcd", "common_factor", "euclid"}, x, y)
	h.line("if %s == 0:", y)
	h.in()
	h.line("return %s", x)
	h.out()
	h.line("return %s(%s, %s %% %s)", h.name, y, x, y)
	f.p.define(h)
	return f.call(kInt, []string{"divisor", "g"}, fmt.Sprintf("%s(abs(%s), abs(%s))", h.name, a.name, b.name))
}

func recFibMemo(f *fn) *variable {
	n := f.use(kInt, flSmall)
	k, memo := pick(f.g, []string{"k", "n", "i"}), pick(f.g, []string{"memo", "cache", "known"})
	h := f.recHelper([]string{"fib", "fib_memo", "fibonacci_at"}, k, memo)
	h.line("if %s < 2:", k)
	h.in()
	h.line("return %s", k)
	h.out()
	h.line("if %s in %s:", k, memo)
	h.in()
	h.line("return %s[%s]", memo, k)
	h.out()
	h.line("%s[%s] = %s(%s - 1, %s) + %s(%s - 2, %s)", memo, k, h.name, k, memo, h.name, k, memo)
	h.line("return %s[%s]", memo, k)
	f.p.define(h)
	f.tag("dict")
	return f.call(kInt, []string{"fib_value", "term"}, fmt.Sprintf("%s(min(abs(%s), %d), {})", h.name, n.name, f.g.between(6, 12)))
}

func recCountDown(f *fn) *variable {
	n := f.use(kInt, flSmall)
	p := pick(f.g, []string{"n", "k", "left"})
	step := f.g.between(1, 3)
	h := f.recHelper([]string{"count_down", "steps_down", "descend"}, p)
	h.line("if %s <= 0:", p)
	h.in()
	h.line("return []")
	h.out()
	h.line("return [%s] + %s(%s - %d)", p, h.name, p, step)
	f.p.define(h)
	return f.call(kIntList, []string{"trail", "steps_list"}, fmt.Sprintf("%s(min(%s, %d))", h.name, n.name, f.g.between(5, 9)))
}

func recPalindrome(f *fn) *variable {
	s := f.use(kStr, flWord)
	p := pick(f.g, []string{"s", "text", "w"})
	h := f.recHelper([]string{"is_mirror", "palindromic", "symmetric"}, p)
	h.line("if len(%s) < 2:", p)
	h.in()
	h.line("return True")
	h.out()
	h.line("if %s[0] != %s[-1]:", p, p)
	h.in()
	h.line("return False")
	h.out()
	h.line("return %s(%s[1:-1])", h.name, p)
	f.p.define(h)
	return f.call(kBool, []string{"mirror", "pal"}, fmt.Sprintf("%s(%s.lower())", h.name, s.name))
}

func recMutual(f *fn) *variable {
	n := f.use(kInt, flSmall)
	even := f.recHelper([]string{"is_even", "even_rec"}, "n")
	odd := f.recHelper([]string{"is_odd", "odd_rec"}, "n")
	even.line("if n == 0:")
	even.in()
	even.line("return True")
	even.out()
	even.line("return %s(n - 1)", odd.name)
	odd.line("if n == 0:")
	odd.in()
	odd.line("return False")
	odd.out()
	odd.line("return %s(n - 1)", even.name)
	f.p.define(even)
	f.p.define(odd)
	f.tag("mutual-recursion")
	return f.call(kBool, []string{"parity", "even_flag"}, fmt.Sprintf("%s(min(abs(%s), %d))", pick(f.g, []string{even.name, odd.name}), n.name, f.g.between(5, 9)))
}

func recMoves(f *fn) *variable {
	n := f.use(kInt, flSmall)
	p := pick(f.g, []string{"n", "disks", "height"})
	h := f.recHelper([]string{"moves", "hanoi", "min_moves"}, p)
	h.line("if %s == 0:", p)
	h.in()
	h.line("return 0")
	h.out()
	h.line("return 2 * %s(%s - 1) + 1", h.name, p)
	f.p.define(h)
	return f.call(kInt, []string{"move_count", "moves_needed"}, fmt.Sprintf("%s(min(abs(%s), %d))", h.name, n.name, f.g.between(3, 5)))
}

func recCountChar(f *fn) *variable {
	s := f.use(kStr, flSentence)
	p, c := pick(f.g, []string{"s", "text", "rest"}), pick(f.g, []string{"ch", "target", "c"})
	h := f.recHelper([]string{"occurrences", "count_rec", "how_often"}, p, c)
	h.line("if not %s:", p)
	h.in()
	h.line("return 0")
	h.out()
	h.line("return (%s[0] == %s) + %s(%s[1:], %s)", p, c, h.name, p, c)
	f.p.define(h)
	return f.call(kInt, []string{"occ", "times"}, fmt.Sprintf("%s(%s[:%d], %s)", h.name, s.name, f.g.between(10, 16), f.g.str(f.g.charFor(s))))
}

func recBisect(f *fn) *variable {
	xs := f.use(kIntList, flSorted)
	arr, t, lo, hi := pick(f.g, []string{"arr", "xs", "ordered"}), pick(f.g, []string{"target", "want", "t"}), "lo", "hi"
	h := f.recHelper([]string{"bsearch", "find_sorted", "locate_rec"}, arr, t, lo, hi)
	h.line("if %s > %s:", lo, hi)
	h.in()
	h.line("return -1")
	h.out()
	h.line("mid = (%s + %s) // 2", lo, hi)
	h.line("if %s[mid] == %s:", arr, t)
	h.in()
	h.line("return mid")
	h.out()
	h.line("if %s[mid] < %s:", arr, t)
	h.in()
	h.line("return %s(%s, %s, mid + 1, %s)", h.name, arr, t, hi)
	h.out()
	h.line("return %s(%s, %s, %s, mid - 1)", h.name, arr, t, lo)
	f.p.define(h)
	ordered := f.reserve([]string{"ordered", "srt", "sorted_vals"})
	f.line("%s = sorted(%s)", ordered, xs.name)
	return f.call(kInt, []string{"where", "found_at"}, fmt.Sprintf("%s(%s, %d, 0, len(%s) - 1)", h.name, ordered, f.g.elemFor(xs), ordered))
}
