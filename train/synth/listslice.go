package synth

// Slices as values and as targets: the slice() built-in, slice assignment, and slices
// with negative bounds and steps.

func init() {
	register(
		block{[]string{"cut_window", "middle_part", "take_window"}, kIntList, 3, listSliceObject},
		block{[]string{"splice", "patch_items", "overwrite_part"}, kIntList, 3, listSliceAssign},
		block{[]string{"text_window", "clip_text", "middle_text"}, kStr, 3, strSliceMix},
	)
}

func listSliceObject(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	out := f.result(kIntList, []string{"window", "part", "section", "piece"})
	sl := f.reserve([]string{"span", "cut", "window_slice", "part_slice"})
	switch g.intn(3) {
	case 0:
		f.line("%s = slice(%d, %d)", sl, g.between(0, 2), g.between(2, 6))
	case 1:
		f.line("%s = slice(None, None, %d)", sl, pick(g, []int{-1, 2, -2, 3}))
	default:
		f.line("%s = slice(1, len(%s) - 1)", sl, xs.name)
	}
	f.line("%s = %s[%s]", out.name, xs.name, sl)
	f.tag("slicing")
	return out
}

func listSliceAssign(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	target, out := f.copyOrInPlace(xs, kIntList, []string{"spliced", "patched_items", "rewritten_items"})
	switch g.intn(4) {
	case 0:
		f.line("%s[%d:%d] = [%d, %d]", target, g.between(0, 1), g.between(1, 3), g.between(0, 9), g.between(0, 9))
	case 1:
		f.line("%s[::2] = [%s for %s in %s[::2]]", target, f.intMap("x"), "x", target)
		f.tag("comprehension")
	case 2:
		f.line("%s[-%d:] = %s[-%d:][::-1]", target, g.between(1, 3), target, g.between(1, 3))
	default:
		f.line("%s[:0] = %s[-1:]", target, target)
	}
	f.tag("slicing")
	return out
}

func strSliceMix(f *fn) *variable {
	s := f.use(kStr, flAny)
	g := f.g
	out := f.result(kStr, []string{"clipped", "window_text", "excerpt", "cut_text"})
	i := g.between(1, 3)
	switch g.intn(5) {
	case 0:
		f.line("%s = %s[%d:-%d]", out.name, s.name, i, g.between(1, 2))
	case 1:
		f.line("%s = %s[-%d:] + %s[:-%d]", out.name, s.name, i, s.name, i)
	case 2:
		f.line("%s = %s[::-%d]", out.name, s.name, g.between(1, 2))
	case 3:
		f.line("%s = %s[len(%s) // 2:] + %s[:len(%s) // 2]", out.name, s.name, s.name, s.name, s.name)
	default:
		f.line("%s = %s[:%d] + %s + %s[%d:]", out.name, s.name, i, g.str(pick(g, []string{"-", "*", "", "ab"})), s.name, i)
	}
	f.tag("slicing")
	return out
}
