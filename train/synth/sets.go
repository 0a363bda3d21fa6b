package synth

// Set and tuple templates. Sets only ever hold small ints, whose iteration order does
// not depend on string hashing; sets of characters appear only inside sorted(...) or
// len(...), never bound to a variable.

func init() {
	register(
		block{[]string{"to_set", "distinct_values", "collect_unique"}, kIntList, 3, setFromList},
		block{[]string{"combine_sets", "set_algebra", "compare_groups"}, kIntList, 3, setOps},
		block{[]string{"residues", "remainders", "classes_mod"}, kIntList, 2, setComp},
		block{[]string{"find_repeats", "duplicates", "repeated"}, kIntList, 3, setDuplicates},
		block{[]string{"update_set", "adjust_set", "refresh_pool"}, kIntSet, 3, setMethods},
		block{[]string{"set_size", "count_distinct", "variety"}, kIntSet, 2, setMeasure},
		block{[]string{"split_number", "quotient_and_rest", "break_number"}, kInt, 3, tupleDivmod},
		block{[]string{"order_pair", "sorted_pair", "normalize_pair"}, kInt, 2, tupleSwap},
		block{[]string{"bounds", "extent", "min_and_max"}, kIntList, 3, tupleMinMax},
		block{[]string{"pair_scores", "zip_scores", "paired_total"}, kIntList, 2, tupleEnumZip},
		block{[]string{"profile", "fingerprint", "describe_text"}, kStr, 2, tupleBuild},
	)
}

func setFromList(f *fn) *variable {
	xs := f.use(kIntList, flSmall)
	out := f.result(kIntSet, setNames)
	if f.g.chance(0.6) {
		f.line("%s = set(%s)", out.name, xs.name)
	} else {
		x := f.reserve(intElemNames)
		f.line("%s = set()", out.name)
		f.line("for %s in %s:", x, xs.name)
		f.in()
		f.line("if %s:", f.pred(kInt, x, xs))
		f.in()
		f.line("%s.add(%s)", out.name, x)
		f.out()
		f.out()
		f.tag("loop", "for", "if")
	}
	f.tag("set")
	return out
}

func setOps(f *fn) *variable {
	xs := f.use(kIntList, flSmall)
	ys := f.useExcept(kIntList, flSmall, xs)
	out := f.result(kIntSet, []string{"common", "either", "only_left", "diff", "overlap"})
	switch f.g.intn(5) {
	case 0:
		f.line("%s = set(%s) & set(%s)", out.name, xs.name, ys.name)
	case 1:
		f.line("%s = set(%s) | set(%s)", out.name, xs.name, ys.name)
	case 2:
		f.line("%s = set(%s) - set(%s)", out.name, xs.name, ys.name)
	case 3:
		f.line("%s = set(%s) ^ set(%s)", out.name, xs.name, ys.name)
	default:
		f.line("%s = set(%s).intersection(%s).union({%d})", out.name, xs.name, ys.name, f.g.elemFor(xs))
	}
	f.tag("set", "set-ops")
	return out
}

func setComp(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntSet, []string{"residues", "classes", "remainders", "buckets_used"})
	x := f.reserve(intElemNames)
	f.line("%s = {%s %% %d for %s in %s}", out.name, x, f.g.between(3, 7), x, xs.name)
	f.tag("setcomp", "set")
	return out
}

func setDuplicates(f *fn) *variable {
	xs := f.use(kIntList, flSmall)
	seen := f.reserve(setNames)
	out := f.result(kIntList, []string{"dups", "repeats", "twice", "again"})
	x := f.reserve(intElemNames)
	f.line("%s = set()", seen)
	f.line("%s = []", out.name)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("if %s in %s:", x, seen)
	f.in()
	f.line("%s.append(%s)", out.name, x)
	f.out()
	f.line("%s.add(%s)", seen, x)
	f.out()
	f.tag("set", "loop", "for", "if")
	return out
}

func setMethods(f *fn) *variable {
	s := f.use(kIntSet, flAny)
	g := f.g
	out := f.result(kIntSet, []string{"pool", "updated", "current", "members"})
	f.line("%s = set(%s)", out.name, s.name)
	for n := g.between(2, 3); n > 0; n-- {
		switch g.intn(5) {
		case 0:
			f.line("%s.add(%d)", out.name, g.between(0, 15))
		case 1:
			f.line("%s.discard(%d)", out.name, g.elemFor(s))
		case 2:
			f.line("%s |= {%d, %d}", out.name, g.between(0, 15), g.between(0, 15))
		case 3:
			v := g.elemFor(s)
			f.line("if %d in %s:", v, out.name)
			f.in()
			f.line("%s.remove(%d)", out.name, v)
			f.line("%s.add(%d)", out.name, g.between(16, 20))
			f.out()
			f.tag("if")
		default:
			f.line("%s -= {%d}", out.name, g.elemFor(s))
		}
	}
	f.tag("set", "set-ops")
	return out
}

func setMeasure(f *fn) *variable {
	s := f.use(kIntSet, flAny)
	g := f.g
	out := f.result(kInt, []string{"size", "spread", "span_of", "count"})
	switch g.intn(3) {
	case 0:
		f.line("%s = len(%s) + (%d in %s)", out.name, s.name, g.elemFor(s), s.name)
	case 1:
		f.line("%s = max(%s, default=0) - min(%s, default=0)", out.name, s.name, s.name)
	default:
		f.line("%s = len(%s & set(range(%d)))", out.name, s.name, g.between(3, 10))
		f.tag("range")
	}
	f.tag("set")
	return out
}

func tupleDivmod(f *fn) *variable {
	n := f.use(kInt, flAny)
	g := f.g
	q, r := f.reserve([]string{"q", "whole", "tens", "quot"}), f.reserve([]string{"r", "rem", "ones", "left_over"})
	f.line("%s, %s = divmod(%s, %d)", q, r, n.name, g.between(2, 12))
	out := f.result(kInt, []string{"mixed", "combined", "folded", "digest"})
	switch g.intn(3) {
	case 0:
		f.line("%s = %s * %d + %s", out.name, r, g.between(2, 10), q)
	case 1:
		f.line("%s = abs(%s - %s)", out.name, q, r)
	default:
		f.line("%s = %s if %s > %s else -%s", out.name, q, q, r, r)
	}
	f.tag("divmod", "unpacking", "tuple")
	return out
}

func tupleSwap(f *fn) *variable {
	a := f.use(kInt, flAny)
	b := f.useExcept(kInt, flAny, a)
	lo, hi := f.reserve([]string{"lo", "small", "first"}), f.reserve([]string{"hi", "big", "second"})
	out := f.result(kInt, []string{"gap", "span", "distance", "width"})
	f.line("%s, %s = %s, %s", lo, hi, a.name, b.name)
	f.line("if %s > %s:", lo, hi)
	f.in()
	f.line("%s, %s = %s, %s", lo, hi, hi, lo)
	f.out()
	f.line("%s = %s - %s", out.name, hi, lo)
	f.tag("unpacking", "tuple", "if", "swap")
	return out
}

func tupleMinMax(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	lo, hi := f.reserve([]string{"lo", "smallest", "floor_val"}), f.reserve([]string{"hi", "largest", "ceil_val"})
	out := f.result(kOther, []string{"bounds", "extent", "limits_found"})
	f.line("%s, %s = min(%s, default=0), max(%s, default=0)", lo, hi, xs.name, xs.name)
	if f.g.chance(0.5) {
		f.line("%s = (%s, %s, %s - %s)", out.name, lo, hi, hi, lo)
	} else {
		f.line("%s = (%s, %s)", out.name, hi, lo)
	}
	f.tag("unpacking", "tuple", "builtins")
	return out
}

func tupleEnumZip(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	ys := f.useExcept(kIntList, flAny, xs)
	i, a, b := f.reserve(indexNames), f.reserve([]string{"a", "left"}), f.reserve([]string{"b", "right"})
	out := f.result(kInt, []string{"total", "score", "dot"})
	f.line("%s = 0", out.name)
	f.line("for %s, (%s, %s) in enumerate(zip(%s, %s)):", i, a, b, xs.name, ys.name)
	f.in()
	switch f.g.intn(3) {
	case 0:
		f.line("%s += %s * %s", out.name, a, b)
	case 1:
		f.line("%s += (%s - %s) * %s", out.name, a, b, i)
	default:
		f.line("if %s > %s:", a, b)
		f.in()
		f.line("%s += %s", out.name, i)
		f.out()
		f.tag("if")
	}
	f.maybePrint(i, a, b)
	f.out()
	f.tag("loop", "for", "enumerate", "zip", "unpacking", "tuple")
	return out
}

func tupleBuild(f *fn) *variable {
	s := f.use(kStr, flAny)
	out := f.result(kOther, []string{"profile", "info", "stats_tuple", "shape"})
	switch f.g.intn(3) {
	case 0:
		f.line("%s = (len(%s), %s[:%d], %s.count(%s))", out.name, s.name, s.name, f.g.between(1, 3), s.name, f.g.str(f.g.charFor(s)))
	case 1:
		f.line("%s = (%s.isalpha(), %s.isdigit(), len(set(%s)))", out.name, s.name, s.name, s.name)
		f.tag("isalpha")
	default:
		f.line("%s = tuple(%s.split(%s))", out.name, s.name, f.g.str(f.g.sepFor(s)))
		f.tag("split")
	}
	f.tag("tuple")
	return out
}
