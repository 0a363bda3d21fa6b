package synth

// Character tables: str.maketrans from two strings, with a deletion set, or from a
// dict, and str.translate through them.

func init() {
	register(
		block{[]string{"translate_chars", "apply_table", "swap_letters"}, kStr, 3, strTranslate},
	)
}

// translatePairs are source and target character sets of equal length.
var translatePairs = [][2]string{
	{"aeio", "4310"}, {"abc", "xyz"}, {"lo", "10"}, {"st", "ts"}, {"ae", "ea"},
	{"xyz", "XYZ"}, {"aeiou", "AEIOU"}, {"mn", "nm"}, {"0123", "abcd"}, {"-,", " ;"},
}

func strTranslate(f *fn) *variable {
	s := f.use(kStr, flAny)
	g := f.g
	out := f.result(kStr, []string{"translated", "swapped_text", "coded", "mapped_text"})
	table := f.reserve([]string{"table", "trans", "mapping_table", "char_map"})
	pair := pick(g, translatePairs)
	switch g.intn(4) {
	case 0:
		f.line("%s = str.maketrans(%s, %s)", table, g.str(pair[0]), g.str(pair[1]))
	case 1:
		f.line("%s = str.maketrans(%s, %s, %s)", table, g.str(pair[0]), g.str(pair[1]), g.str(pick(g, []string{" ", "!", ".", "-", "0"})))
	case 2:
		f.line("%s = str.maketrans('', '', %s)", table, g.str(pick(g, []string{"aeiou", " ", "0123456789", ",;:", "xyz"})))
	default:
		f.line("%s = str.maketrans({%s: %s, %s: None})", table, g.str(pair[0][:1]), g.str(pair[1][:1]), g.str(pair[0][1:2]))
		f.tag("dict")
	}
	f.line("%s = %s.translate(%s)", out.name, s.name, table)
	f.tag("translate")
	return out
}
