package grammar

import "slices"

// This file is the part of the assignment rule for a line that is one call of a
// method that changes a list or dict in place (docs/decisions.md, "Assignment
// facts"): `xs.reverse()`, `xs.sort()`, `xs.clear()`, `xs.pop()`, `xs.pop(i)`,
// `xs.extend(ys)`, `xs.insert(i, x)`, `xs.remove(x)`, `d.clear()`, `d.pop(k)`. The
// name's object then has a new repr; other names of the same object are left free
// by the value rules (the line calls a method: it is not pure).

// mutate returns the value the method call leaves in cur, the name's object: false
// where Python would raise, where the result is not certain, or where a value put
// in could be a list, dict or set (the object itself, which Python writes `[...]`).
func (as AssignFact) mutate(cur pyVal, env func(string) (string, bool)) (pyVal, bool) {
	args := make([]pyVal, len(as.Args))
	for i, e := range as.Args {
		v, ok := evalExpr(e, env)
		if !ok {
			return pyVal{}, false
		}
		args[i] = v
	}
	if cur.kind == pyDict {
		return dictMutate(cur, as.Method, args)
	}
	if cur.kind != pyList {
		return pyVal{}, false // AttributeError (or a set: its order)
	}
	items := slices.Clone(cur.items)
	switch {
	case as.Method == "reverse" && len(args) == 0:
		slices.Reverse(items)
	case as.Method == "clear" && len(args) == 0:
		items = nil
	case as.Method == "sort" && len(args) == 0:
		sorted, ok := sortedOf(cur)
		if !ok {
			return pyVal{}, false
		}
		items = sorted.items
	case as.Method == "pop" && len(args) <= 1:
		i := int64(len(items) - 1)
		if len(args) == 1 {
			k, ok := listIndex(args[0], len(items))
			if !ok {
				return pyVal{}, false
			}
			i = k
		}
		if i < 0 {
			return pyVal{}, false // IndexError: pop from an empty list
		}
		items = slices.Delete(items, int(i), int(i)+1)
	case as.Method == "extend" && len(args) == 1:
		xs, ok := args[0].iterItems()
		if !ok || !allScalars(xs) {
			return pyVal{}, false
		}
		items = append(items, xs...)
	case as.Method == "insert" && len(args) == 2 && args[0].numeric() && args[1].scalars():
		i := args[0].i // clamped, as list.insert does
		if i < 0 {
			i = max(i+int64(len(items)), 0)
		}
		i = min(i, int64(len(items)))
		items = slices.Insert(items, int(i), args[1])
	case as.Method == "remove" && len(args) == 1:
		k := slices.IndexFunc(items, func(x pyVal) bool { return pyEqual(x, args[0]) })
		if k < 0 {
			return pyVal{}, false // ValueError
		}
		items = slices.Delete(items, k, k+1)
	default:
		return pyVal{}, false
	}
	return pyVal{kind: pyList, items: items}, true
}

// dictMutate is mutate for a dict: clear() and pop(k).
func dictMutate(cur pyVal, method string, args []pyVal) (pyVal, bool) {
	switch {
	case method == "clear" && len(args) == 0:
		return pyVal{kind: pyDict}, true
	case method == "pop" && len(args) == 1:
		if !args[0].hashable() {
			return pyVal{}, false // TypeError
		}
		i, ok := cur.lookup(args[0])
		if !ok {
			return pyVal{}, false // KeyError
		}
		return pyVal{kind: pyDict, items: slices.Delete(slices.Clone(cur.items), i, i+2)}, true
	}
	return pyVal{}, false
}

// listIndex is index k of a list of n items (negative from the end), false when
// out of range or not an int.
func listIndex(k pyVal, n int) (int64, bool) {
	if !k.numeric() {
		return 0, false
	}
	i := k.i
	if i < 0 {
		i += int64(n)
	}
	return i, i >= 0 && i < int64(n)
}

// allScalars reports whether every value is a scalar (pyVal.scalars).
func allScalars(xs []pyVal) bool {
	for _, x := range xs {
		if !x.scalars() {
			return false
		}
	}
	return true
}
