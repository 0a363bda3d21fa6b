package synth

// Explicit iterators: iter() and next() with a default, over lists and strings.

func init() {
	register(
		block{[]string{"first_and_rest", "lead_value", "head_then_rest"}, kIntList, 3, iterHeadRest},
		block{[]string{"first_letter_match", "next_match", "first_fit"}, kStr, 2, iterNextMatch},
	)
}

// iterHeadRest takes the first item with next(), then folds the rest of the iterator.
func iterHeadRest(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	it := f.reserve([]string{"it", "cursor_it", "stream", "feed"})
	out := f.result(kInt, []string{"best", "acc", "running", "folded"})
	x := f.reserve(intElemNames)
	f.line("%s = iter(%s)", it, xs.name)
	f.line("%s = next(%s, %d)", out.name, it, g.between(-1, 0))
	f.line("for %s in %s:", x, it)
	f.in()
	switch g.intn(3) {
	case 0:
		f.line("%s = max(%s, %s)", out.name, out.name, f.mapped(kInt, x))
	case 1:
		f.line("%s = %s - %s", out.name, out.name, x)
	default:
		f.line("if %s:", f.pred(kInt, x, xs))
		f.in()
		f.line("%s += %s", out.name, x)
		f.out()
		f.tag("if")
	}
	f.out()
	f.tag("loop", "for")
	return out
}

// iterNextMatch finds the first character that satisfies a condition, with a
// one-character default, so the result is a char.
func iterNextMatch(f *fn) *variable {
	s := f.use(kStr, flAny)
	g := f.g
	out := f.result(kChar, []string{"first_hit", "found_char", "lead_char"})
	c := f.reserve(charElemNames)
	f.line("%s = next((%s for %s in %s if %s), %s)", out.name, c, c, s.name, f.pred(kChar, c, s), g.str(pick(g, []string{"?", "-", "_", "."})))
	f.tag("genexpr")
	return out
}
