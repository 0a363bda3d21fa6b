package synth

// Rebinding an input and handing it back: `text = text.upper()` under a condition that
// may not hold, an item appended to or removed from the list that came in, a key set in
// the dict that came in, and then the input's own name as the result, so that a
// function often ends in `return text`. A function returning its (possibly unchanged)
// parameter is one of the commonest shapes of CruxEval's dev split (a quarter of its
// functions) and was in none of the generated programs before these templates.

func init() {
	register(
		block{[]string{"normalize_text", "adjust", "fix_up"}, kStr, 4, rebindBlock(kStr)},
		block{[]string{"patch_numbers", "amend", "top_up"}, kIntList, 3, rebindBlock(kIntList)},
		block{[]string{"patch_words", "amend_words"}, kStrList, 2, rebindBlock(kStrList)},
		block{[]string{"patch_counts", "amend_counts"}, kDict, 2, rebindBlock(kDict)},
	)
}

// rebinders change an input of their kind under a condition and hand it back.
var rebinders = map[kind]func(f *fn, v *variable) *variable{
	kStr:     strRebind,
	kIntList: listRebind,
	kStrList: wordsRebind,
	kDict:    dictRebind,
}

func rebindBlock(k kind) func(f *fn) *variable {
	return func(f *fn) *variable { return rebinders[k](f, f.rebindInput(k, flAny)) }
}

// finalRebind, in some programs, rebinds one of f's parameters as f's last step, so
// that f returns it (handBack): the shape of a function that fixes up its input when
// a condition holds and returns it, changed or not.
func (f *fn) finalRebind() {
	if f.depth > 0 || f.p.mode != modeNormal || !f.g.chance(0.2) {
		return
	}
	if p := f.readyParam(func(p *variable) bool { return rebinders[p.k] != nil }); p != nil {
		f.produce(rebinders[p.k](f, p))
	}
}

// readyParam picks, and counts a use of, one of f's parameters that still holds its
// value and that keep accepts; nil when there is none.
func (f *fn) readyParam(keep func(*variable) bool) *variable {
	var ps []*variable
	for _, p := range f.params {
		if p.ready && keep(p) {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	p := pick(f.g, ps)
	p.uses++
	return p
}

// rebound retires v, an input this block has rebound or changed in place, and returns
// the variable that now holds the name: later templates read the new one, never the
// value the old one knew.
func (f *fn) rebound(v *variable) *variable {
	f.mutate(v)
	v.ready = false
	k := v.k
	if k == kChar {
		k = kStr
	}
	nv := &variable{name: v.name, k: k, handedBack: (v.param || v.handedBack) && f.depth == 0}
	f.vars = append(f.vars, nv)
	return nv
}

// rebindInput returns the variable a rebinding block reads: in f, usually a parameter.
func (f *fn) rebindInput(k kind, fl flavor) *variable {
	if f.depth == 0 && f.g.chance(0.7) {
		if p := f.readyParam(func(p *variable) bool { return p.k == k }); p != nil {
			return p
		}
	}
	return f.use(k, fl)
}

// strRebind rebinds a str once or twice, the first time under a condition.
func strRebind(f *fn, s *variable) *variable {
	g := f.g
	f.line("if %s:", f.wordCond(s.name, s))
	f.in()
	f.line("%s = %s", s.name, f.wordMap(s.name))
	f.out()
	f.tag("if", "rebind")
	switch g.intn(3) {
	case 0:
		f.line("%s = %s", s.name, f.wordMap(s.name))
	case 1:
		f.line("elif %s:", f.wordCond(s.name, s))
		f.in()
		f.line("%s = %s", s.name, f.wordMap(s.name))
		f.out()
		f.tag("elif")
	}
	return f.rebound(s)
}

// listRebind changes a list of ints in place under a condition.
func listRebind(f *fn, xs *variable) *variable {
	g := f.g
	x := g.elemFor(xs)
	switch g.intn(5) {
	case 0:
		f.line("if %d not in %s:", x, xs.name)
		f.in()
		f.line("%s.append(%d)", xs.name, x)
		f.tag("append")
	case 1:
		f.line("if %d in %s:", x, xs.name)
		f.in()
		f.line("%s.remove(%d)", xs.name, x)
		f.tag("remove")
	case 2:
		f.line("if len(%s) > %d:", xs.name, g.between(1, 5))
		f.in()
		f.line("%s.pop()", xs.name)
		f.tag("pop")
	case 3:
		f.line("if %s and %s:", xs.name, f.intCond(xs.name+"[0]", xs))
		f.in()
		f.line("%s.insert(0, %s[-1])", xs.name, xs.name)
		f.tag("insert")
	default:
		f.line("if %s != sorted(%s):", xs.name, xs.name)
		f.in()
		f.line("%s.sort()", xs.name)
		f.tag("sort")
	}
	f.out()
	f.tag("if", "rebind")
	return f.rebound(xs)
}

// wordsRebind changes a list of strs in place under a condition.
func wordsRebind(f *fn, ws *variable) *variable {
	g := f.g
	w := g.wordFor(ws)
	switch g.intn(3) {
	case 0:
		f.line("if %s not in %s:", g.str(w), ws.name)
		f.in()
		f.line("%s.append(%s)", ws.name, g.str(w))
		f.tag("append")
	case 1:
		f.line("while %s in %s:", g.str(w), ws.name)
		f.in()
		f.line("%s.remove(%s)", ws.name, g.str(w))
		f.tag("remove", "while", "loop")
	default:
		n := g.between(1, 4)
		if xs, ok := known[[]string](ws); ok {
			n = max(0, len(xs)+g.between(-1, 1))
		}
		f.line("if len(%s) %s %d:", ws.name, pick(g, []string{">", "<", ">="}), n)
		f.in()
		f.line("%s.reverse()", ws.name)
		f.tag("reverse")
	}
	f.out()
	f.tag("if", "rebind")
	return f.rebound(ws)
}

// dictRebind sets or drops one key of a dict in place under a condition.
func dictRebind(f *fn, d *variable) *variable {
	g := f.g
	key := g.str(g.keyFor(d))
	switch g.intn(3) {
	case 0:
		f.line("if %s not in %s:", key, d.name)
		f.in()
		f.line("%s[%s] = %d", d.name, key, g.between(0, 9))
	case 1:
		f.line("if %s in %s:", key, d.name)
		f.in()
		f.line("%s[%s] %s= %d", d.name, key, pick(g, []string{"+", "-", "*"}), g.between(1, 4))
	default:
		f.line("if %s.get(%s, 0) %s:", d.name, key, pick(g, []string{"> 3", "< 5", "== 0", "% 2 == 1"}))
		f.in()
		f.line("%s.pop(%s, None)", d.name, key)
		f.tag("pop")
	}
	f.out()
	f.tag("if", "rebind", "dict")
	return f.rebound(d)
}
