package synth

// Dict templates: counting, grouping, inverting, comprehensions, get, items, keys,
// values, setdefault, pop, update. Keys are strs or ints, values ints or lists; dicts
// keep insertion order, so their reprs are deterministic.

func init() {
	register(
		block{[]string{"count_words", "word_counts", "tally_words"}, kStrList, 4, dictCountWords},
		block{[]string{"count_values", "value_counts", "frequency"}, kIntList, 3, dictCountInts},
		block{[]string{"group_words", "bucket_words", "by_initial"}, kStrList, 3, dictGroup},
		block{[]string{"invert", "flip_table", "reverse_lookup"}, kDict, 2, dictInvert},
		block{[]string{"word_sizes", "size_table", "measure_all"}, kStrList, 3, dictComp},
		block{[]string{"filter_table", "prune_table", "select_entries"}, kDict, 3, dictFilter},
		block{[]string{"sum_where", "total_for", "weigh_entries"}, kDict, 4, dictSumWhere},
		block{[]string{"top_key", "best_entry", "leader"}, kDict, 3, dictMaxKey},
		block{[]string{"merge_in", "update_table", "apply_changes"}, kDict, 3, dictUpdate},
		block{[]string{"take_out", "withdraw", "remove_key"}, kDict, 3, dictPop},
		block{[]string{"sorted_keys", "list_keys", "key_order"}, kDict, 3, dictKeys},
		block{[]string{"look_up", "fetch", "score_of"}, kDict, 3, dictGet},
		block{[]string{"keys_above", "select_keys", "qualifying_keys"}, kDict, 2, dictKeysWhere},
	)
}

func dictCountWords(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kDict, []string{"counts", "tally", "freq", "seen_count", "occurrences"})
	w := f.reserve(strElemNames)
	f.line("%s = {}", out.name)
	f.line("for %s in %s:", w, ws.name)
	f.in()
	switch f.g.intn(3) {
	case 0:
		f.line("%s[%s] = %s.get(%s, 0) + 1", out.name, w, out.name, w)
		f.tag("get")
	case 1:
		f.line("if %s not in %s:", w, out.name)
		f.in()
		f.line("%s[%s] = 0", out.name, w)
		f.out()
		f.line("%s[%s] += 1", out.name, w)
		f.tag("if")
	default:
		f.line("%s.setdefault(%s.lower(), 0)", out.name, w)
		f.line("%s[%s.lower()] += len(%s)", out.name, w, w)
		f.tag("setdefault")
	}
	f.maybePrint(w, out.name)
	f.out()
	f.tag("loop", "for", "dict")
	return out
}

func dictCountInts(f *fn) *variable {
	xs := f.use(kIntList, flSmall)
	out := f.result(kOther, []string{"counts", "freq", "histogram", "tally"})
	x := f.reserve(intElemNames)
	if f.g.chance(0.5) {
		f.line("%s = {}", out.name)
		f.line("for %s in %s:", x, xs.name)
		f.in()
		m := f.g.between(3, 5)
		f.line("%s[%s %% %d] = %s.get(%s %% %d, 0) + 1", out.name, x, m, out.name, x, m)
		f.out()
		f.tag("loop", "for", "get")
	} else {
		f.line("%s = {%s: %s.count(%s) for %s in %s}", out.name, x, xs.name, x, x, xs.name)
		f.tag("dictcomp", "count")
	}
	f.tag("dict")
	return out
}

func dictGroup(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kOther, []string{"groups", "buckets", "by_first", "index"})
	w := f.reserve(strElemNames)
	key := pick(f.g, []string{w + "[:1]", "len(" + w + ")", w + "[-1:]", w + "[:1].lower()"})
	f.line("%s = {}", out.name)
	f.line("for %s in %s:", w, ws.name)
	f.in()
	if f.g.chance(0.6) {
		f.line("%s.setdefault(%s, []).append(%s)", out.name, key, w)
		f.tag("setdefault")
	} else {
		k := f.reserve([]string{"key", "bucket", "slot"})
		f.line("%s = %s", k, key)
		f.line("if %s in %s:", k, out.name)
		f.in()
		f.line("%s[%s].append(%s)", out.name, k, w)
		f.out()
		f.line("else:")
		f.in()
		f.line("%s[%s] = [%s]", out.name, k, w)
		f.out()
		f.tag("if")
	}
	f.out()
	f.tag("loop", "for", "dict")
	return out
}

func dictInvert(f *fn) *variable {
	d := f.use(kDict, flAny)
	out := f.result(kOther, []string{"inverted", "by_value", "reverse_map"})
	k, v := f.reserve([]string{"k", "key", "name"}), f.reserve([]string{"v", "val", "amount"})
	if f.g.chance(0.6) {
		f.line("%s = {%s: %s for %s, %s in %s.items()}", out.name, v, k, k, v, d.name)
		f.tag("dictcomp")
	} else {
		f.line("%s = {}", out.name)
		f.line("for %s, %s in %s.items():", k, v, d.name)
		f.in()
		f.line("%s.setdefault(%s, []).append(%s)", out.name, v, k)
		f.out()
		f.tag("loop", "for", "setdefault")
	}
	f.tag("items", "unpacking", "dict")
	return out
}

func dictComp(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kDict, []string{"sizes", "lengths", "table", "scores_map"})
	w := f.reserve(strElemNames)
	val := pick(f.g, []string{"len(" + w + ")", w + ".count('a')", "len(set(" + w + "))", "sum(1 for c in " + w + " if c.isupper())"})
	f.line("%s = {%s: %s for %s in %s}", out.name, w, val, w, ws.name)
	f.tag("dictcomp", "dict")
	return out
}

func dictFilter(f *fn) *variable {
	d := f.use(kDict, flAny)
	out := f.result(kDict, []string{"kept", "subset", "filtered", "rich"})
	k, v := f.reserve([]string{"k", "key", "name"}), f.reserve([]string{"v", "val", "qty"})
	f.line("%s = {%s: %s for %s, %s in %s.items() if %s}", out.name, k, f.intMap(v), k, v, d.name, f.intCond(v, d))
	f.tag("dictcomp", "items", "unpacking", "dict")
	return out
}

func dictSumWhere(f *fn) *variable {
	d := f.use(kDict, flAny)
	out := f.result(kInt, []string{"total", "weight", "sum_kept", "balance"})
	k, v := f.reserve([]string{"k", "key", "name"}), f.reserve([]string{"v", "val", "qty"})
	f.line("%s = 0", out.name)
	f.line("for %s, %s in %s.items():", k, v, d.name)
	f.in()
	f.line("if %s:", f.pred(kStr, k, nil))
	f.in()
	f.line("%s += %s", out.name, v)
	f.out()
	if f.g.chance(0.5) {
		f.line("elif %s:", f.intCond(v, d))
		f.in()
		f.line("%s -= %d", out.name, f.g.between(1, 3))
		f.out()
		f.tag("elif")
	}
	f.maybePrint(k, v)
	f.out()
	f.tag("loop", "for", "if", "items", "unpacking", "dict")
	return out
}

func dictMaxKey(f *fn) *variable {
	d := f.use(kDict, flAny)
	out := f.result(kStr, []string{"top", "leader", "winner", "best_key"})
	switch f.g.intn(3) {
	case 0:
		f.line("%s = max(%s, key=%s.get) if %s else ''", out.name, d.name, d.name, d.name)
	case 1:
		k := f.reserve([]string{"k", "name"})
		f.line("%s = min(%s, key=lambda %s: (%s[%s], %s), default='')", out.name, d.name, k, d.name, k, k)
		f.tag("lambda")
	default:
		k, v := f.reserve([]string{"k", "name"}), f.reserve([]string{"v", "amount"})
		best := f.reserve([]string{"best", "top_value", "high"})
		f.line("%s = ''", out.name)
		f.line("%s = None", best)
		f.line("for %s, %s in %s.items():", k, v, d.name)
		f.in()
		f.line("if %s is None or %s > %s:", best, v, best)
		f.in()
		f.line("%s, %s = %s, %s", out.name, best, k, v)
		f.out()
		f.out()
		f.tag("loop", "for", "if", "items", "unpacking")
	}
	f.tag("dict")
	return out
}

func dictUpdate(f *fn) *variable {
	d := f.use(kDict, flAny)
	g := f.g
	out := f.result(kDict, []string{"merged", "updated", "combined", "table"})
	f.line("%s = dict(%s)", out.name, d.name)
	for n := g.between(1, 3); n > 0; n-- {
		switch g.intn(4) {
		case 0:
			f.line("%s.update({%s: %d})", out.name, g.str(g.keyFor(d)), g.between(-3, 20))
			f.tag("update")
		case 1:
			key := g.str(g.keyFor(d))
			f.line("%s[%s] = %s.get(%s, 0) + %d", out.name, key, out.name, key, g.between(1, 9))
			f.tag("get")
		case 2:
			f.line("%s.update(%s=%d)", out.name, pick(g, []string{"extra", "bonus", "spare", "misc"}), g.between(0, 9))
			f.tag("update")
		default:
			key := g.str(g.keyFor(d))
			f.line("if %s in %s:", key, out.name)
			f.in()
			f.line("del %s[%s]", out.name, key)
			f.out()
			f.tag("if", "del")
		}
	}
	f.tag("dict")
	return out
}

func dictPop(f *fn) *variable {
	d := f.use(kDict, flAny)
	g := f.g
	out := f.result(kInt, []string{"removed", "taken", "withdrawn", "popped"})
	if d.param && g.chance(0.4) {
		f.mutate(d)
		f.line("%s = %s.pop(%s, %d)", out.name, d.name, g.str(g.keyFor(d)), g.between(-1, 0))
	} else {
		work := f.reserve([]string{"work", "copy_of", "rest_table"})
		f.line("%s = %s.copy()", work, d.name)
		f.line("%s = %s.pop(%s, 0) + %s.pop(%s, 0)", out.name, work, g.str(g.keyFor(d)), work, g.str(g.keyFor(d)))
	}
	f.tag("pop", "dict")
	return out
}

func dictKeys(f *fn) *variable {
	d := f.use(kDict, flAny)
	switch f.g.intn(4) {
	case 0:
		out := f.result(kStrList, []string{"names", "keys_sorted", "labels"})
		f.line("%s = sorted(%s.keys())", out.name, d.name)
		f.tag("keys")
		return out
	case 1:
		out := f.result(kIntList, []string{"amounts", "vals", "quantities"})
		f.line("%s = list(%s.values())", out.name, d.name)
		f.tag("values")
		return out
	case 2:
		out := f.result(kOther, []string{"ranked", "entries", "pairs"})
		f.line("%s = sorted(%s.items(), key=lambda kv: (-kv[1], kv[0]))", out.name, d.name)
		f.tag("items", "lambda", "sort")
		return out
	}
	out := f.result(kStrList, []string{"names", "keys_out", "order"})
	k := f.reserve([]string{"k", "key", "name"})
	f.line("%s = []", out.name)
	f.line("for %s in %s:", k, d.name)
	f.in()
	f.line("%s.append(%s.upper() if %s[%s] > %d else %s)", out.name, k, d.name, k, f.g.threshold(d), k)
	f.out()
	f.tag("loop", "for", "dict")
	return out
}

func dictGet(f *fn) *variable {
	d := f.use(kDict, flAny)
	g := f.g
	out := f.result(kInt, []string{"score", "value_found", "qty", "level_of"})
	if g.chance(0.5) {
		f.line("%s = %s.get(%s, %d)", out.name, d.name, g.str(g.keyFor(d)), g.between(-1, 0))
	} else {
		ws := f.use(kStrList, flAny)
		w := f.reserve(strElemNames)
		f.line("%s = sum(%s.get(%s, %d) for %s in %s)", out.name, d.name, w, g.between(0, 1), w, ws.name)
		f.tag("genexpr")
	}
	f.tag("get", "dict")
	return out
}

func dictKeysWhere(f *fn) *variable {
	d := f.use(kDict, flAny)
	out := f.result(kStrList, []string{"names", "chosen", "flagged", "winners"})
	k, v := f.reserve([]string{"k", "key", "name"}), f.reserve([]string{"v", "val", "qty"})
	f.line("%s = [%s for %s, %s in %s.items() if %s]", out.name, k, k, v, d.name, f.pred(kInt, v, d))
	f.tag("comprehension", "items", "unpacking", "dict")
	return out
}
