package synth

// Values of mixed types: isinstance and type() on a list mixing ints and strs, bool()
// of ints and strs, and float() arithmetic.

func init() {
	register(
		block{[]string{"numbers_among", "split_kinds", "sort_by_type"}, kStrList, 4, typesMixed},
		block{[]string{"truthiness", "flags_of", "as_flags"}, kIntList, 2, typesBool},
		block{[]string{"average", "mean_of", "ratio_of"}, kIntList, 2, typesFloat},
	)
}

// typesMixed parses the numeric words of a list and then tells ints from strs.
func typesMixed(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	g := f.g
	mixed := f.reserve([]string{"mixed", "parsed", "values_any", "cells"})
	w := f.reserve(strElemNames)
	f.line("%s = [int(%s) if %s.isdigit() else %s for %s in %s]", mixed, w, w, w, w, ws.name)
	v := f.reserve([]string{"v", "cell", "val"})
	f.tag("comprehension", "ternary")
	switch g.intn(4) {
	case 0, 3:
		out := f.result(kIntList, []string{"numbers", "ints_found", "numeric"})
		f.line("%s = [%s for %s in %s if isinstance(%s, int)]", out.name, v, v, mixed, v)
		return out
	case 1:
		out := f.result(kStrList, []string{"words_only", "texts", "non_numeric"})
		f.line("%s = []", out.name)
		f.line("for %s in %s:", v, mixed)
		f.in()
		f.line("if type(%s) == str:", v)
		f.in()
		f.line("%s.append(%s)", out.name, v)
		f.out()
		f.line("else:")
		f.in()
		f.line("%s.append(str(%s * 2))", out.name, v)
		f.out()
		f.out()
		f.tag("loop", "for", "if", "append")
		return out
	}
	out := f.result(kStrList, []string{"type_names", "kinds", "shapes"})
	f.line("%s = [type(%s).__name__ for %s in %s]", out.name, v, v, mixed)
	return out
}

func typesBool(f *fn) *variable {
	xs := f.use(kIntList, flSmall)
	g := f.g
	x := f.reserve(intElemNames)
	if g.chance(0.5) {
		out := f.result(kInt, []string{"truthy", "nonzero", "set_count"})
		f.line("%s = sum(bool(%s %% %d) for %s in %s)", out.name, x, g.between(2, 4), x, xs.name)
		f.tag("genexpr")
		return out
	}
	out := f.result(kOther, []string{"flags", "bits", "marks"})
	f.line("%s = [bool(%s) for %s in %s]", out.name, f.intMap(x), x, xs.name)
	f.tag("comprehension")
	return out
}

func typesFloat(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	if g.chance(0.5) {
		out := f.result(kOther, []string{"mean", "avg", "ratio"})
		f.line("%s = round(float(sum(%s)) / len(%s), %d) if %s else 0.0", out.name, xs.name, xs.name, g.between(1, 2), xs.name)
		f.tag("ternary")
		return out
	}
	out := f.result(kInt, []string{"scaled", "half_total", "share_value"})
	f.line("%s = int(float(len(%s)) * %s)", out.name, xs.name, pick(g, []string{"1.5", "0.5", "2.5"}))
	return out
}
