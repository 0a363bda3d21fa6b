package synth

// Removing from lists: del by index and by slice, pop at a position, and clear followed
// by a rebuild from a copy.

func init() {
	register(
		block{[]string{"drop_at", "cut_items", "delete_some"}, kIntList, 4, listDelete},
		block{[]string{"rebuild", "refill", "reset_items"}, kIntList, 3, listClearRebuild},
	)
}

func listDelete(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	target, out := f.copyOrInPlace(xs, kIntList, []string{"remaining", "left_over", "survivors", "pruned"})
	for n := g.between(1, 2); n > 0; n-- {
		switch g.intn(5) {
		case 0:
			i := g.between(0, 3)
			f.line("if len(%s) > %d:", target, i)
			f.in()
			f.line("del %s[%d]", target, i)
			f.out()
			f.tag("if", "del")
		case 1:
			f.line("del %s[%s]", target, pick(g, []string{":1", "-1:", "::2", "1::2", ":2", "-2:"}))
			f.tag("del", "slicing")
		case 2:
			f.line("while len(%s) > %d:", target, g.between(2, 5))
			f.in()
			f.line("%s.pop(%s)", target, pick(g, []string{"0", "1", "-2", "len(" + target + ") // 2"}))
			f.out()
			f.tag("loop", "while", "pop")
		case 3:
			i := f.reserve(indexNames)
			f.line("for %s in range(len(%s) - 1, -1, -1):", i, target)
			f.in()
			f.line("if %s:", f.pred(kInt, target+"["+i+"]", xs))
			f.in()
			f.line("del %s[%s]", target, i)
			f.out()
			f.out()
			f.tag("loop", "for", "if", "del")
		default:
			f.line("if %s:", target)
			f.in()
			f.line("%s.insert(0, %s.pop())", target, target)
			f.out()
			f.tag("if", "pop", "insert")
		}
	}
	return out
}

func listClearRebuild(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	g := f.g
	if !xs.param {
		// Clearing a block's result would change nothing a reader sees; work on a copy.
		out := f.result(kIntList, []string{"rebuilt", "refilled", "fresh_items"})
		f.line("%s = %s.copy()", out.name, xs.name)
		f.listClearInto(out.name, xs)
		return out
	}
	f.mutate(xs)
	if g.chance(0.3) {
		f.line("if len(%s) > %d:", xs.name, g.threshold(&variable{}))
		f.in()
		f.line("%s.clear()", xs.name)
		f.out()
		f.tag("if", "clear")
		return nil
	}
	f.listClearInto(xs.name, xs)
	return nil
}

// listClearInto empties the list named target and refills it from a copy of itself.
func (f *fn) listClearInto(target string, src *variable) {
	backup := f.reserve([]string{"backup", "snapshot", "old_items", "before"})
	x := f.reserve(intElemNames)
	f.line("%s = %s.copy()", backup, target)
	f.line("%s.clear()", target)
	f.line("for %s in %s:", x, backup)
	f.in()
	f.line("if %s:", f.pred(kInt, x, src))
	f.in()
	f.line("%s.append(%s)", target, f.mapped(kInt, x))
	f.out()
	f.out()
	f.tag("copy", "clear", "loop", "for", "if", "append")
}
