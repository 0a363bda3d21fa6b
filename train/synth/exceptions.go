package synth

// Exception-handling templates: try/except (with else and finally) around int(),
// indexing, dict lookups, division, list.index and str.index; helpers that raise and
// callers that catch; a custom exception class. Every exception raised here is caught.

func init() {
	register(
		block{[]string{"parse_numbers", "read_ints", "to_ints"}, kStr, 4, excParseInts},
		block{[]string{"item_at", "safe_get", "pick_item"}, kIntList, 3, excIndex},
		block{[]string{"value_for", "safe_lookup", "read_entry"}, kDict, 3, excKey},
		block{[]string{"ratio", "safe_divide", "share_of"}, kInt, 3, excDivide},
		block{[]string{"index_or_default", "where_is", "seek"}, kIntList, 2, excListIndex},
		block{[]string{"validate_all", "checked_values", "screen"}, kIntList, 3, excRaiseCatch},
		block{[]string{"sum_numeric", "add_numbers", "parse_total"}, kStrList, 3, excFinally},
		block{[]string{"offset_of", "char_index", "seek_char"}, kStr, 2, excStrIndex},
		block{[]string{"per_item", "spread_evenly", "fair_share"}, kStr, 2, excMulti},
		block{[]string{"spend_all", "pay_costs", "consume_budget"}, kIntList, 2, excCustom},
	)
}

func excParseInts(f *fn) *variable {
	s := f.use(kStr, flCSV)
	g := f.g
	out := f.result(kIntList, []string{"numbers", "values", "parsed", "ints"})
	tok := f.reserve([]string{"tok", "piece", "field", "raw"})
	f.line("%s = []", out.name)
	f.line("for %s in %s.split(%s):", tok, s.name, g.str(g.sepFor(s)))
	f.in()
	f.line("try:")
	f.in()
	f.line("%s.append(int(%s))", out.name, tok)
	f.out()
	f.line("except ValueError:")
	f.in()
	switch g.intn(4) {
	case 0:
		f.line("%s.append(%d)", out.name, g.between(-1, 0))
	case 1:
		f.line("continue")
		f.tag("continue")
	case 2:
		f.line("%s.append(-len(%s))", out.name, tok)
	default:
		f.line("pass")
	}
	f.out()
	f.out()
	f.tag("loop", "for", "try", "exception", "split")
	return out
}

func excIndex(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	i := f.use(kInt, flIndex)
	out := f.result(kInt, []string{"item", "picked", "entry", "chosen"})
	f.line("try:")
	f.in()
	f.line("%s = %s[%s]", out.name, xs.name, i.name)
	f.out()
	f.line("except IndexError:")
	f.in()
	f.line("%s = %d", out.name, f.g.between(-1, 0))
	f.out()
	if f.g.chance(0.4) {
		f.line("else:")
		f.in()
		f.line("%s = %s", out.name, f.intMap(out.name))
		f.out()
		f.tag("try-else")
	}
	f.tag("try", "exception")
	return out
}

func excKey(f *fn) *variable {
	d := f.use(kDict, flAny)
	g := f.g
	out := f.result(kInt, []string{"amount", "found", "entry_val", "qty"})
	key := g.str(g.keyFor(d))
	if g.chance(0.3) {
		k := f.use(kStr, flWord)
		key = k.name
	}
	f.line("try:")
	f.in()
	f.line("%s = %s[%s]", out.name, d.name, key)
	f.out()
	f.line("except KeyError:")
	f.in()
	f.line("%s = %s", out.name, pick(g, []string{"0", "-1", "len(" + d.name + ")"}))
	f.out()
	if g.chance(0.3) {
		f.line("finally:")
		f.in()
		f.line("%s = len(%s)", f.reserve([]string{"checked", "size_seen"}), d.name)
		f.out()
		f.tag("finally")
	}
	f.tag("try", "exception", "dict")
	return out
}

func excDivide(f *fn) *variable {
	a := f.use(kInt, flAny)
	b := f.useExcept(kInt, flSmall, a)
	out := f.result(kInt, []string{"ratio", "share", "portion", "per_part"})
	f.line("try:")
	f.in()
	f.line("%s = %s %s %s", out.name, a.name, pick(f.g, []string{"//", "%"}), b.name)
	f.out()
	f.line("except ZeroDivisionError:")
	f.in()
	f.line("%s = %s", out.name, pick(f.g, []string{"0", a.name, "-1"}))
	f.out()
	f.tag("try", "exception")
	return out
}

func excListIndex(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kInt, []string{"where", "pos", "at"})
	f.line("try:")
	f.in()
	f.line("%s = %s.index(%d)", out.name, xs.name, f.g.elemFor(xs))
	f.out()
	f.line("except ValueError:")
	f.in()
	f.line("%s = len(%s)", out.name, xs.name)
	f.out()
	f.tag("try", "exception", "index")
	return out
}

var checkNames = []string{"check", "validate", "ensure_ok", "vet", "guard_value", "verify_value"}

func excRaiseCatch(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	h, pv := f.freeHelper(checkNames, kInt, xs)
	exc := pick(g, []string{"ValueError", "ValueError", "KeyError", "IndexError"})
	h.line("if %s:", h.intCond(pv.name, xs))
	h.in()
	if g.chance(0.5) {
		h.line("raise %s(%s)", exc, g.str(pick(g, []string{"bad value", "out of range", "rejected", "not allowed"})))
	} else {
		h.line("raise %s(f'bad {%s}')", exc, pv.name)
		h.tag("fstring")
	}
	h.out()
	h.line("return %s", h.intMap(pv.name))
	f.p.define(h)
	x := f.reserve(intElemNames)
	out := f.result(kOther, []string{"results", "outcomes", "checked", "log"})
	f.line("%s = []", out.name)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("try:")
	f.in()
	f.line("%s.append(%s(%s))", out.name, h.name, x)
	f.out()
	if g.chance(0.5) {
		e := f.reserve([]string{"err", "e", "exc", "problem"})
		f.line("except %s as %s:", exc, e)
		f.in()
		f.line("%s.append(str(%s))", out.name, e)
		f.out()
		f.tag("except-as")
	} else {
		f.line("except %s:", exc)
		f.in()
		f.line("%s.append(None)", out.name)
		f.out()
	}
	f.out()
	f.tag("loop", "for", "try", "exception", "raise", "if")
	return out
}

func excFinally(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	w := f.reserve(strElemNames)
	total, tries := f.reserve([]string{"total", "acc", "sum_ok"}), f.reserve([]string{"attempts", "tried", "seen_n"})
	out := f.result(kOther, []string{"tally", "summary", "stats"})
	f.line("%s = %s = 0", total, tries)
	f.line("for %s in %s:", w, ws.name)
	f.in()
	f.line("try:")
	f.in()
	f.line("%s += int(%s)", total, w)
	f.out()
	f.line("except ValueError:")
	f.in()
	f.line("continue")
	f.out()
	f.line("finally:")
	f.in()
	f.line("%s += 1", tries)
	f.out()
	f.out()
	f.line("%s = (%s, %s)", out.name, total, tries)
	f.tag("loop", "for", "try", "exception", "finally", "continue", "tuple")
	return out
}

func excStrIndex(f *fn) *variable {
	s := f.use(kStr, flAny)
	out := f.result(kInt, []string{"offset", "at", "where"})
	f.line("try:")
	f.in()
	f.line("%s = %s.index(%s)", out.name, s.name, f.g.str(f.g.subFor(s)))
	f.out()
	f.line("except ValueError:")
	f.in()
	f.line("%s = -1", out.name)
	f.out()
	f.tag("try", "exception", "index")
	return out
}

func excMulti(f *fn) *variable {
	s := f.use(kStr, flDigits)
	xs := f.use(kIntList, flAny)
	out := f.result(kInt, []string{"each", "per_item", "share"})
	f.line("try:")
	f.in()
	f.line("%s = int(%s) // len(%s)", out.name, s.name, xs.name)
	f.out()
	f.line("except (ValueError, ZeroDivisionError):")
	f.in()
	f.line("%s = 0", out.name)
	f.out()
	f.tag("try", "exception", "multi-except")
	return out
}

func excCustom(f *fn) *variable {
	xs := f.use(kIntList, flPos)
	budget := f.use(kInt, flPos)
	g := f.g
	exc := f.p.globalName("LimitExceeded", "BudgetError", "OverLimit")
	f.defineClass([]string{"class " + exc + "(Exception):", "    pass"})
	h := f.recHelper([]string{"spend", "charge", "deduct"}, "budget", "cost")
	h.line("if cost > budget:")
	h.in()
	h.line("raise %s(cost)", exc)
	h.out()
	h.line("return budget - cost")
	f.p.define(h)
	f.tag("helper")
	left, c := f.reserve([]string{"left", "remaining", "balance"}), f.reserve([]string{"c", "cost", "price"})
	out := f.result(kOther, []string{"outcome", "state", "result_pair"})
	paid := f.reserve([]string{"paid", "bought", "done_n"})
	f.line("%s = %s", left, budget.name)
	f.line("%s = 0", paid)
	f.line("for %s in %s:", c, xs.name)
	f.in()
	f.line("try:")
	f.in()
	f.line("%s = %s(%s, %s)", left, h.name, left, c)
	f.out()
	f.line("except %s:", exc)
	f.in()
	f.line("%s", pick(g, []string{"break", "continue"}))
	f.out()
	f.line("%s += 1", paid)
	f.out()
	f.line("%s = (%s, %s)", out.name, left, paid)
	f.tag("loop", "for", "try", "exception", "raise", "class", "custom-exception", "tuple")
	return out
}
