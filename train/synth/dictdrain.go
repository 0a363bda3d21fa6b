package synth

// Emptying dicts: popitem until empty, del of selected keys while iterating over a
// copy of the keys, and clear.

func init() {
	register(
		block{[]string{"unstack", "drain_table", "pop_entries"}, kDict, 3, dictPopItems},
		block{[]string{"drop_entries", "purge", "delete_where"}, kDict, 3, dictDelete},
	)
}

// dictPopItems pops entries off a copy (or the input) in last-in, first-out order.
func dictPopItems(f *fn) *variable {
	d := f.use(kDict, flAny)
	g := f.g
	work := d.name
	if !d.param || g.chance(0.5) {
		work = f.reserve([]string{"pending", "work", "remaining_table", "todo"})
		f.line("%s = %s", work, pick(g, []string{d.name + ".copy()", "dict(" + d.name + ")"}))
		f.tag("copy")
	} else {
		f.mutate(d)
	}
	k, v := f.reserve([]string{"k", "key", "name"}), f.reserve([]string{"v", "val", "amount"})
	if g.chance(0.5) {
		out := f.result(kStrList, []string{"order", "popped", "unstacked"})
		f.line("%s = []", out.name)
		f.line("while %s:", work)
		f.in()
		f.line("%s, %s = %s.popitem()", k, v, work)
		f.line("if %s:", f.pred(kInt, v, d))
		f.in()
		f.line("%s.append(%s)", out.name, k)
		f.out()
		f.out()
		f.tag("loop", "while", "if", "unpacking", "popitem", "append")
		return out
	}
	out := f.result(kInt, []string{"last_value", "popped_value", "tail_amount"})
	f.line("%s = 0", out.name)
	f.line("if %s:", work)
	f.in()
	f.line("%s, %s = %s.popitem()", k, v, work)
	f.line("%s = %s + len(%s)", out.name, v, k)
	f.out()
	f.tag("if", "unpacking", "popitem")
	return out
}

// dictDelete removes entries by key, or clears a dict that grew too large.
func dictDelete(f *fn) *variable {
	d := f.use(kDict, flAny)
	g := f.g
	target := d.name
	var out *variable
	if d.param && g.chance(0.5) {
		f.mutate(d)
	} else {
		out = f.result(kDict, []string{"trimmed_table", "pruned", "kept_entries"})
		f.line("%s = %s.copy()", out.name, d.name)
		target = out.name
		f.tag("copy")
	}
	k := f.reserve([]string{"k", "key", "name"})
	switch g.intn(3) {
	case 0:
		f.line("for %s in list(%s.keys()):", k, target)
		f.in()
		f.line("if %s:", f.pred(kInt, target+"["+k+"]", d))
		f.in()
		f.line("del %s[%s]", target, k)
		f.out()
		f.out()
		f.tag("loop", "for", "if", "del", "keys")
	case 1:
		key := g.str(g.keyFor(d))
		f.line("if %s in %s:", key, target)
		f.in()
		f.line("del %s[%s]", target, key)
		f.out()
		f.tag("if", "del")
	default:
		f.line("if len(%s) > %d:", target, g.between(1, 4))
		f.in()
		f.line("%s.clear()", target)
		f.out()
		f.tag("if", "clear")
	}
	return out
}
