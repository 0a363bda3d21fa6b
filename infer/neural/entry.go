package neural

import (
	"fmt"
	"strings"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// EntryState is the state a neural session starts in, built without running
// anything. For a whole script (entry "") it is the module's call state: a call at
// line 1 with no locals, as the tracer records it. For an entry call such as
// `f(3, "x")` it is f's call state at its def line, with each parameter bound to the
// literal text of its argument, as its repr.
//
// The arguments are split, not evaluated: top-level commas outside brackets and
// strings separate them, `name=value` binds a keyword, and each value's text is its
// repr, normalised only for plain string literals (written with single quotes, as
// Python's repr does). Limits: an expression argument (`2+3`, `len(x)`) keeps its
// text; a parameter left to its default, *args and **kwargs are not shown; dict and
// set literals keep their spacing as written.
func EntryState(ctx grammar.Context, parsed trace.ParseResult, entry string) (grammar.State, error) {
	entry = strings.TrimSpace(entry)
	if entry == "" {
		return grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{}}, nil
	}
	open := strings.IndexByte(entry, '(')
	if open <= 0 || !strings.HasSuffix(entry, ")") {
		return grammar.State{}, fmt.Errorf("entry %q: want a call such as f(1, 'x')", entry)
	}
	name := strings.TrimSpace(entry[:open])
	var fn *trace.Function
	for i := range parsed.Functions {
		f := &parsed.Functions[i]
		if f.QualName == name || f.Name == name {
			fn = f
			break
		}
	}
	if fn == nil {
		return grammar.State{}, fmt.Errorf("entry %q: the program defines no function %s", entry, name)
	}
	args, err := SplitArgs(entry[open+1 : len(entry)-1])
	if err != nil {
		return grammar.State{}, fmt.Errorf("entry %q: %v", entry, err)
	}
	vals := map[string]string{}
	for i, a := range args {
		if k, v, ok := keyword(a); ok {
			vals[k] = NormaliseLiteral(v)
			continue
		}
		if i >= len(fn.Params) {
			return grammar.State{}, fmt.Errorf("entry %q: %s takes %d parameters", entry, fn.Name, len(fn.Params))
		}
		vals[fn.Params[i]] = NormaliseLiteral(a)
	}
	locals := grammar.Locals{}
	for _, p := range fn.Params {
		if v, ok := vals[p]; ok {
			locals = append(locals, grammar.Var{Name: p, Repr: v})
		}
	}
	loc := grammar.Loc{Line: fn.FirstLine}
	if _, ok := ctx.Src(loc); !ok {
		return grammar.State{}, fmt.Errorf("entry %q: line %d of %s is not in the context", entry, fn.FirstLine, fn.Name)
	}
	return grammar.State{Event: grammar.EventCall, Loc: loc, Locals: locals, Func: fn.Name}, nil
}

// keyword splits `name=value` (not `==`) into its parts.
func keyword(a string) (string, string, bool) {
	i := strings.IndexByte(a, '=')
	if i <= 0 || i+1 < len(a) && a[i+1] == '=' {
		return "", "", false
	}
	k := strings.TrimSpace(a[:i])
	for j, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return "", "", false
		}
	}
	return k, strings.TrimSpace(a[i+1:]), true
}

// SplitArgs splits a call's argument text at the commas outside brackets and string
// literals; the pieces are trimmed, and a trailing comma is allowed.
func SplitArgs(s string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth--; depth < 0 {
				return nil, fmt.Errorf("unbalanced %q", c)
			}
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if quote != 0 || depth != 0 {
		return nil, fmt.Errorf("unterminated string or bracket")
	}
	if last := strings.TrimSpace(s[start:]); last != "" || len(out) == 0 && strings.TrimSpace(s) != "" {
		out = append(out, last)
	}
	for _, a := range out {
		if a == "" {
			return nil, fmt.Errorf("an empty argument")
		}
	}
	return out, nil
}

// NormaliseLiteral returns the repr Python would give a literal where that is easy:
// a plain string literal is rewritten as Python's repr writes it; anything else is
// returned trimmed, as written.
func NormaliseLiteral(lit string) string {
	lit = strings.TrimSpace(lit)
	if s, ok := grammar.PyStringValue(lit); ok {
		return grammar.PyStringRepr(s)
	}
	return lit
}
