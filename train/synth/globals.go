package synth

// Module-level state: a function that declares a name global, assigns it before any
// read, and accumulates into it.

func init() {
	register(
		block{[]string{"accumulate_global", "record_total", "keep_running"}, kIntList, 1, globalAccumulate},
	)
}

func globalAccumulate(f *fn) *variable {
	xs := f.use(kIntList, flAny)
	out := f.result(kInt, []string{"running_total", "grand_total", "global_count", "tracked"})
	x := f.reserve(intElemNames)
	f.line("global %s", out.name)
	f.line("%s = 0", out.name)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("%s += %s", out.name, f.mapped(kInt, x))
	f.out()
	f.tag("global", "loop", "for")
	return out
}
