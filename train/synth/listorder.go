package synth

// Reordering lists in place: reverse and sort (with a key, descending), on the input
// itself or on a copy made with list.copy().

func init() {
	register(
		block{[]string{"reorder", "flip_and_sort", "shuffle_order"}, kIntList, 5, listReorder},
		block{[]string{"reorder_words", "sort_words_by", "flip_words"}, kStrList, 3, wordsReorder},
	)
}

func listReorder(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	target, out := f.copyOrInPlace(xs, kIntList, []string{"ordered", "reordered", "arranged", "flipped_copy"})
	for n := g.between(1, 2); n > 0; n-- {
		switch g.intn(5) {
		case 0, 1:
			f.line("%s.reverse()", target)
			f.tag("reverse")
		case 2:
			f.line("%s.sort(reverse=True)", target)
			f.tag("sort")
		case 3:
			f.line("%s.sort(key=lambda %s: (%s, %s))", target, "v", f.intMap("v"), "v")
			f.tag("sort", "lambda", "tuple")
		default:
			f.line("%s.sort(key=abs)", target)
			f.tag("sort")
		}
	}
	if g.chance(0.3) {
		f.line("%s.append(%s[0] if %s else 0)", target, target, target)
		f.tag("append", "ternary")
	}
	return out
}

func wordsReorder(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	g := f.g
	target, out := f.copyOrInPlace(ws, kStrList, []string{"ordered_words", "sorted_words", "arranged_words"})
	switch g.intn(4) {
	case 0:
		f.line("%s.sort(key=len)", target)
	case 1:
		f.line("%s.sort(key=lambda w: w[-1:], reverse=True)", target)
		f.tag("lambda", "slicing")
	case 2:
		f.line("%s.sort(key=str.lower)", target)
	default:
		f.line("%s.sort()", target)
		f.line("%s.reverse()", target)
		f.tag("reverse")
	}
	f.tag("sort")
	return out
}

// copyOrInPlace returns the list to change and the block's result: the parameter
// itself, handed back under its own name (f.rebound), or a copy bound to a new result.
func (f *fn) copyOrInPlace(xs *variable, k kind, names []string) (target string, out *variable) {
	if xs.param && f.g.chance(0.4) {
		return xs.name, f.rebound(xs)
	}
	out = f.result(k, names)
	f.line("%s = %s.copy()", out.name, xs.name)
	f.tag("copy")
	return out.name, out
}
