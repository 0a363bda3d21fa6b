package synth

// Control-flow templates whose point is the shape of the flow rather than a data
// operation: while True with break and continue, nested loops with an inner break,
// several accumulators behind if/elif/else, a scan with a compound while condition,
// nested comprehensions and chained conditional expressions.

func init() {
	register(
		block{[]string{"scan", "walk_items", "consume"}, kIntList, 3, ctrlWhileTrue},
		block{[]string{"table_of", "make_grid", "build_rows"}, kInt, 2, ctrlGrid},
		block{[]string{"tally_kinds", "classify_all", "sort_into"}, kIntList, 4, ctrlMultiAcc},
		block{[]string{"words_with", "count_words_having", "scan_words"}, kStrList, 3, ctrlNestedBreak},
		block{[]string{"sign_of", "direction", "polarity"}, kInt, 2, ctrlTernary},
		block{[]string{"leading_digits", "take_prefix", "read_head"}, kStr, 3, ctrlScanPrefix},
		block{[]string{"first_gap", "find_gap", "first_drop"}, kIntList, 2, ctrlWhileElseScan},
	)
}

func ctrlWhileTrue(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	i := f.reserve(indexNames)
	out := f.result(kInt, []string{"total", "acc", "kept_sum", "tally"})
	f.line("%s = 0", i)
	f.line("%s = 0", out.name)
	f.line("while True:")
	f.in()
	f.line("if %s >= len(%s):", i, xs.name)
	f.in()
	f.line("break")
	f.out()
	f.line("if %s:", f.intCond(xs.name+"["+i+"]", xs))
	f.in()
	f.line("%s += 1", i)
	f.line("continue")
	f.out()
	f.line("%s += %s[%s]", out.name, xs.name, i)
	f.line("%s += 1", i)
	f.out()
	f.tag("loop", "while", "while-true", "break", "continue", "if")
	return out
}

func ctrlGrid(f *fn) *variable {
	n := f.use(kInt, flSmall)
	g := f.g
	i, j := f.reserve([]string{"i", "row"}), f.reserve([]string{"j", "col"})
	h := g.between(2, 4)
	if g.chance(0.5) {
		out := f.result(kOther, []string{"grid", "table", "rows", "matrix"})
		f.line("%s = [[(%s * %s + %s) %% %d for %s in range(%d)] for %s in range(min(abs(%s), %d) + 1)]", out.name, i, j, n.name, g.between(5, 10), j, g.between(2, 4), i, n.name, h)
		f.tag("comprehension", "nested-comprehension", "range")
		return out
	}
	out := f.result(kInt, []string{"cells", "total", "area_sum"})
	f.line("%s = 0", out.name)
	f.line("for %s in range(%d):", i, h)
	f.in()
	f.line("for %s in range(%s + 1):", j, i)
	f.in()
	f.line("if (%s + %s) %% %d == %s %% %d:", i, j, g.between(2, 3), n.name, 2)
	f.in()
	f.line("%s += %s * %s", out.name, i, j)
	f.out()
	f.out()
	f.out()
	f.tag("loop", "for", "nested-loop", "if", "range")
	return out
}

func ctrlMultiAcc(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	a, b, c := f.reserve([]string{"small", "neg", "low"}), f.reserve([]string{"big", "pos", "high"}), f.reserve([]string{"other", "zero", "mid"})
	x := f.reserve(intElemNames)
	out := f.result(kOther, []string{"counts", "summary", "profile", "shape"})
	f.line("%s = %s = %s = 0", a, b, c)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	t := g.threshold(xs)
	f.line("if %s < %d:", x, t)
	f.in()
	f.line("%s += 1", a)
	f.out()
	f.line("elif %s > %d:", x, t+g.between(0, 5))
	f.in()
	f.line("%s += %s", b, x)
	f.out()
	f.line("else:")
	f.in()
	f.line("%s -= 1", c)
	f.out()
	f.maybePrint(x, a, b, c)
	f.out()
	if g.chance(0.5) {
		f.line("%s = [%s, %s, %s]", out.name, a, b, c)
	} else {
		f.line("%s = {'%s': %s, '%s': %s, '%s': %s}", out.name, a, a, b, b, c, c)
		f.tag("dict")
	}
	f.tag("loop", "for", "if", "elif")
	return out
}

func ctrlNestedBreak(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	w, c := f.reserve(strElemNames), f.reserve(charElemNames)
	out := f.result(kInt, []string{"count", "hits", "flagged"})
	f.line("%s = 0", out.name)
	f.line("for %s in %s:", w, ws.name)
	f.in()
	f.line("for %s in %s:", c, w)
	f.in()
	f.line("if %s:", f.charCond(c, ws))
	f.in()
	f.line("%s += 1", out.name)
	f.line("break")
	f.out()
	f.out()
	f.out()
	f.tag("loop", "for", "nested-loop", "break", "if")
	return out
}

func ctrlTernary(f *fn) *variable {
	n := f.use(kInt, flAny)
	g := f.g
	t := g.threshold(n)
	out := f.result(kInt, []string{"sign", "direction", "step_dir", "polarity"})
	f.line("%s = %d if %s > %d else (%d if %s < %d else 0)", out.name, g.between(1, 3), n.name, t, -g.between(1, 3), n.name, t)
	f.tag("ternary")
	return out
}

func ctrlScanPrefix(f *fn) *variable {
	s := f.use(kStr, flMixed)
	i := f.reserve(indexNames)
	out := f.result(kStr, []string{"head", "lead", "prefix_part", "front"})
	f.line("%s = 0", i)
	f.line("while %s < len(%s) and %s:", i, s.name, f.charCond(s.name+"["+i+"]", s))
	f.in()
	f.line("%s += 1", i)
	f.out()
	f.line("%s = %s[:%s]", out.name, s.name, i)
	f.tag("loop", "while", "slicing")
	return out
}

func ctrlWhileElseScan(f *fn) *variable {
	xs := f.use(kIntList, flSorted)
	i := f.reserve(indexNames)
	out := f.result(kInt, []string{"gap_at", "drop_at", "break_at"})
	f.line("%s = 1", i)
	f.line("while %s < len(%s):", i, xs.name)
	f.in()
	f.line("if %s[%s] - %s[%s - 1] > %d:", xs.name, i, xs.name, i, f.g.between(1, 4))
	f.in()
	f.line("%s = %s", out.name, i)
	f.line("break")
	f.out()
	f.line("%s += 1", i)
	f.out()
	f.line("else:")
	f.in()
	f.line("%s = -1", out.name)
	f.out()
	f.tag("loop", "while", "while-else", "break", "if")
	return out
}
