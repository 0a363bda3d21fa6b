package synth

// Searching strings from the right: rfind (with and without bounds), rindex behind a
// membership test, rpartition, rsplit, and the slices they feed.

func init() {
	register(
		block{[]string{"last_part", "tail_after", "after_last"}, kStr, 3, strAfterLast},
		block{[]string{"last_index", "rightmost", "find_last"}, kStr, 3, strRightIndex},
	)
}

// strAfterLast cuts a string at the last occurrence of a separator.
func strAfterLast(f *fn) *variable {
	s := f.use(kStr, flCSV)
	g := f.g
	out := f.result(kStr, []string{"tail", "last_field", "after", "ending"})
	sep := g.str(g.sepFor(s))
	switch g.intn(4) {
	case 3:
		f.line("%s = %s.rsplit(%s, 1)[-1]", out.name, s.name, sep)
		f.tag("split", "slicing")
	case 0:
		f.line("%s = %s[%s.rfind(%s) + 1:]", out.name, s.name, s.name, sep)
		f.tag("rfind", "slicing")
	case 1:
		head, mid := f.reserve([]string{"head", "front", "rest"}), f.reserve([]string{"mid", "cut", "found_sep"})
		f.line("%s, %s, %s = %s.rpartition(%s)", head, mid, out.name, s.name, sep)
		f.line("if %s:", mid)
		f.in()
		f.line("%s = %s + %s + %s", out.name, out.name, g.str(pick(g, []string{"@", "<", "|", ""})), head)
		f.out()
		f.tag("rpartition", "unpacking", "if")
	default:
		i := f.reserve(indexNames)
		f.line("%s = %s.rfind(%s)", i, s.name, sep)
		f.line("if %s == -1:", i)
		f.in()
		f.line("%s = %s", out.name, s.name)
		f.out()
		f.line("else:")
		f.in()
		f.line("%s = %s[:%s] + %s[%s + 1:]", out.name, s.name, i, s.name, i)
		f.out()
		f.tag("rfind", "if", "slicing")
	}
	return out
}

// strRightIndex finds the last position of a character, or counts occurrences by
// searching backwards with an end bound.
func strRightIndex(f *fn) *variable {
	s := f.use(kStr, flAny)
	g := f.g
	out := f.result(kInt, []string{"last_at", "right_pos", "last_pos", "end_at"})
	c := g.str(g.charFor(s))
	switch g.intn(3) {
	case 0:
		f.line("%s = %s.rindex(%s) if %s in %s else len(%s)", out.name, s.name, c, c, s.name, s.name)
		f.tag("rindex", "ternary")
	case 1:
		f.line("%s = %s.rfind(%s) - %s.find(%s)", out.name, s.name, c, s.name, c)
		f.tag("rfind", "find")
	default:
		at := f.reserve([]string{"at", "end", "cursor", "upto"})
		f.line("%s = 0", out.name)
		f.line("%s = len(%s)", at, s.name)
		f.line("while True:")
		f.in()
		f.line("%s = %s.rfind(%s, 0, %s)", at, s.name, c, at)
		f.line("if %s == -1:", at)
		f.in()
		f.line("break")
		f.out()
		f.line("%s += 1", out.name)
		f.out()
		f.tag("rfind", "loop", "while", "while-true", "break", "if")
	}
	return out
}
