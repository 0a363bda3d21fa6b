package synth

// Building dicts: dict.fromkeys, dict(zip(...)), dict() of pairs, and reading them back
// through keys() and sorted items.

func init() {
	register(
		block{[]string{"init_counts", "zero_table", "mark_all"}, kStrList, 3, dictFromKeys},
		block{[]string{"zip_table", "pair_table", "table_from"}, kStrList, 3, dictFromZip},
		block{[]string{"ranked_keys", "order_by_value", "keys_by_value"}, kDict, 3, dictSortedItems},
	)
}

func dictFromKeys(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	g := f.g
	if g.chance(0.4) {
		out := f.result(kStrList, []string{"uniq_words", "distinct_words", "first_seen"})
		f.line("%s = list(dict.fromkeys(%s))", out.name, ws.name)
		f.tag("dict")
		return out
	}
	out := f.result(kDict, []string{"counts", "table", "marks_by_word", "tally"})
	w := f.reserve(strElemNames)
	f.line("%s = dict.fromkeys(%s, %d)", out.name, ws.name, g.between(0, 1))
	f.line("for %s in %s:", w, ws.name)
	f.in()
	f.line("%s[%s] += %s", out.name, w, pick(g, []string{"1", "len(" + w + ")", w + ".count(" + g.str(g.charFor(ws)) + ")"}))
	f.out()
	f.tag("loop", "for", "dict")
	return out
}

func dictFromZip(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	g := f.g
	out := f.result(kDict, []string{"table", "lookup_table", "paired", "by_name"})
	choice := g.intn(3)
	if choice == 0 && !f.readable(kIntList) {
		choice = 1 // no second parameter just for this: entries stay short
	}
	switch choice {
	case 0:
		xs := f.use(kIntList, flAny)
		f.line("%s = dict(zip(%s, %s))", out.name, ws.name, xs.name)
	case 1:
		f.line("%s = dict(zip(%s, range(%d, %d + len(%s))))", out.name, ws.name, g.between(0, 1), g.between(0, 1), ws.name)
	default:
		w := f.reserve(strElemNames)
		f.line("%s = dict([(%s, len(%s)) for %s in %s])", out.name, w, w, w, ws.name)
		f.tag("comprehension", "tuple")
	}
	f.tag("zip", "dict")
	return out
}

func dictSortedItems(f *fn) *variable {
	d := f.use(kDict, flAny)
	g := f.g
	out := f.result(kStrList, []string{"ranked", "order", "by_value", "names_sorted"})
	k, v := f.reserve([]string{"k", "key", "name"}), f.reserve([]string{"v", "val", "amount"})
	switch g.intn(3) {
	case 0:
		f.line("%s = [%s for %s, %s in sorted(%s.items(), key=lambda kv: kv[1]%s)]", out.name, k, k, v, d.name, pick(g, []string{"", ", reverse=True"}))
		f.tag("comprehension", "lambda", "unpacking")
	case 1:
		f.line("%s = sorted(%s.keys(), key=%s.get)", out.name, d.name, d.name)
		f.tag("keys", "get")
	default:
		f.line("%s = list(%s.keys())", out.name, d.name)
		f.line("%s.reverse()", out.name)
		f.tag("keys", "reverse")
	}
	return out
}

// readable reports whether f already has a variable of kind k to read.
func (f *fn) readable(k kind) bool {
	for _, v := range f.vars {
		if v.ready && v.k == k {
			return true
		}
	}
	return false
}
