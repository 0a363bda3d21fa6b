package synth

// Removing affixes with str.removeprefix and str.removesuffix, on one string or on each
// word of a list.

func init() {
	register(
		block{[]string{"strip_affixes", "without_affixes", "unwrap"}, kStr, 3, strRemoveAffix},
		block{[]string{"stem_words", "trim_words", "clip_words"}, kStrList, 2, wordsRemoveAffix},
	)
}

var suffixes = []string{"s", "ed", "ing", "er", "y", "e", "ly", "!", "."}

func strRemoveAffix(f *fn) *variable {
	s := f.use(kStr, flAny)
	g := f.g
	out := f.result(kStr, []string{"stripped", "core_text", "unwrapped", "middle"})
	pre := prefixOf(g, g.subFor(s))
	if v, ok := known[string](s); ok && len(v) > 0 && g.chance(0.6) {
		pre = v[:min(len(v), g.between(1, 3))]
	}
	suf := pick(g, suffixes)
	if v, ok := known[string](s); ok && len(v) > 1 && g.chance(0.5) {
		suf = v[len(v)-g.between(1, 2):]
	}
	switch g.intn(3) {
	case 0:
		f.line("%s = %s.removeprefix(%s).removesuffix(%s)", out.name, s.name, g.str(pre), g.str(suf))
	case 1:
		f.line("%s = %s.removesuffix(%s)", out.name, s.name, g.str(suf))
		f.line("if %s == %s:", out.name, s.name)
		f.in()
		f.line("%s = %s.removeprefix(%s)", out.name, out.name, g.str(pre))
		f.out()
		f.tag("if")
	default:
		f.line("%s = %s.removeprefix(%s)", out.name, s.name, g.str(pre))
	}
	f.tag("removeprefix")
	return out
}

func wordsRemoveAffix(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	g := f.g
	out := f.result(kStrList, []string{"stems", "clipped", "trimmed_words", "roots"})
	w := f.reserve(strElemNames)
	suf := pick(g, suffixes)
	if g.chance(0.5) {
		f.line("%s = [%s.removesuffix(%s) for %s in %s]", out.name, w, g.str(suf), w, ws.name)
		f.tag("comprehension")
	} else {
		f.line("%s = []", out.name)
		f.line("for %s in %s:", w, ws.name)
		f.in()
		f.line("%s.append(%s.removeprefix(%s).removesuffix(%s))", out.name, w, g.str(prefixOf(g, g.wordFor(ws))), g.str(suf))
		f.out()
		f.tag("loop", "for", "append")
	}
	f.tag("removeprefix")
	return out
}
