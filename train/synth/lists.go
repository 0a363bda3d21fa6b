package synth

import "fmt"

// List templates: filtering, mapping, accumulation, sorting, slicing, in-place edits
// (append, extend, insert, pop, remove, reverse, sort), searching and pairwise work.
// Templates that edit a list in place work on a copy unless they are the in-place kind.

func init() {
	register(
		block{[]string{"filter_items", "select_items", "keep_some", "sift"}, kIntList, 7, listFilter},
		block{[]string{"filter_words", "select_words", "prune_words"}, kStrList, 4, wordsFilter},
		block{[]string{"map_items", "transform_all", "convert_all", "apply_rule"}, kIntList, 6, listMap},
		block{[]string{"map_words", "reshape_words", "restyle_words"}, kStrList, 4, wordsMap},
		block{[]string{"running_totals", "prefix_sums", "cumulate"}, kIntList, 3, listPrefix},
		block{[]string{"aggregate", "reduce_items", "fold_values", "summarize"}, kIntList, 6, listAggregate},
		block{[]string{"order_items", "arrange", "rank_items"}, kIntList, 4, listSort},
		block{[]string{"order_words", "rank_words", "arrange_words"}, kStrList, 3, wordsSort},
		block{[]string{"take_slice", "window", "trim_items"}, kIntList, 4, listSlice},
		block{[]string{"drain", "pop_tail", "unwind"}, kIntList, 3, listPop},
		block{[]string{"edit_items", "revise", "rework"}, kIntList, 4, listEdit},
		block{[]string{"locate", "position_of", "find_index"}, kIntList, 3, listIndex},
		block{[]string{"dedupe", "unique_items", "drop_repeats"}, kIntList, 3, listDedupe},
		block{[]string{"dedupe_words", "unique_words"}, kStrList, 2, wordsDedupe},
		block{[]string{"differences", "gaps", "deltas"}, kIntList, 3, listDiffs},
		block{[]string{"where_matches", "indices_of", "mark_positions"}, kIntList, 3, listPositions},
		block{[]string{"chunk", "batch", "group_runs"}, kIntList, 2, listChunks},
		block{[]string{"mirror", "flip", "reverse_copy"}, kIntList, 3, listReverse},
		block{[]string{"pairs_with_sum", "match_pairs", "find_pairs"}, kIntList, 2, listPairs},
		block{[]string{"search_sorted", "bisect_for", "lookup_sorted"}, kIntList, 2, listBinarySearch},
		block{[]string{"bubble", "sort_pass", "settle"}, kIntList, 2, listBubble},
		block{[]string{"pair_up", "attach_values", "label_values"}, kStrList, 3, listZip},
		block{[]string{"relative_to_first", "offsets_from_head"}, kIntList, 2, listStar},
		block{[]string{"interleave", "weave", "alternate"}, kIntList, 2, listInterleave},
		block{[]string{"longest_streak", "best_run", "streak"}, kIntList, 3, listStreak},
		block{[]string{"first_match", "search_first", "find_first"}, kIntList, 4, listForElse},
		block{[]string{"rotate", "shift_items", "cycle_items"}, kIntList, 2, listRotate},
		block{[]string{"check_all", "test_items", "verify"}, kIntList, 3, listAnyAll},
		block{[]string{"split_by_parity", "partition_items", "bucket_items"}, kIntList, 3, listBranches},
		block{[]string{"sum_every_other", "stride_sum", "skip_sum"}, kIntList, 2, listStride},
		block{[]string{"sort_in_place", "tidy"}, kIntList, 2, listSortInPlace},
	)
}

func listFilter(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"kept", "picked", "small", "evens", "chosen", "selected", "big_ones"})
	x := f.reserve(intElemNames)
	switch f.g.intn(5) {
	case 0, 1:
		f.line("%s = [%s for %s in %s if %s]", out.name, x, x, xs.name, f.pred(kInt, x, xs))
		f.tag("comprehension")
	case 2:
		f.line("%s = []", out.name)
		f.line("for %s in %s:", x, xs.name)
		f.in()
		f.line("if %s:", f.pred(kInt, x, xs))
		f.in()
		f.line("%s.append(%s)", out.name, x)
		f.out()
		f.maybePrint(x, out.name)
		f.out()
		f.tag("loop", "for", "if", "append")
	case 3:
		f.line("%s = list(filter(lambda %s: %s, %s))", out.name, x, f.intCond(x, xs), xs.name)
		f.tag("lambda", "filter")
	default:
		f.line("%s = []", out.name)
		f.line("for %s in %s:", x, xs.name)
		f.in()
		f.line("if %s:", f.intCond(x, xs))
		f.in()
		f.line("continue")
		f.out()
		f.line("%s.append(%s)", out.name, x)
		f.out()
		f.tag("loop", "for", "continue", "if", "append")
	}
	return out
}

func wordsFilter(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kStrList, []string{"kept", "short_words", "matching", "chosen_words", "survivors"})
	w := f.reserve(strElemNames)
	if f.g.chance(0.6) {
		f.line("%s = [%s for %s in %s if %s]", out.name, w, w, ws.name, f.pred(kStr, w, ws))
		f.tag("comprehension")
	} else {
		f.line("%s = []", out.name)
		f.line("for %s in %s:", w, ws.name)
		f.in()
		f.line("if %s:", f.pred(kStr, w, ws))
		f.in()
		f.line("%s.append(%s)", out.name, f.wordMap(w))
		f.out()
		f.maybePrint(w)
		f.out()
		f.tag("loop", "for", "if", "append")
	}
	return out
}

func listMap(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"scaled", "shifted", "mapped", "doubled", "adjusted", "converted"})
	x := f.reserve(intElemNames)
	switch f.g.intn(5) {
	case 0, 1:
		f.line("%s = [%s for %s in %s]", out.name, f.mapped(kInt, x), x, xs.name)
		f.tag("comprehension")
	case 2:
		f.line("%s = list(map(lambda %s: %s, %s))", out.name, x, f.intMap(x), xs.name)
		f.tag("lambda", "map")
	case 3:
		i := f.reserve(indexNames)
		f.line("%s = [%s * %s for %s, %s in enumerate(%s)]", out.name, x, i, i, x, xs.name)
		f.tag("comprehension", "enumerate", "unpacking")
	default:
		f.line("%s = []", out.name)
		f.line("for %s in %s:", x, xs.name)
		f.in()
		f.line("%s.append(%s)", out.name, f.mapped(kInt, x))
		f.out()
		f.tag("loop", "for", "append")
	}
	return out
}

func wordsMap(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kStrList, []string{"shaped", "styled", "variants", "renamed", "marked_words"})
	w := f.reserve(strElemNames)
	switch f.g.intn(3) {
	case 0:
		f.line("%s = [%s for %s in %s]", out.name, f.mapped(kStr, w), w, ws.name)
		f.tag("comprehension")
	case 1:
		f.line("%s = list(map(lambda %s: %s, %s))", out.name, w, f.wordMap(w), ws.name)
		f.tag("lambda", "map")
	default:
		i := f.reserve(indexNames)
		f.line("%s = []", out.name)
		f.line("for %s, %s in enumerate(%s):", i, w, ws.name)
		f.in()
		f.line("%s.append(str(%s) + %s)", out.name, i, w)
		f.out()
		f.tag("loop", "for", "enumerate", "unpacking", "append")
	}
	return out
}

func listPrefix(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"running", "sums", "prefix", "levels_so_far"})
	acc := f.reserve([]string{"acc", "run_total", "so_far", "level"})
	x := f.reserve(intElemNames)
	f.line("%s = 0", acc)
	f.line("%s = []", out.name)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	op := pick(f.g, []string{"+=", "+=", "-=", "^="})
	f.line("%s %s %s", acc, op, x)
	f.line("%s.append(%s)", out.name, acc)
	f.maybePrint(x, acc)
	f.out()
	f.tag("loop", "for", "append")
	return out
}

func listAggregate(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	out := f.result(kInt, []string{"total", "best", "worst", "product", "peak", "low_mark", "score", "biggest"})
	x := f.reserve(intElemNames)
	switch g.intn(7) {
	case 0:
		f.line("%s = 0", out.name)
		f.line("for %s in %s:", x, xs.name)
		f.in()
		f.line("%s += %s", out.name, f.mapped(kInt, x))
		f.out()
		f.tag("loop", "for")
	case 1:
		f.line("%s = %s[0] if %s else 0", out.name, xs.name, xs.name)
		f.line("for %s in %s[1:]:", x, xs.name)
		f.in()
		f.line("if %s %s %s:", x, pick(g, []string{">", "<"}), out.name)
		f.in()
		f.line("%s = %s", out.name, x)
		f.out()
		f.out()
		f.tag("loop", "for", "if", "slicing")
	case 2:
		f.line("%s = 1", out.name)
		f.line("for %s in %s[:%d]:", x, xs.name, g.between(3, 5))
		f.in()
		f.line("if %s != 0:", x)
		f.in()
		f.line("%s *= %s", out.name, x)
		f.out()
		f.out()
		f.tag("loop", "for", "if", "slicing")
	case 3:
		f.line("%s = sum(%s) - max(%s, default=0)", out.name, xs.name, xs.name)
		f.tag("builtins")
	case 4:
		f.line("%s = max(%s) - min(%s) if %s else %d", out.name, xs.name, xs.name, xs.name, g.between(-1, 0))
		f.tag("builtins")
	case 5:
		f.line("%s = sum(%s for %s in %s if %s)", out.name, f.intMap(x), x, xs.name, f.intCond(x, xs))
		f.tag("genexpr")
	default:
		f.line("%s = sum(%s) // len(%s) if %s else 0", out.name, xs.name, xs.name, xs.name)
		f.tag("builtins")
	}
	return out
}

func listSort(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"ordered", "ranked", "arranged", "by_size", "sorted_vals"})
	x := f.reserve(intElemNames)
	g := f.g
	switch g.intn(4) {
	case 0:
		f.line("%s = sorted(%s)", out.name, xs.name)
	case 1:
		f.line("%s = sorted(%s, reverse=True)", out.name, xs.name)
	case 2:
		f.line("%s = sorted(%s, key=lambda %s: (%s %% %d, %s))", out.name, xs.name, x, x, g.between(2, 5), x)
		f.tag("lambda")
	default:
		f.line("%s = sorted(%s, key=lambda %s: abs(%s - %d))", out.name, xs.name, x, x, g.threshold(xs))
		f.tag("lambda")
	}
	if g.chance(0.3) {
		f.line("%s = %s[:%d]", out.name, out.name, g.between(2, 4))
		f.tag("slicing")
	}
	f.tag("sort")
	return out
}

func wordsSort(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kStrList, []string{"ordered", "ranked", "alphabetical", "by_length"})
	w := f.reserve(strElemNames)
	switch f.g.intn(4) {
	case 0:
		f.line("%s = sorted(%s, key=len)", out.name, ws.name)
	case 1:
		f.line("%s = sorted(%s, key=lambda %s: (-len(%s), %s))", out.name, ws.name, w, w, w)
		f.tag("lambda")
	case 2:
		f.line("%s = sorted(%s, key=str.lower, reverse=True)", out.name, ws.name)
	default:
		f.line("%s = sorted(%s, key=lambda %s: %s[::-1])", out.name, ws.name, w, w)
		f.tag("lambda", "slicing")
	}
	f.tag("sort")
	return out
}

func listSlice(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"window", "middle", "part", "tail_part", "trimmed"})
	g := f.g
	k := g.between(1, 3)
	exprs := []string{
		fmt.Sprintf("%s[::2]", xs.name),
		fmt.Sprintf("%s[1:-1]", xs.name),
		fmt.Sprintf("%s[:%d]", xs.name, k),
		fmt.Sprintf("%s[-%d:]", xs.name, k),
		fmt.Sprintf("%s[::-1][:%d]", xs.name, k+1),
		fmt.Sprintf("%s[%d:] + %s[:%d]", xs.name, k, xs.name, k),
		fmt.Sprintf("%s[1::2] + %s[::2]", xs.name, xs.name),
		fmt.Sprintf("%s[len(%s) // 2:]", xs.name, xs.name),
	}
	f.line("%s = %s", out.name, pick(g, exprs))
	f.tag("slicing")
	return out
}

func listPop(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	out := f.result(kIntList, []string{"work", "rest", "remaining", "pile", "left"})
	f.line("%s = %s", out.name, pick(g, []string{"list(" + xs.name + ")", xs.name + "[:]", xs.name + ".copy()"}))
	if g.chance(0.5) {
		f.line("while %s and %s[-1] %s %d:", out.name, out.name, pick(g, []string{">", "<", ">=", "!="}), g.threshold(xs))
		f.in()
		f.line("%s.pop()", out.name)
		f.out()
	} else {
		popped := f.reserve([]string{"popped", "front", "taken_off"})
		acc := f.reserve([]string{"drained", "removed_sum", "spent"})
		f.line("%s = 0", acc)
		f.line("while %s and %s < %d:", out.name, acc, g.threshold(xs)+g.between(0, 10))
		f.in()
		f.line("%s = %s.pop(0)", popped, out.name)
		f.line("%s += %s", acc, popped)
		f.maybePrint(popped, acc)
		f.out()
	}
	f.tag("loop", "while", "pop")
	return out
}

func listEdit(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	inPlace := xs.param && g.chance(0.4)
	target := xs.name
	var out *variable
	if !inPlace {
		out = f.result(kIntList, []string{"edited", "changed", "revised", "updated"})
		f.line("%s = %s", out.name, pick(g, []string{"list(" + xs.name + ")", xs.name + "[:]", xs.name + ".copy()"}))
		target = out.name
	} else {
		f.mutate(xs)
	}
	v := g.elemFor(xs)
	for n := g.between(2, 3); n > 0; n-- {
		switch g.intn(6) {
		case 0:
			f.line("if %d in %s:", v, target)
			f.in()
			f.line("%s.remove(%d)", target, v)
			f.out()
			f.tag("if", "remove")
		case 1:
			f.line("%s.insert(%d, %d)", target, g.between(0, 3), g.between(-5, 20))
			f.tag("insert")
		case 2:
			f.line("%s.append(len(%s))", target, target)
			f.tag("append")
		case 3:
			f.line("%s.extend([%d, %d])", target, g.between(0, 9), g.between(0, 9))
			f.tag("extend")
		case 4:
			f.line("if %s:", target)
			f.in()
			f.line("%s[0], %s[-1] = %s[-1], %s[0]", target, target, target, target)
			f.out()
			f.tag("if", "unpacking")
		default:
			f.line("%s[%d:%d] = []", target, g.between(0, 1), g.between(2, 3))
			f.tag("slicing")
		}
	}
	return out
}

func listIndex(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kInt, []string{"pos", "where", "at", "slot", "index_found"})
	v := f.g.elemFor(xs)
	switch f.g.intn(3) {
	case 0:
		f.line("%s = %s.index(%d) if %d in %s else -1", out.name, xs.name, v, v, xs.name)
		f.tag("index")
	case 1:
		f.line("%s = %s.count(%d) + %s.count(%d)", out.name, xs.name, v, xs.name, f.g.elemFor(xs))
		f.tag("count")
	default:
		f.line("%s = len(%s) - %s[::-1].index(%d) - 1 if %d in %s else -1", out.name, xs.name, xs.name, v, v, xs.name)
		f.tag("index", "slicing")
	}
	return out
}

func listDedupe(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"uniq", "distinct", "firsts", "unique_vals"})
	x := f.reserve(intElemNames)
	if f.g.chance(0.6) {
		seen := f.reserve(setNames)
		f.line("%s = set()", seen)
		f.line("%s = []", out.name)
		f.line("for %s in %s:", x, xs.name)
		f.in()
		f.line("if %s not in %s:", x, seen)
		f.in()
		f.line("%s.add(%s)", seen, x)
		f.line("%s.append(%s)", out.name, x)
		f.out()
		f.out()
		f.tag("set", "loop", "for", "if")
	} else {
		f.line("%s = []", out.name)
		f.line("for %s in %s:", x, xs.name)
		f.in()
		f.line("if %s in %s:", x, out.name)
		f.in()
		f.line("continue")
		f.out()
		f.line("%s.append(%s)", out.name, x)
		f.out()
		f.tag("loop", "for", "continue", "if")
	}
	return out
}

func wordsDedupe(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kStrList, []string{"uniq", "distinct_words", "once"})
	w := f.reserve(strElemNames)
	if f.g.chance(0.5) {
		f.line("%s = list(dict.fromkeys(%s))", out.name, ws.name)
	} else {
		f.line("%s = []", out.name)
		f.line("for %s in %s:", w, ws.name)
		f.in()
		f.line("if %s.lower() not in [u.lower() for u in %s]:", w, out.name)
		f.in()
		f.line("%s.append(%s)", out.name, w)
		f.out()
		f.out()
		f.tag("loop", "for", "if", "comprehension")
	}
	return out
}

func listDiffs(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"diffs", "gaps", "deltas", "steps_between"})
	a, b := f.reserve([]string{"a", "prev", "left"}), f.reserve([]string{"b", "nxt", "right"})
	if f.g.chance(0.6) {
		f.line("%s = [%s - %s for %s, %s in zip(%s, %s[1:])]", out.name, b, a, a, b, xs.name, xs.name)
		f.tag("comprehension", "zip", "unpacking")
	} else {
		i := f.reserve(indexNames)
		f.line("%s = []", out.name)
		f.line("for %s in range(1, len(%s)):", i, xs.name)
		f.in()
		f.line("%s.append(abs(%s[%s] - %s[%s - 1]))", out.name, xs.name, i, xs.name, i)
		f.out()
		f.tag("loop", "for", "range")
	}
	return out
}

func listPositions(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"spots", "indices", "hits", "marks_at"})
	i, x := f.reserve(indexNames), f.reserve(intElemNames)
	f.line("%s = [%s for %s, %s in enumerate(%s) if %s]", out.name, i, i, x, xs.name, f.pred(kInt, x, xs))
	f.tag("comprehension", "enumerate", "unpacking")
	return out
}

func listChunks(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kOther, []string{"chunks", "batches", "groups", "rows"})
	i := f.reserve(indexNames)
	k := f.g.between(2, 3)
	if f.g.chance(0.5) {
		f.line("%s = [%s[%s:%s + %d] for %s in range(0, len(%s), %d)]", out.name, xs.name, i, i, k, i, xs.name, k)
	} else {
		f.line("%s = [sum(%s[%s:%s + %d]) for %s in range(0, len(%s), %d)]", out.name, xs.name, i, i, k, i, xs.name, k)
	}
	f.tag("comprehension", "slicing", "range")
	return out
}

func listReverse(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	if xs.param && g.chance(0.3) {
		f.mutate(xs)
		f.line("%s.reverse()", xs.name)
		f.tag("reverse")
		return nil
	}
	out := f.result(kIntList, []string{"flipped", "mirrored", "backwards", "reversed_items"})
	switch g.intn(3) {
	case 0:
		f.line("%s = list(reversed(%s))", out.name, xs.name)
		f.tag("reversed")
	case 1:
		x := f.reserve(intElemNames)
		f.line("%s = []", out.name)
		f.line("for %s in reversed(%s):", x, xs.name)
		f.in()
		f.line("%s.append(%s)", out.name, f.mapped(kInt, x))
		f.out()
		f.tag("loop", "for", "reversed")
	default:
		i, j := f.reserve([]string{"i", "lo", "left"}), f.reserve([]string{"j", "hi", "right"})
		f.line("%s = list(%s)", out.name, xs.name)
		f.line("%s, %s = 0, len(%s) - 1", i, j, out.name)
		f.line("while %s < %s:", i, j)
		f.in()
		f.line("%s[%s], %s[%s] = %s[%s], %s[%s]", out.name, i, out.name, j, out.name, j, out.name, i)
		f.line("%s += 1", i)
		f.line("%s -= 1", j)
		f.out()
		f.tag("loop", "while", "unpacking")
	}
	return out
}

func listPairs(f *fn) *variable {
	xs := f.use(kIntList, flSmall)
	t := f.g.threshold(xs) + f.g.elemFor(xs)
	i, j := f.reserve([]string{"i", "a_idx"}), f.reserve([]string{"j", "b_idx"})
	var out *variable
	if f.g.chance(0.5) {
		out = f.result(kOther, []string{"pairs", "matches", "couples"})
		f.line("%s = []", out.name)
	} else {
		out = f.result(kInt, []string{"pair_count", "matches", "hits"})
		f.line("%s = 0", out.name)
	}
	f.line("for %s in range(len(%s)):", i, xs.name)
	f.in()
	f.line("for %s in range(%s + 1, len(%s)):", j, i, xs.name)
	f.in()
	f.line("if %s[%s] + %s[%s] == %d:", xs.name, i, xs.name, j, t)
	f.in()
	if out.k == kOther {
		f.line("%s.append((%s[%s], %s[%s]))", out.name, xs.name, i, xs.name, j)
		f.tag("tuple")
	} else {
		f.line("%s += 1", out.name)
	}
	f.out()
	f.out()
	f.out()
	f.tag("loop", "for", "nested-loop", "if", "range")
	return out
}

func listBinarySearch(f *fn) *variable {
	xs := f.use(kIntList, flSorted)
	g := f.g
	ordered := f.reserve([]string{"ordered", "arr", "srt"})
	lo, hi, mid := f.reserve([]string{"lo", "low"}), f.reserve([]string{"hi", "high"}), f.reserve([]string{"mid", "middle", "m"})
	out := f.result(kInt, []string{"where", "found_at", "pos", "slot"})
	f.line("%s = sorted(%s)", ordered, xs.name)
	f.line("%s, %s = 0, len(%s) - 1", lo, hi, ordered)
	f.line("%s = -1", out.name)
	f.line("while %s <= %s:", lo, hi)
	f.in()
	f.line("%s = (%s + %s) // 2", mid, lo, hi)
	f.line("if %s[%s] == %d:", ordered, mid, g.elemFor(xs))
	f.in()
	f.line("%s = %s", out.name, mid)
	f.line("break")
	f.out()
	f.line("elif %s[%s] < %d:", ordered, mid, g.elemFor(xs))
	f.in()
	f.line("%s = %s + 1", lo, mid)
	f.out()
	f.line("else:")
	f.in()
	f.line("%s = %s - 1", hi, mid)
	f.out()
	f.out()
	f.tag("loop", "while", "break", "if", "elif", "unpacking")
	return out
}

func listBubble(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kIntList, []string{"arr", "work", "settled", "ordered"})
	i, j := f.reserve([]string{"i", "rnd"}), f.reserve([]string{"j", "k"})
	depth := f.w.depth
	f.line("%s = %s[:%d]", out.name, xs.name, f.g.between(4, 6))
	if f.g.chance(0.5) {
		f.line("for %s in range(len(%s) - 1):", j, out.name)
		f.in()
	} else {
		f.line("for %s in range(len(%s)):", i, out.name)
		f.in()
		f.line("for %s in range(len(%s) - 1 - %s):", j, out.name, i)
		f.in()
		f.tag("nested-loop")
	}
	f.line("if %s[%s] %s %s[%s + 1]:", out.name, j, pick(f.g, []string{">", "<"}), out.name, j)
	f.in()
	f.line("%s[%s], %s[%s + 1] = %s[%s + 1], %s[%s]", out.name, j, out.name, j, out.name, j, out.name, j)
	f.w.depth = depth
	f.tag("loop", "for", "if", "unpacking", "range", "slicing")
	return out
}

func listZip(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	xs := f.use(kIntList, flAny)
	g := f.g
	w, x := f.reserve(strElemNames), f.reserve(intElemNames)
	switch g.intn(3) {
	case 0:
		out := f.result(kOther, []string{"pairs", "labeled", "zipped"})
		f.line("%s = sorted(zip(%s, %s), key=lambda p: p[1])", out.name, ws.name, xs.name)
		f.tag("lambda", "zip", "sort", "tuple")
		return out
	case 1:
		out := f.result(kDict, []string{"table", "lookup", "mapping", "by_name"})
		f.line("%s = dict(zip(%s, %s))", out.name, ws.name, xs.name)
		f.tag("zip", "dict")
		return out
	}
	out := f.result(kStrList, []string{"labels", "rows", "lines_out", "entries"})
	f.line("%s = []", out.name)
	f.line("for %s, %s in zip(%s, %s):", w, x, ws.name, xs.name)
	f.in()
	f.line("%s.append(%s * max(0, min(%s, %d)))", out.name, w, x, g.between(2, 3))
	f.out()
	f.tag("loop", "for", "zip", "unpacking")
	return out
}

func listStar(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	first, rest := f.reserve([]string{"first", "head", "lead"}), f.reserve([]string{"rest", "tail", "others"})
	out := f.result(kIntList, []string{"offsets", "relative", "spread"})
	x := f.reserve(intElemNames)
	f.line("%s, *%s = %s or [0]", first, rest, xs.name)
	f.line("%s = [%s - %s for %s in %s]", out.name, x, first, x, rest)
	f.tag("unpacking", "star-unpacking", "comprehension")
	return out
}

func listInterleave(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	ys := f.useExcept(kIntList, flAny, xs)
	out := f.result(kIntList, []string{"mixed", "woven", "merged", "zipped_flat"})
	a, b := f.reserve([]string{"a", "left"}), f.reserve([]string{"b", "right"})
	f.line("%s = []", out.name)
	f.line("for %s, %s in zip(%s, %s):", a, b, xs.name, ys.name)
	f.in()
	f.line("%s.extend([%s, %s])", out.name, a, b)
	f.out()
	if f.g.chance(0.5) {
		f.line("%s.extend(%s[len(%s):])", out.name, xs.name, ys.name)
	}
	f.tag("loop", "for", "zip", "unpacking", "extend")
	return out
}

func listStreak(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	best, run := f.result(kInt, []string{"best", "longest", "record"}), f.reserve([]string{"run", "current", "streak"})
	x := f.reserve(intElemNames)
	f.line("%s = %s = 0", best.name, run)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("if %s:", f.pred(kInt, x, xs))
	f.in()
	f.line("%s += 1", run)
	f.line("%s = max(%s, %s)", best.name, best.name, run)
	f.out()
	f.line("else:")
	f.in()
	f.line("%s = 0", run)
	f.out()
	f.out()
	f.tag("loop", "for", "if")
	return best
}

func listForElse(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kInt, []string{"found", "first_hit", "match", "winner"})
	x := f.reserve(intElemNames)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("if %s:", f.pred(kInt, x, xs))
	f.in()
	f.line("%s = %s", out.name, x)
	f.line("break")
	f.out()
	f.out()
	f.line("else:")
	f.in()
	f.line("%s = %d", out.name, f.g.between(-1, 0))
	f.out()
	f.tag("loop", "for", "for-else", "break", "if")
	return out
}

func listRotate(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	k := f.use(kInt, flSmall)
	shift := f.reserve([]string{"shift", "offset", "turn"})
	out := f.result(kIntList, []string{"rotated", "turned", "cycled"})
	f.line("%s = %s %% len(%s) if %s else 0", shift, k.name, xs.name, xs.name)
	f.line("%s = %s[%s:] + %s[:%s]", out.name, xs.name, shift, xs.name, shift)
	f.tag("slicing")
	return out
}

func listAnyAll(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kBool, []string{"ok", "valid", "all_good", "any_hit", "flagged"})
	x := f.reserve(intElemNames)
	fn := pick(f.g, []string{"all", "any"})
	f.line("%s = %s(%s for %s in %s)", out.name, fn, f.pred(kInt, x, xs), x, xs.name)
	f.tag("genexpr", fn)
	return out
}

func listBranches(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	a, b := f.reserve([]string{"evens", "low", "small"}), f.reserve([]string{"odds", "high", "large"})
	x := f.reserve(intElemNames)
	out := f.result(kOther, []string{"split", "buckets", "sides", "halves"})
	f.line("%s, %s = [], []", a, b)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("if %s:", f.intCond(x, xs))
	f.in()
	f.line("%s.append(%s)", a, x)
	f.out()
	f.line("elif %s:", f.intCond(x, xs))
	f.in()
	f.line("%s.append(%s)", b, x)
	f.out()
	if g.chance(0.5) {
		f.line("else:")
		f.in()
		f.line("continue")
		f.out()
		f.tag("continue")
	}
	f.maybePrint(x)
	f.out()
	f.line("%s = (%s, %s)", out.name, a, b)
	f.tag("loop", "for", "if", "elif", "unpacking", "tuple")
	return out
}

func listStride(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kInt, []string{"total", "stride_sum", "picked_sum"})
	i := f.reserve(indexNames)
	f.line("%s = 0", out.name)
	f.line("for %s in range(%d, len(%s), %d):", i, f.g.between(0, 1), xs.name, f.g.between(2, 3))
	f.in()
	f.line("%s += %s[%s]", out.name, xs.name, i)
	f.maybePrint(i, out.name)
	f.out()
	f.tag("loop", "for", "range")
	return out
}

func listSortInPlace(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	if !xs.param {
		out := f.result(kIntList, []string{"ordered", "tidy_vals"})
		f.line("%s = sorted(%s)", out.name, xs.name)
		f.line("%s.sort(key=lambda v: v %% %d)", out.name, f.g.between(2, 4))
		f.tag("sort", "lambda")
		return out
	}
	f.mutate(xs)
	if f.g.chance(0.5) {
		f.line("%s.sort(reverse=True)", xs.name)
	} else {
		f.line("%s.sort()", xs.name)
	}
	f.tag("sort")
	return nil
}
