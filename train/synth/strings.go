package synth

import "fmt"

// String templates: character loops, split/join, replace, find, partition, padding,
// case changes, slicing, simple encodings.

func init() {
	register(
		block{[]string{"count_matches", "count_chars", "tally_chars", "score_text"}, kStr, 6, strCount},
		block{[]string{"keep_chars", "filter_text", "strip_unwanted", "select_chars"}, kStr, 5, strFilter},
		block{[]string{"map_chars", "recode", "translate_text", "rewrite"}, kStr, 5, strMapChars},
		block{[]string{"split_text", "tokenize", "break_up", "chop"}, kStr, 6, strSplit},
		block{[]string{"join_words", "glue_words", "assemble", "stitch"}, kStrList, 8, strJoin},
		block{[]string{"apply_replacements", "substitute", "swap_chars"}, kStr, 4, strReplace},
		block{[]string{"find_all", "locate_all", "positions_of"}, kStr, 3, strFindAll},
		block{[]string{"split_once", "cut_at", "divide_text"}, kStr, 3, strPartition},
		block{[]string{"pad_text", "frame_text", "widen"}, kStr, 3, strPad},
		block{[]string{"trim_affixes", "drop_affixes", "clean_edges"}, kStr, 3, strAffixes},
		block{[]string{"count_pieces", "measure_text"}, kStr, 3, strCountSub},
		block{[]string{"is_palindrome", "reads_same", "check_mirror"}, kStr, 3, strPalindrome},
		block{[]string{"run_length", "compress", "encode_runs"}, kStr, 3, strRunLength},
		block{[]string{"char_counts", "histogram", "letter_freq"}, kStr, 4, strFreq},
		block{[]string{"extract_digits", "digits_in", "pull_numbers"}, kStr, 3, strDigits},
		block{[]string{"rotate_letters", "shift_letters", "cipher"}, kStr, 2, strCaesar},
		block{[]string{"initials", "acronym", "first_letters"}, kStr, 2, strAcronym},
		block{[]string{"restyle", "change_case", "fix_case"}, kStr, 3, strCase},
		block{[]string{"slice_text", "cut_text", "sample_chars"}, kStr, 4, strSlice},
		block{[]string{"word_lengths", "measure_words"}, kStr, 3, strWordLengths},
		block{[]string{"head_before", "prefix_until", "text_before"}, kStr, 2, strFindSlice},
		block{[]string{"make_label", "describe", "render"}, kStr, 3, strFormat},
		block{[]string{"to_number", "read_number", "as_int"}, kStr, 2, strToInt},
		block{[]string{"balanced", "check_brackets", "brackets_ok"}, kStr, 2, strBrackets},
		block{[]string{"longest_word", "pick_longest", "widest_word"}, kStrList, 3, strLongest},
		block{[]string{"common_chars", "shared_letters", "overlap_chars"}, kStr, 2, strCommonChars},
	)
}

func strCount(f *fn) *variable {
	s := f.use(kStr, flMixed)
	n := f.result(kInt, []string{"count", "hits", "total", "matches", "found_count", "tally"})
	switch f.g.intn(4) {
	case 0:
		c := f.reserve(charElemNames)
		f.line("%s = 0", n.name)
		f.line("for %s in %s:", c, s.name)
		f.in()
		f.line("if %s:", f.pred(kChar, c, s))
		f.in()
		f.line("%s += %d", n.name, f.g.between(1, 2))
		f.out()
		f.maybePrint(c, n.name)
		f.out()
		f.tag("loop", "for", "if")
	case 1:
		c := f.reserve(charElemNames)
		f.line("%s = sum(1 for %s in %s if %s)", n.name, c, s.name, f.pred(kChar, c, s))
		f.tag("genexpr")
	case 2:
		c := f.reserve(charElemNames)
		f.line("%s = len([%s for %s in %s if %s])", n.name, c, c, s.name, f.pred(kChar, c, s))
		f.tag("comprehension")
	default:
		i := f.reserve(indexNames)
		f.line("%s = 0", n.name)
		f.line("%s = 0", i)
		f.line("while %s < len(%s):", i, s.name)
		f.in()
		f.line("if %s:", f.pred(kChar, s.name+"["+i+"]", s))
		f.in()
		f.line("%s += 1", n.name)
		f.out()
		f.line("%s += 1", i)
		f.out()
		f.tag("loop", "while", "if")
	}
	return n
}

func strFilter(f *fn) *variable {
	s := f.use(kStr, flMixed)
	out := f.result(kStr, []string{"kept", "cleaned", "filtered", "picked", "letters_only", "residue"})
	c := f.reserve(charElemNames)
	switch f.g.intn(3) {
	case 0:
		f.line("%s = ''.join(%s for %s in %s if %s)", out.name, c, c, s.name, f.pred(kChar, c, s))
		f.tag("genexpr")
	case 1:
		f.line("%s = ''", out.name)
		f.line("for %s in %s:", c, s.name)
		f.in()
		f.line("if %s:", f.pred(kChar, c, s))
		f.in()
		f.line("continue")
		f.out()
		f.line("%s += %s", out.name, c)
		f.out()
		f.tag("loop", "for", "continue", "if")
	default:
		f.line("%s = ''.join([%s for %s in %s if not %s])", out.name, c, c, s.name, f.pred(kChar, c, s))
		f.tag("comprehension")
	}
	return out
}

func strMapChars(f *fn) *variable {
	s := f.use(kStr, flMixed)
	out := f.result(kStr, []string{"encoded", "converted", "mapped", "shaped", "rewritten", "styled"})
	c := f.reserve(charElemNames)
	switch f.g.intn(3) {
	case 0:
		f.line("%s = ''", out.name)
		f.line("for %s in %s:", c, s.name)
		f.in()
		f.line("if %s:", f.charCond(c, s))
		f.in()
		f.line("%s += %s", out.name, f.mapped(kChar, c))
		f.out()
		if f.g.chance(0.5) {
			f.line("elif %s:", f.charCond(c, s))
			f.in()
			f.line("%s += %s", out.name, f.charMap(c))
			f.out()
			f.tag("elif")
		}
		f.line("else:")
		f.in()
		f.line("%s += %s", out.name, c)
		f.out()
		f.out()
		f.tag("loop", "for", "if")
	case 1:
		f.line("%s = ''.join([%s for %s in %s])", out.name, f.mapped(kChar, c), c, s.name)
		f.tag("comprehension")
	default:
		i := f.reserve(indexNames)
		f.line("%s = ''", out.name)
		f.line("for %s, %s in enumerate(%s):", i, c, s.name)
		f.in()
		f.line("%s += %s if %s %% %d == 0 else %s", out.name, f.charMap(c), i, f.g.between(2, 3), c)
		f.out()
		f.tag("loop", "for", "enumerate", "unpacking")
	}
	return out
}

func strSplit(f *fn) *variable {
	fl := flSentence
	if f.g.chance(0.4) {
		fl = flCSV
	}
	s := f.use(kStr, fl)
	out := f.result(kStrList, []string{"parts", "words", "pieces", "tokens", "fields", "chunks"})
	sep := f.g.str(f.g.sepFor(s))
	switch f.g.intn(6) {
	case 0:
		f.line("%s = %s.split()", out.name, s.name)
	case 1:
		f.line("%s = %s.split(%s)", out.name, s.name, sep)
	case 2:
		f.line("%s = %s.strip().lower().split(%s)", out.name, s.name, sep)
	case 3:
		f.line("%s = %s.split(%s, %d)", out.name, s.name, sep, f.g.between(1, 2))
	case 4:
		f.line("%s = %s.rsplit(%s, 1)", out.name, s.name, sep)
	default:
		w := f.reserve(strElemNames)
		f.line("%s = [%s.strip() for %s in %s.split(%s) if %s]", out.name, w, w, s.name, sep, w)
		f.tag("comprehension")
	}
	f.tag("split")
	return out
}

func strJoin(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kStr, []string{"joined", "line", "sentence", "glued", "phrase_out", "combined"})
	sep := f.g.str(pick(f.g, []string{" ", "-", ", ", "", "/", "_", "+"}))
	w := f.reserve(strElemNames)
	switch f.g.intn(5) {
	case 0:
		f.line("%s = %s.join(%s)", out.name, sep, ws.name)
	case 1:
		f.line("%s = %s.join(%s for %s in %s)", out.name, sep, f.mapped(kStr, w), w, ws.name)
		f.tag("genexpr")
	case 2:
		f.line("%s = %s.join(sorted(%s))", out.name, sep, ws.name)
	case 3:
		f.line("%s = %s.join(reversed(%s))", out.name, sep, ws.name)
		f.tag("reversed")
	default:
		f.line("%s = ''", out.name)
		f.line("for %s in %s:", w, ws.name)
		f.in()
		f.line("if %s:", f.pred(kStr, w, ws))
		f.in()
		f.line("%s += %s + %s", out.name, w, sep)
		f.out()
		f.out()
		f.line("%s = %s.rstrip(%s)", out.name, out.name, sep)
		f.tag("loop", "for", "if")
	}
	f.tag("join")
	return out
}

func strReplace(f *fn) *variable {
	s := f.use(kStr, flAny)
	out := f.result(kStr, []string{"fixed", "patched", "swapped", "masked", "edited", "scrubbed"})
	g := f.g
	if g.chance(0.4) {
		old, neu := f.reserve([]string{"old", "src_ch", "before"}), f.reserve([]string{"new", "dst_ch", "after"})
		f.line("%s = %s", out.name, s.name)
		f.line("for %s, %s in [(%s, %s), (%s, %s)]:", old, neu, g.str(g.charFor(s)), g.str(pick(g, []string{"*", "0", "_", "", "ee"})), g.str(g.subFor(s)), g.str(pick(g, []string{"#", "1", "", "-"})))
		f.in()
		f.line("%s = %s.replace(%s, %s)", out.name, out.name, old, neu)
		f.out()
		f.tag("loop", "for", "unpacking", "tuple")
	} else {
		f.line("%s = %s.replace(%s, %s)", out.name, s.name, g.str(g.subFor(s)), g.str(pick(g, []string{"", "_", "X", "!", "..", "0"})))
		if g.chance(0.5) {
			f.line("%s = %s.replace(%s, %s, %d)", out.name, out.name, g.str(g.charFor(s)), g.str(pick(g, []string{"+", "", "Y"})), g.between(1, 2))
		}
	}
	f.tag("replace")
	return out
}

func strFindAll(f *fn) *variable {
	s := f.use(kStr, flAny)
	out := f.result(kIntList, []string{"positions", "spots", "offsets", "where", "hits_at"})
	at := f.reserve([]string{"at", "pos", "idx", "found_at", "cursor"})
	target := f.g.str(f.g.charFor(s))
	if f.g.chance(0.3) {
		target = f.g.str(f.g.subFor(s))
	}
	f.line("%s = []", out.name)
	f.line("%s = %s.find(%s)", at, s.name, target)
	f.line("while %s != -1:", at)
	f.in()
	f.line("%s.append(%s)", out.name, at)
	f.line("%s = %s.find(%s, %s + 1)", at, s.name, target, at)
	f.out()
	f.tag("loop", "while", "find")
	return out
}

func strPartition(f *fn) *variable {
	s := f.use(kStr, flCSV)
	g := f.g
	head, sep, tail := f.reserve([]string{"head", "before", "left"}), f.reserve([]string{"sep", "mid", "found"}), f.reserve([]string{"tail", "after", "right"})
	method := pick(g, []string{"partition", "partition", "rpartition"})
	f.line("%s, %s, %s = %s.%s(%s)", head, sep, tail, s.name, method, g.str(g.sepFor(s)))
	out := f.result(kStr, []string{"swapped", "rest", "piece", "reordered", "cut"})
	switch g.intn(4) {
	case 0:
		f.line("%s = %s + %s + %s", out.name, tail, sep, head)
	case 1:
		f.line("%s = %s if %s else %s", out.name, tail, sep, head)
	case 2:
		f.line("%s = %s.strip() + %s", out.name, head, g.str(pick(g, []string{"|", "=", ""})))
	default:
		f.line("if %s:", sep)
		f.in()
		f.line("%s = %s.upper() + %s", out.name, head, tail)
		f.out()
		f.line("else:")
		f.in()
		f.line("%s = %s", out.name, head)
		f.out()
		f.tag("if")
	}
	f.tag("partition", "unpacking")
	return out
}

func strPad(f *fn) *variable {
	g := f.g
	out := f.result(kStr, []string{"padded", "framed", "boxed", "aligned", "banner"})
	if g.chance(0.3) {
		n := f.use(kInt, flAny)
		f.line("%s = str(%s).zfill(%d)", out.name, n.name, g.between(3, 6))
		f.tag("zfill")
		return out
	}
	s := f.use(kStr, flWord)
	w := g.threshold(s) + g.between(1, 5)
	switch g.intn(4) {
	case 0:
		f.line("%s = %s.center(%d, %s)", out.name, s.name, w, g.str(pick(g, []string{"*", "-", "=", "."})))
		f.tag("center")
	case 1:
		f.line("%s = %s.zfill(%d)", out.name, s.name, w)
		f.tag("zfill")
	case 2:
		f.line("%s = %s.ljust(%d, %s) + %s.rjust(%d)", out.name, s.name, w, g.str("."), g.str("|"), g.between(2, 4))
	default:
		f.line("%s = '[' + %s.rjust(%d) + ']'", out.name, s.name, w)
	}
	return out
}

func strAffixes(f *fn) *variable {
	s := f.use(kStr, flWord)
	g := f.g
	out := f.result(kStr, []string{"trimmed", "core", "stem", "bare", "inner"})
	pre := prefixOf(g, g.subFor(s))
	if v, ok := known[string](s); ok && len(v) > 0 && g.chance(0.5) {
		pre = v[:min(len(v), g.between(1, 2))]
	}
	f.line("%s = %s", out.name, s.name)
	if g.chance(0.5) {
		f.line("while %s.startswith(%s):", out.name, g.str(pre))
		f.in()
		f.line("%s = %s[%d:]", out.name, out.name, len(pre))
		f.out()
		f.tag("loop", "while")
	} else {
		f.line("if %s.startswith(%s):", out.name, g.str(pre))
		f.in()
		f.line("%s = %s[%d:]", out.name, out.name, len(pre))
		f.out()
	}
	suf := pick(g, []string{"s", "ed", "ing", "er", "y", "e"})
	f.line("if %s.endswith(%s) and len(%s) > %d:", out.name, g.str(suf), out.name, len(suf)+g.between(0, 2))
	f.in()
	f.line("%s = %s[:-%d]", out.name, out.name, len(suf))
	f.out()
	f.tag("if", "startswith", "slicing")
	return out
}

func strCountSub(f *fn) *variable {
	s := f.use(kStr, flAny)
	g := f.g
	out := f.result(kInt, []string{"score", "weight", "tally", "measure", "points"})
	a := g.str(g.subFor(s))
	switch g.intn(3) {
	case 0:
		f.line("%s = %s.count(%s) * %d + %s.lower().count(%s)", out.name, s.name, a, g.between(2, 5), s.name, g.str(g.charFor(s)))
	case 1:
		f.line("%s = len(%s) - %s.count(%s)", out.name, s.name, s.name, a)
	default:
		f.line("%s = %s.count(%s)", out.name, s.name, a)
		f.line("if %s.find(%s) > %d:", s.name, g.str(g.charFor(s)), g.between(0, 3))
		f.in()
		f.line("%s += %d", out.name, g.between(5, 20))
		f.out()
		f.tag("if", "find")
	}
	f.tag("count")
	return out
}

func strPalindrome(f *fn) *variable {
	s := f.use(kStr, flWord)
	out := f.result(kBool, []string{"ok", "same", "mirrored", "symmetric", "is_pal"})
	if f.g.chance(0.5) {
		t := f.reserve([]string{"cleaned", "letters", "core_text", "norm"})
		c := f.reserve(charElemNames)
		f.line("%s = ''.join(%s.lower() for %s in %s if %s.isalnum())", t, c, c, s.name, c)
		f.line("%s = %s == %s[::-1]", out.name, t, t)
		f.tag("genexpr", "slicing")
		return out
	}
	lo, hi := f.reserve([]string{"lo", "left", "i"}), f.reserve([]string{"hi", "right", "j"})
	f.line("%s, %s = 0, len(%s) - 1", lo, hi, s.name)
	f.line("%s = True", out.name)
	f.line("while %s < %s:", lo, hi)
	f.in()
	f.line("if %s[%s] != %s[%s]:", s.name, lo, s.name, hi)
	f.in()
	f.line("%s = False", out.name)
	f.line("break")
	f.out()
	f.line("%s += 1", lo)
	f.line("%s -= 1", hi)
	f.out()
	f.tag("loop", "while", "break", "unpacking", "if")
	return out
}

func strRunLength(f *fn) *variable {
	s := f.use(kStr, flMixed)
	out := f.result(kStr, []string{"encoded", "packed", "runs", "squeezed"})
	i, j := f.reserve([]string{"i", "start"}), f.reserve([]string{"j", "end"})
	f.line("%s = ''", out.name)
	f.line("%s = 0", i)
	f.line("while %s < len(%s):", i, s.name)
	f.in()
	f.line("%s = %s", j, i)
	f.line("while %s < len(%s) and %s[%s] == %s[%s]:", j, s.name, s.name, j, s.name, i)
	f.in()
	f.line("%s += 1", j)
	f.out()
	if f.g.chance(0.5) {
		f.line("%s += %s[%s] + str(%s - %s)", out.name, s.name, i, j, i)
	} else {
		f.line("%s += str(%s - %s) + %s[%s]", out.name, j, i, s.name, i)
	}
	f.line("%s = %s", i, j)
	f.out()
	f.tag("loop", "while", "nested-loop")
	return out
}

func strFreq(f *fn) *variable {
	s := f.use(kStr, flAny)
	out := f.result(kDict, []string{"freq", "counts", "tally", "histogram", "seen_count"})
	c := f.reserve(charElemNames)
	switch f.g.intn(4) {
	case 0:
		f.line("%s = {}", out.name)
		f.line("for %s in %s:", c, s.name)
		f.in()
		f.line("%s[%s] = %s.get(%s, 0) + 1", out.name, c, out.name, c)
		f.out()
		f.tag("get")
	case 1:
		f.line("%s = {}", out.name)
		f.line("for %s in %s:", c, s.name)
		f.in()
		f.line("if %s in %s:", c, out.name)
		f.in()
		f.line("%s[%s] += 1", out.name, c)
		f.out()
		f.line("else:")
		f.in()
		f.line("%s[%s] = 1", out.name, c)
		f.out()
		f.out()
		f.tag("if")
	case 2:
		f.line("%s = {%s: %s.count(%s) for %s in %s if %s}", out.name, c, s.name, c, c, s.name, f.charCond(c, s))
		f.tag("dictcomp")
	default:
		f.line("%s = {}", out.name)
		f.line("for %s in %s.lower():", c, s.name)
		f.in()
		f.line("%s.setdefault(%s, 0)", out.name, c)
		f.line("%s[%s] += 1", out.name, c)
		f.out()
		f.tag("setdefault")
	}
	f.tag("loop", "for", "dict")
	return out
}

func strDigits(f *fn) *variable {
	s := f.use(kStr, flMixed)
	out := f.result(kIntList, []string{"digits", "numbers", "found_digits", "figures"})
	c := f.reserve(charElemNames)
	if f.g.chance(0.6) {
		f.line("%s = [int(%s) for %s in %s if %s.isdigit()]", out.name, c, c, s.name, c)
		f.tag("comprehension")
	} else {
		f.line("%s = []", out.name)
		f.line("for %s in %s:", c, s.name)
		f.in()
		f.line("if not %s.isdigit():", c)
		f.in()
		f.line("continue")
		f.out()
		f.line("%s.append(int(%s) * %d)", out.name, c, f.g.between(1, 3))
		f.out()
		f.tag("loop", "for", "continue")
	}
	f.tag("isdigit")
	return out
}

func strCaesar(f *fn) *variable {
	s := f.use(kStr, flWord)
	out := f.result(kStr, []string{"shifted", "rotated", "scrambled", "ciphered"})
	c := f.reserve(charElemNames)
	k := f.g.between(1, 25)
	f.line("%s = ''", out.name)
	f.line("for %s in %s:", c, s.name)
	f.in()
	f.line("if %s.islower():", c)
	f.in()
	f.line("%s += chr((ord(%s) - ord('a') + %d) %% 26 + ord('a'))", out.name, c, k)
	f.out()
	if f.g.chance(0.5) {
		f.line("elif %s.isupper():", c)
		f.in()
		f.line("%s += chr((ord(%s) - ord('A') + %d) %% 26 + ord('A'))", out.name, c, k)
		f.out()
		f.tag("elif")
	}
	f.line("else:")
	f.in()
	f.line("%s += %s", out.name, c)
	f.out()
	f.out()
	f.tag("loop", "for", "if")
	return out
}

func strAcronym(f *fn) *variable {
	s := f.use(kStr, flSentence)
	out := f.result(kStr, []string{"initials", "short", "abbrev", "acro"})
	w := f.reserve(strElemNames)
	if f.g.chance(0.5) {
		f.line("%s = ''.join(%s[0].upper() for %s in %s.split())", out.name, w, w, s.name)
		f.tag("genexpr")
	} else {
		f.line("%s = ''", out.name)
		f.line("for %s in %s.split():", w, s.name)
		f.in()
		f.line("if %s:", f.wordCond(w, nil))
		f.in()
		f.line("%s += %s[0]", out.name, w)
		f.out()
		f.line("else:")
		f.in()
		f.line("%s += %s[-1].upper()", out.name, w)
		f.out()
		f.out()
		f.tag("loop", "for", "if")
	}
	f.tag("split")
	return out
}

func strCase(f *fn) *variable {
	s := f.use(kStr, flSentence)
	out := f.result(kStr, []string{"styled", "shown", "normalized", "pretty", "cased"})
	g := f.g
	chain := []string{".strip()", ".lower()", ".upper()", ".title()", ".capitalize()", ".swapcase()", ".lstrip()", ".rstrip(" + g.str(".!") + ")"}
	n := g.between(1, 3)
	expr := s.name
	for range n {
		expr += pick(g, chain)
	}
	f.line("%s = %s", out.name, expr)
	if g.chance(0.3) {
		f.line("if %s.isupper():", out.name)
		f.in()
		f.line("%s = %s.lower()", out.name, out.name)
		f.out()
		f.tag("if")
	}
	return out
}

func strSlice(f *fn) *variable {
	s := f.use(kStr, flAny)
	out := f.result(kStr, []string{"sliced", "sample", "snippet", "part", "rotated"})
	g := f.g
	k := g.between(1, 4)
	exprs := []string{
		fmt.Sprintf("%s[::2]", s.name),
		fmt.Sprintf("%s[1::2] + %s[::2]", s.name, s.name),
		fmt.Sprintf("%s[::-1]", s.name),
		fmt.Sprintf("%s[%d:] + %s[:%d]", s.name, k, s.name, k),
		fmt.Sprintf("%s[-%d:] + %s[:-%d]", s.name, k, s.name, k),
		fmt.Sprintf("%s[%d:-%d]", s.name, k, g.between(1, 2)),
		fmt.Sprintf("%s[:%d][::-1] + %s[%d:]", s.name, k, s.name, k),
		fmt.Sprintf("%s[len(%s) // 2:] + %s[:len(%s) // 2]", s.name, s.name, s.name, s.name),
	}
	f.line("%s = %s", out.name, pick(g, exprs))
	f.tag("slicing")
	return out
}

func strWordLengths(f *fn) *variable {
	s := f.use(kStr, flSentence)
	out := f.result(kIntList, []string{"lengths", "sizes", "widths", "word_sizes"})
	w := f.reserve(strElemNames)
	if f.g.chance(0.6) {
		f.line("%s = [len(%s) for %s in %s.split()]", out.name, w, w, s.name)
		f.tag("comprehension")
	} else {
		f.line("%s = list(map(len, %s.split(%s)))", out.name, s.name, f.g.str(f.g.sepFor(s)))
		f.tag("map")
	}
	f.tag("split")
	return out
}

func strFindSlice(f *fn) *variable {
	s := f.use(kStr, flCSV)
	g := f.g
	at := f.reserve([]string{"cut", "stop_at", "mark_at", "split_at"})
	out := f.result(kStr, []string{"head", "lead", "front", "prefix_part"})
	f.line("%s = %s.find(%s)", at, s.name, g.str(g.sepFor(s)))
	if g.chance(0.5) {
		f.line("%s = %s[:%s] if %s != -1 else %s", out.name, s.name, at, at, s.name)
	} else {
		f.line("if %s >= 0:", at)
		f.in()
		f.line("%s = %s[%s + 1:]", out.name, s.name, at)
		f.out()
		f.line("else:")
		f.in()
		f.line("%s = %s.upper()", out.name, s.name)
		f.out()
		f.tag("if")
	}
	f.tag("find", "slicing")
	return out
}

func strFormat(f *fn) *variable {
	s := f.use(kStr, flWord)
	n := f.use(kInt, flAny)
	g := f.g
	out := f.result(kStr, []string{"label", "caption", "line_out", "tagline", "summary_text"})
	switch g.intn(4) {
	case 0:
		f.line("%s = '{}={}'.format(%s, %s)", out.name, s.name, n.name)
		f.tag("format")
	case 1:
		f.line("%s = '{0}:{1}:{0}'.format(%s, %s %% %d)", out.name, s.name, n.name, g.between(3, 9))
		f.tag("format")
	case 2:
		f.line("%s = f'{%s}#{%s * %d}'", out.name, s.name, n.name, g.between(2, 4))
		f.tag("fstring")
	default:
		f.line("%s = '%%s-%%d' %% (%s, %s)", out.name, s.name, n.name)
	}
	return out
}

func strToInt(f *fn) *variable {
	s := f.use(kStr, flDigits)
	out := f.result(kInt, []string{"number", "parsed", "amount_read", "val"})
	if f.g.chance(0.5) {
		f.line("%s = int(%s) if %s.isdigit() else len(%s)", out.name, s.name, s.name, s.name)
	} else {
		f.line("%s = 0", out.name)
		c := f.reserve(charElemNames)
		f.line("for %s in %s:", c, s.name)
		f.in()
		f.line("if %s.isdigit():", c)
		f.in()
		f.line("%s = %s * 10 + int(%s)", out.name, out.name, c)
		f.out()
		f.line("else:")
		f.in()
		f.line("break")
		f.out()
		f.out()
		f.tag("loop", "for", "break", "if")
	}
	f.tag("isdigit")
	return out
}

func strBrackets(f *fn) *variable {
	s := f.use(kStr, flBrackets)
	stack := f.reserve([]string{"stack", "opened", "pending"})
	pairs := f.reserve([]string{"pairs", "closer", "partner"})
	out := f.result(kBool, []string{"ok", "balanced", "valid", "well_formed"})
	c := f.reserve(charElemNames)
	f.line("%s = []", stack)
	f.line("%s = {')': '(', ']': '[', '}': '{'}", pairs)
	f.line("%s = True", out.name)
	f.line("for %s in %s:", c, s.name)
	f.in()
	f.line("if %s in '([{':", c)
	f.in()
	f.line("%s.append(%s)", stack, c)
	f.out()
	f.line("elif %s in %s:", c, pairs)
	f.in()
	f.line("if not %s or %s.pop() != %s[%s]:", stack, stack, pairs, c)
	f.in()
	f.line("%s = False", out.name)
	f.line("break")
	f.out()
	f.out()
	f.out()
	f.line("%s = %s and not %s", out.name, out.name, stack)
	f.tag("loop", "for", "if", "elif", "break", "stack", "dict")
	return out
}

func strLongest(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	out := f.result(kStr, []string{"longest", "best", "widest", "champion"})
	w := f.reserve(strElemNames)
	switch f.g.intn(3) {
	case 0:
		f.line("%s = max(%s, key=len) if %s else ''", out.name, ws.name, ws.name)
	case 1:
		f.line("%s = ''", out.name)
		f.line("for %s in %s:", w, ws.name)
		f.in()
		f.line("if len(%s) %s len(%s):", w, pick(f.g, []string{">", ">="}), out.name)
		f.in()
		f.line("%s = %s", out.name, w)
		f.out()
		f.out()
		f.tag("loop", "for", "if")
	default:
		f.line("%s = min(%s, key=lambda %s: (-len(%s), %s), default='')", out.name, ws.name, w, w, w)
		f.tag("lambda")
	}
	return out
}

func strCommonChars(f *fn) *variable {
	a := f.use(kStr, flWord)
	b := f.useExcept(kStr, flWord, a)
	out := f.result(kStrList, []string{"shared", "common", "overlap", "both"})
	op := pick(f.g, []string{"&", "|", "-", "^"})
	f.line("%s = sorted(set(%s) %s set(%s))", out.name, a.name, op, b.name)
	f.tag("set")
	return out
}
