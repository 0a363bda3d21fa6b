package synth

// Classifying strings with the str.is* tests that the character and word conditions
// use less: isdecimal, isnumeric, isascii, istitle, isspace, alongside the common ones.

func init() {
	register(
		block{[]string{"classify_words", "word_kinds", "shape_of_words"}, kStr, 3, strClassifyWords},
		block{[]string{"number_or_size", "read_amount", "value_of_text"}, kStr, 2, strDecimalOrLen},
		block{[]string{"title_fix", "as_title", "headline"}, kStr, 2, strTitleCheck},
	)
}

// strClassifyWords builds a signature of a text, one mark per word.
func strClassifyWords(f *fn) *variable {
	s := f.use(kStr, flSentence)
	g := f.g
	out := f.result(kStr, []string{"shape", "signature", "kinds", "marks"})
	w := f.reserve(strElemNames)
	tests := []string{"isdecimal", "istitle", "isnumeric", "isalpha", "isupper", "isascii", "islower"}
	g.r.Shuffle(len(tests), func(i, j int) { tests[i], tests[j] = tests[j], tests[i] })
	f.line("%s = ''", out.name)
	f.line("for %s in %s.split():", w, s.name)
	f.in()
	f.line("if %s.%s():", w, tests[0])
	f.in()
	f.line("%s += %s", out.name, g.str(pick(g, []string{"D", "T", "N", "#"})))
	f.out()
	f.line("elif %s.%s():", w, tests[1])
	f.in()
	f.line("%s += %s", out.name, g.str(pick(g, []string{"a", "t", "w"})))
	f.out()
	f.line("else:")
	f.in()
	f.line("%s += %s[:1]", out.name, w)
	f.out()
	f.out()
	f.tag("loop", "for", "if", "elif", "split")
	return out
}

// strDecimalOrLen reads a number from a text when it is one, else measures it.
func strDecimalOrLen(f *fn) *variable {
	s := f.use(kStr, pick(f.g, []flavor{flDigits, flDigits, flAny}))
	g := f.g
	out := f.result(kInt, []string{"amount", "reading", "quantity", "num_value"})
	switch g.intn(3) {
	case 0:
		f.line("%s = int(%s) if %s.isdecimal() else len(%s)", out.name, s.name, s.name, s.name)
		f.tag("ternary")
	case 1:
		f.line("if %s.isnumeric() and %s.isascii():", s.name, s.name)
		f.in()
		f.line("%s = int(%s) %% %d", out.name, s.name, g.between(7, 100))
		f.out()
		f.line("else:")
		f.in()
		f.line("%s = -len(%s)", out.name, s.name)
		f.out()
		f.tag("if")
	default:
		c := f.reserve(charElemNames)
		f.line("%s = sum(int(%s) for %s in %s if %s.isdecimal())", out.name, c, c, s.name, c)
		f.tag("genexpr")
	}
	return out
}

// strTitleCheck title-cases a text unless it already is, or counts words that are.
func strTitleCheck(f *fn) *variable {
	s := f.use(kStr, flSentence)
	g := f.g
	if g.chance(0.5) {
		out := f.result(kStr, []string{"titled", "heading", "caption"})
		f.line("%s = %s if %s.istitle() else %s.title()", out.name, s.name, s.name, s.name)
		if g.chance(0.5) {
			f.line("%s = %s.strip() if %s.isspace() is False else %s", out.name, out.name, out.name, g.str(""))
		}
		f.tag("ternary", "title")
		return out
	}
	out := f.result(kInt, []string{"titled_count", "caps_count", "proper_count"})
	w := f.reserve(strElemNames)
	f.line("%s = len([%s for %s in %s.split() if %s.istitle()])", out.name, w, w, s.name, w)
	f.tag("comprehension", "split")
	return out
}
