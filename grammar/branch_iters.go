package grammar

// The evaluator's iterators: enumerate, zip, reversed and range, and a dict's items,
// keys and values views. Each evaluates to the list of what it yields, so the parser
// takes one only where that list is read whole: as what a comprehension or a `for`
// header iterates over, or as an argument of a builtin that consumes it (consumes).
// Anywhere else (kept in a variable, compared, indexed) its value would be an
// iterator or a view, which the evaluator does not know.

// iterFns are the builtins whose result is an iterator (or a range).
var iterFns = map[string]bool{"enumerate": true, "zip": true, "reversed": true, "range": true}

// viewMethods are the dict methods whose result is a view.
var viewMethods = map[string]bool{"items": true, "keys": true, "values": true}

// isIterNode reports whether x is an iterator the parser counts (p.gens).
func isIterNode(x pyExpr) bool {
	switch n := x.(type) {
	case pyComp:
		return n.gen
	case pyCall:
		return iterFns[n.fn]
	case pyMethod:
		return viewMethods[n.name]
	}
	return false
}

// iterCall evaluates an iterator builtin on its arguments, as the list it yields.
func iterCall(fn string, args []pyVal) (pyVal, bool) {
	switch fn {
	case "enumerate":
		if len(args) < 1 || len(args) > 2 {
			return pyVal{}, false
		}
		start := int64(0)
		if len(args) == 2 {
			if !args[1].numeric() {
				return pyVal{}, false // TypeError
			}
			start = args[1].i
		}
		xs, ok := args[0].iterItems()
		if !ok || start > 1<<62 || start < -1<<62 {
			return pyVal{}, false
		}
		out := pyVal{kind: pyList}
		for k, x := range xs {
			out.items = append(out.items, pyVal{kind: pyTuple, items: []pyVal{{kind: pyInt, i: start + int64(k)}, x}})
		}
		return out, true
	case "zip":
		var cols [][]pyVal
		n := -1
		for _, a := range args {
			xs, ok := a.iterItems()
			if !ok {
				return pyVal{}, false
			}
			cols = append(cols, xs)
			if n < 0 || len(xs) < n {
				n = len(xs)
			}
		}
		out := pyVal{kind: pyList}
		for k := 0; k < n; k++ {
			row := pyVal{kind: pyTuple}
			for _, col := range cols {
				row.items = append(row.items, col[k])
			}
			out.items = append(out.items, row)
		}
		return out, true
	case "reversed":
		// A sequence (str, tuple, list) or a dict (its keys): a generator is not.
		if len(args) != 1 {
			return pyVal{}, false
		}
		xs, ok := args[0].iterItems()
		if !ok {
			return pyVal{}, false
		}
		out := pyVal{kind: pyList, items: make([]pyVal, len(xs))}
		for k, x := range xs {
			out.items[len(xs)-1-k] = x
		}
		return out, true
	case "range":
		return rangeList(args)
	}
	return pyVal{}, false
}

// rangeList is range(args...) as a list, up to maxCompItems elements.
func rangeList(args []pyVal) (pyVal, bool) {
	if len(args) < 1 || len(args) > 3 {
		return pyVal{}, false
	}
	for _, a := range args {
		if !a.numeric() {
			return pyVal{}, false // TypeError
		}
	}
	start, stop, step := int64(0), args[0].i, int64(1)
	if len(args) > 1 {
		start, stop = args[0].i, args[1].i
	}
	if len(args) > 2 {
		step = args[2].i
	}
	if step == 0 {
		return pyVal{}, false // ValueError
	}
	out := pyVal{kind: pyList}
	for i := start; step > 0 && i < stop || step < 0 && i > stop; {
		if len(out.items) == maxCompItems {
			return pyVal{}, false
		}
		out.items = append(out.items, pyVal{kind: pyInt, i: i})
		next := i + step
		if (next > i) != (step > 0) {
			break // past int64, so past stop too
		}
		i = next
	}
	return out, true
}

// viewItems is a dict view (d.items(), d.keys(), d.values()) as the list it yields.
func viewItems(d pyVal, name string) (pyVal, bool) {
	if d.kind != pyDict {
		return pyVal{}, false
	}
	out := pyVal{kind: pyList}
	for i := 0; i < len(d.items); i += 2 {
		switch name {
		case "items":
			out.items = append(out.items, pyVal{kind: pyTuple, items: []pyVal{d.items[i], d.items[i+1]}})
		case "keys":
			out.items = append(out.items, d.items[i])
		case "values":
			out.items = append(out.items, d.items[i+1])
		}
	}
	return out, true
}
