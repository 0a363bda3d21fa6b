package grammar

import "strings"

// This file is the kind facts of the value rules (docs/decisions.md, "Kinds of the
// variables nothing stores"). A variable that nothing between two states stores
// still holds the same object, and an object never changes its type; in a program
// without classes the type of a builtin container fixes how its repr starts, even
// when a method changed its items. So where a rule leaves a variable's value free
// because its object may change in place, the value still starts as the old one did.

// reprKind returns the bytes that a repr of the object whose repr is r can start
// with, or "" when r says nothing of use: a list "[", a tuple "(", a dict or a set
// "{s" (a set can become set()), a bytearray "b", each also "<" (a repr that failed,
// such as one too deep). Immutable values are kept whole by the rules instead.
func reprKind(r string) string {
	switch {
	case strings.HasPrefix(r, "["):
		return "[<"
	case strings.HasPrefix(r, "("):
		return "(<"
	case strings.HasPrefix(r, "{"), r == "set()":
		return "{s<"
	case strings.HasPrefix(r, "bytearray("):
		return "b<"
	}
	return ""
}

// keepKind notes that v's object is certainly still v's: its value, when written,
// starts as a repr of that kind. A program with a class can give any object any repr.
func (p *Program) keepKind(r *localsRule, v Var) {
	if !p.f.NoClass {
		return
	}
	if k := reprKind(v.Repr); k != "" {
		if r.kinds == nil {
			r.kinds = map[string]string{}
		}
		r.kinds[content(v.Name)] = k
	}
}

// fill is a value that the rule allows for key, to close a state cut off before it.
func (r *localsRule) fill(key string) string {
	if vs := r.forced[key]; len(vs) > 0 {
		return vs[0]
	}
	if k := r.kinds[key]; k != "" {
		return k[:1]
	}
	return ""
}
