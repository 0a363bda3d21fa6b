package synth

// Integer templates: digit loops, gcd, bounded sequences, primality, base conversion,
// factorials, classification with if/elif/else, clamping, while/else. Every loop is
// bounded by a constant (min(...), % ...), whatever the size of the input.

func init() {
	register(
		block{[]string{"digit_total", "sum_digits", "digit_weight"}, kInt, 4, intDigitSum},
		block{[]string{"common_divisor", "gcd_of", "greatest_divisor"}, kInt, 2, intGCD},
		block{[]string{"collatz_steps", "hailstone", "steps_to_one"}, kInt, 2, intCollatz},
		block{[]string{"range_total", "accumulate_range", "sum_upto"}, kInt, 4, intRangeSum},
		block{[]string{"is_prime", "prime_check", "no_divisors"}, kInt, 2, intPrime},
		block{[]string{"to_binary", "bits_of", "base_two"}, kInt, 2, intBinary},
		block{[]string{"factorial", "product_upto", "fact"}, kInt, 2, intFactorial},
		block{[]string{"fib_number", "fibonacci", "nth_fib"}, kInt, 2, intFib},
		block{[]string{"reverse_number", "mirror_digits", "flip_digits"}, kInt, 2, intReverse},
		block{[]string{"clamp", "bound_value", "limit_to"}, kInt, 3, intClamp},
		block{[]string{"classify", "bucket_of", "grade"}, kInt, 5, intClassify},
		block{[]string{"combine", "mix_numbers", "blend"}, kInt, 4, intArith},
		block{[]string{"digits_of", "split_digits", "explode_number"}, kInt, 2, intDigitsList},
		block{[]string{"wind_down", "descend", "shrink"}, kInt, 3, intWhileElse},
		block{[]string{"count_down", "countdown", "trail"}, kInt, 3, intCountdown},
		block{[]string{"list_size", "measure", "how_many"}, kIntList, 2, intFromList},
	)
}

func intDigitSum(f *fn) *variable {
	n := f.use(kInt, flAny)
	rest := f.reserve([]string{"rest", "m", "remaining", "tmp"})
	out := f.result(kInt, []string{"digit_sum", "total", "acc", "weight"})
	f.line("%s = abs(%s)", rest, n.name)
	f.line("%s = 0", out.name)
	f.line("while %s > 0:", rest)
	f.in()
	if f.g.chance(0.5) {
		f.line("%s += %s %% 10", out.name, rest)
		f.line("%s //= 10", rest)
	} else {
		d := f.reserve([]string{"d", "digit", "last"})
		f.line("%s, %s = divmod(%s, 10)", rest, d, rest)
		f.line("%s += %s", out.name, f.intMap(d))
		f.tag("divmod", "unpacking")
	}
	f.maybePrint(rest, out.name)
	f.out()
	f.tag("loop", "while", "int")
	return out
}

func intGCD(f *fn) *variable {
	a := f.use(kInt, flPos)
	b := f.useExcept(kInt, flPos, a)
	x, y := f.reserve([]string{"a", "p", "big"}), f.reserve([]string{"b", "q", "small"})
	out := f.result(kInt, []string{"g", "divisor", "common", "gcd_val"})
	f.line("%s, %s = abs(%s), abs(%s)", x, y, a.name, b.name)
	f.line("while %s:", y)
	f.in()
	f.line("%s, %s = %s, %s %% %s", x, y, y, x, y)
	f.out()
	f.line("%s = %s", out.name, x)
	f.tag("loop", "while", "unpacking", "int")
	return out
}

func intCollatz(f *fn) *variable {
	n := f.use(kInt, flPos)
	cur := f.reserve([]string{"cur", "val", "walker"})
	out := f.result(kInt, []string{"steps", "hops", "moves"})
	f.line("%s = abs(%s) %% 40 + 1", cur, n.name)
	f.line("%s = 0", out.name)
	f.line("while %s != 1 and %s < %d:", cur, out.name, f.g.between(8, 20))
	f.in()
	if f.g.chance(0.5) {
		f.line("%s = %s // 2 if %s %% 2 == 0 else 3 * %s + 1", cur, cur, cur, cur)
	} else {
		f.line("if %s %% 2 == 0:", cur)
		f.in()
		f.line("%s //= 2", cur)
		f.out()
		f.line("else:")
		f.in()
		f.line("%s = 3 * %s + 1", cur, cur)
		f.out()
		f.tag("if")
	}
	f.line("%s += 1", out.name)
	f.out()
	f.tag("loop", "while", "int")
	return out
}

func intRangeSum(f *fn) *variable {
	n := f.use(kInt, flSmall)
	g := f.g
	i := f.reserve(indexNames)
	out := f.result(kInt, []string{"total", "acc", "running", "sum_so_far"})
	f.line("%s = 0", out.name)
	switch g.intn(3) {
	case 0:
		f.line("for %s in range(min(%s, %d)):", i, n.name, g.between(6, 10))
	case 1:
		f.line("for %s in range(%d, min(%s, %d) + 1, %d):", i, g.between(0, 2), n.name, g.between(8, 12), g.between(1, 3))
	default:
		f.line("for %s in range(min(abs(%s), %d), 0, -1):", i, n.name, g.between(5, 9))
	}
	f.in()
	if g.chance(0.5) {
		f.line("if %s:", f.intCond(i, nil))
		f.in()
		f.line("%s += %s", out.name, i)
		f.out()
		f.tag("if")
	} else {
		f.line("%s += %s", out.name, f.mapped(kInt, i))
	}
	f.maybePrint(i, out.name)
	f.out()
	f.tag("loop", "for", "range", "int")
	return out
}

func intPrime(f *fn) *variable {
	n := f.use(kInt, flPos)
	d := f.reserve([]string{"d", "div", "trial"})
	out := f.result(kBool, []string{"prime", "is_prime", "no_factor", "ok"})
	f.line("%s = %s > 1", out.name, n.name)
	f.line("%s = 2", d)
	f.line("while %s * %s <= %s and %s < 20:", d, d, n.name, d)
	f.in()
	f.line("if %s %% %s == 0:", n.name, d)
	f.in()
	f.line("%s = False", out.name)
	f.line("break")
	f.out()
	f.line("%s += 1", d)
	f.out()
	f.tag("loop", "while", "break", "if", "int")
	return out
}

func intBinary(f *fn) *variable {
	n := f.use(kInt, flAny)
	out := f.result(kStr, []string{"bits", "binary", "encoded", "digits_str"})
	if f.g.chance(0.4) {
		f.line("%s = bin(abs(%s))[2:].zfill(%d)", out.name, n.name, f.g.between(4, 8))
		f.tag("zfill", "slicing")
		return out
	}
	m := f.reserve([]string{"m", "rest", "left"})
	base := f.g.between(2, 3)
	f.line("%s = abs(%s)", m, n.name)
	f.line("%s = ''", out.name)
	f.line("while %s:", m)
	f.in()
	f.line("%s = str(%s %% %d) + %s", out.name, m, base, out.name)
	f.line("%s //= %d", m, base)
	f.out()
	f.line("%s = %s or '0'", out.name, out.name)
	f.tag("loop", "while", "int")
	return out
}

func intFactorial(f *fn) *variable {
	n := f.use(kInt, flSmall)
	i := f.reserve(indexNames)
	out := f.result(kInt, []string{"fact", "product", "prod"})
	f.line("%s = 1", out.name)
	f.line("for %s in range(2, min(abs(%s), %d) + 1):", i, n.name, f.g.between(5, 8))
	f.in()
	f.line("%s *= %s", out.name, i)
	f.out()
	f.tag("loop", "for", "range", "int")
	return out
}

func intFib(f *fn) *variable {
	n := f.use(kInt, flSmall)
	a, b := f.reserve([]string{"a", "prev", "older"}), f.reserve([]string{"b", "curr", "newer"})
	out := f.result(kInt, []string{"fib", "term", "nth"})
	f.line("%s, %s = 0, 1", a, b)
	f.line("for _ in range(min(abs(%s), %d)):", n.name, f.g.between(8, 15))
	f.in()
	f.line("%s, %s = %s, %s + %s", a, b, b, a, b)
	f.out()
	f.line("%s = %s", out.name, a)
	f.tag("loop", "for", "range", "unpacking", "int")
	return out
}

func intReverse(f *fn) *variable {
	n := f.use(kInt, flAny)
	m := f.reserve([]string{"m", "rest", "left"})
	out := f.result(kInt, []string{"rev", "mirrored", "flipped"})
	f.line("%s = abs(%s)", m, n.name)
	f.line("%s = 0", out.name)
	f.line("while %s > 0:", m)
	f.in()
	f.line("%s = %s * 10 + %s %% 10", out.name, out.name, m)
	f.line("%s //= 10", m)
	f.out()
	f.tag("loop", "while", "int")
	return out
}

func intClamp(f *fn) *variable {
	n := f.use(kInt, flAny)
	g := f.g
	lo := g.threshold(n) - g.between(0, 3)
	hi := lo + g.between(2, 10)
	out := f.result(kInt, []string{"clamped", "bounded", "capped", "limited"})
	if g.chance(0.5) {
		f.line("%s = max(%d, min(%s, %d))", out.name, lo, n.name, hi)
		f.tag("builtins")
	} else {
		f.line("%s = %s", out.name, n.name)
		f.line("if %s < %d:", out.name, lo)
		f.in()
		f.line("%s = %d", out.name, lo)
		f.out()
		f.line("elif %s > %d:", out.name, hi)
		f.in()
		f.line("%s = %d", out.name, hi)
		f.out()
		f.tag("if", "elif")
	}
	return out
}

var labelSets = [][]string{
	{"low", "mid", "high"},
	{"small", "medium", "large"},
	{"cold", "warm", "hot"},
	{"few", "some", "many"},
	{"neg", "zero", "pos"},
	{"short", "fair", "long"},
	{"E", "B", "A"},
}

func intClassify(f *fn) *variable {
	n := f.use(kInt, flAny)
	g := f.g
	labels := pick(g, labelSets)
	t := g.threshold(n)
	out := f.result(kStr, []string{"label", "kind", "category", "verdict", "band"})
	f.line("if %s < %d:", n.name, t)
	f.in()
	f.line("%s = %s", out.name, g.str(labels[0]))
	f.out()
	if g.chance(0.7) {
		f.line("elif %s < %d:", n.name, t+g.between(1, 6))
		f.in()
		f.line("%s = %s", out.name, g.str(labels[1]))
		f.out()
		f.tag("elif")
	}
	f.line("else:")
	f.in()
	f.line("%s = %s", out.name, g.str(labels[2]))
	f.out()
	f.tag("if")
	return out
}

func intArith(f *fn) *variable {
	a := f.use(kInt, flAny)
	b := f.useExcept(kInt, flSmall, a)
	g := f.g
	out := f.result(kInt, []string{"mixed", "value", "combined", "outcome", "net"})
	switch g.intn(6) {
	case 0:
		f.line("%s = %s // %s if %s else %s", out.name, a.name, b.name, b.name, a.name)
	case 1:
		f.line("%s = %s %% %s if %s != 0 else -1", out.name, a.name, b.name, b.name)
	case 2:
		f.line("%s = abs(%s - %s) * %d", out.name, a.name, b.name, g.between(2, 5))
	case 3:
		f.line("%s = (%s + %s) %% %d", out.name, a.name, b.name, g.between(5, 13))
	case 4:
		f.line("%s = pow(%s, 2) - %s", out.name, b.name, a.name)
	default:
		f.line("%s = max(%s, %s) - min(%s, %s)", out.name, a.name, b.name, a.name, b.name)
		f.tag("builtins")
	}
	f.tag("int")
	return out
}

func intDigitsList(f *fn) *variable {
	n := f.use(kInt, flAny)
	out := f.result(kIntList, []string{"digits", "figures", "parts"})
	c := f.reserve(charElemNames)
	f.line("%s = [int(%s) for %s in str(abs(%s))]", out.name, c, c, n.name)
	f.tag("comprehension", "int")
	return out
}

func intWhileElse(f *fn) *variable {
	n := f.use(kInt, flAny)
	g := f.g
	out := f.result(kInt, []string{"left", "remainder", "residual", "final_val"})
	k := g.between(0, 10)
	f.line("%s = abs(%s) %% %d", out.name, n.name, g.between(20, 50))
	f.line("while %s > %d:", out.name, k)
	f.in()
	f.line("%s -= %d", out.name, g.between(2, 7))
	f.line("if %s %% %d == 0:", out.name, g.between(4, 9))
	f.in()
	f.line("break")
	f.out()
	f.out()
	f.line("else:")
	f.in()
	f.line("%s = -%s", out.name, out.name)
	f.out()
	f.tag("loop", "while", "while-else", "break", "if", "int")
	return out
}

func intCountdown(f *fn) *variable {
	n := f.use(kInt, flSmall)
	left := f.reserve([]string{"left", "tick", "remaining"})
	out := f.result(kIntList, []string{"trail", "countdown", "ticks", "seq"})
	f.line("%s = min(abs(%s), %d)", left, n.name, f.g.between(5, 9))
	f.line("%s = []", out.name)
	f.line("while %s > 0:", left)
	f.in()
	f.line("%s.append(%s)", out.name, left)
	if f.g.chance(0.4) {
		f.line("if %s %% %d == 0:", left, f.g.between(3, 4))
		f.in()
		f.line("%s -= 2", left)
		f.line("continue")
		f.out()
		f.tag("continue", "if")
	}
	f.line("%s -= 1", left)
	f.maybePrint(left)
	f.out()
	f.tag("loop", "while", "append")
	return out
}

func intFromList(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kInt, []string{"size", "count", "n_items", "length"})
	switch f.g.intn(3) {
	case 0:
		f.line("%s = len(%s)", out.name, xs.name)
	case 1:
		f.line("%s = len(%s) * %d + sum(%s[:%d])", out.name, xs.name, f.g.between(2, 10), xs.name, f.g.between(1, 3))
	default:
		x := f.reserve(intElemNames)
		f.line("%s = sum(1 for %s in %s if %s %% 2)", out.name, x, xs.name, x)
		f.tag("genexpr")
	}
	f.tag("builtins")
	return out
}
