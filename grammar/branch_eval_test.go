package grammar

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

// branchEnv is the frame the evaluator tests read: reprs as the tracer writes them,
// some of which (floats, dicts, a cut repr) must make any test that reads them unknown.
var branchEnv = map[string]string{
	"a": "1", "b": "0", "c": "-7", "t": "True", "f": "False", "n": "None",
	"s": `'ab'`, "e": `''`, "q": `'a\'b"\n\\'`, "u": `'\xe9\U0001f600z'`,
	"l": "[1, 'ab', None, [2, 3]]", "m": "[]", "p": "(1, True)", "o": "(2,)",
	"d": "{1: 2, 'k': [1], (1, 2): None}", "st": "{1, 'a', (2,)}", "es": "set()", "ed": "{}",
	"x": "1.0", "y": "{1: 2.5}", "z": "[1, 2, 3...", "big": "9223372036854775807",
}

// randomBranchExpr builds a test from the accepted subset.
func randomBranchExpr(r *rand.Rand, depth int) string {
	names := []string{"a", "b", "c", "t", "f", "n", "s", "e", "q", "u", "l", "m", "p", "o", "x", "d", "st", "es", "ed", "y", "z", "big", "w"}
	lits := []string{"0", "1", "2", "-1", "3", "'a'", "'ab'", "''", "True", "False", "None", "'\\n'", "(1, True)", "[2, 3]", "()",
		"' a b '", "'A1'", "'12'", "','", "'a,b,,c'", "' '", "'\\x1c'", "'Ab'", "('a', 'b')", "['x', 'y']"}
	if depth <= 0 || r.IntN(4) == 0 {
		if r.IntN(2) == 0 {
			return names[r.IntN(len(names))]
		}
		return lits[r.IntN(len(lits))]
	}
	sub := func() string { return randomBranchExpr(r, depth-1) }
	if r.IntN(3) == 0 {
		return randomCallExpr(r, sub)
	}
	switch r.IntN(10) {
	case 0:
		return "not " + sub()
	case 1:
		return "(" + sub() + " and " + sub() + ")"
	case 2:
		return "(" + sub() + " or " + sub() + ")"
	case 3:
		ops := []string{"==", "!=", "<", "<=", ">", ">=", "in", "not in"}
		e := sub()
		for k := 0; k <= r.IntN(2); k++ {
			e += " " + ops[r.IntN(len(ops))] + " " + sub()
		}
		return "(" + e + ")"
	case 4:
		ops := []string{"+", "-", "*", "//", "%"}
		return "(" + sub() + " " + ops[r.IntN(len(ops))] + " " + sub() + ")"
	case 5:
		return sub() + "[" + sub() + "]"
	case 6:
		return "len(" + sub() + ")"
	case 7:
		return "-" + sub()
	case 8:
		if r.IntN(2) == 0 {
			return "(" + sub() + " is None)"
		}
		return "(" + sub() + " is not None)"
	default:
		return "[" + sub() + ", " + sub() + "]"
	}
}

// randomCallExpr builds a conditional expression, a slice, a builtin call or a method
// call of the evaluator's subset.
func randomCallExpr(r *rand.Rand, sub func() string) string {
	bound := func() string {
		if r.IntN(3) == 0 {
			return ""
		}
		return sub()
	}
	switch r.IntN(9) {
	case 0:
		return "(" + sub() + " if " + sub() + " else " + sub() + ")"
	case 1:
		return sub() + "[" + bound() + ":" + bound() + "]"
	case 2:
		return sub() + "[" + bound() + ":" + bound() + ":" + bound() + "]"
	case 3:
		return "abs(" + sub() + ")"
	case 4:
		return []string{"min", "max"}[r.IntN(2)] + "(" + sub() + ")"
	case 5:
		return []string{"min", "max"}[r.IntN(2)] + "(" + sub() + ", " + sub() + ")"
	case 6:
		return "sorted(" + sub() + ")"
	case 7:
		noArg := []string{"copy", "upper", "lower", "isdigit", "isalpha", "isalnum", "isupper", "islower", "isspace", "strip", "split"}
		oneArg := []string{"strip", "lstrip", "rstrip", "split", "startswith", "endswith", "count", "find", "index", "join", "get"}
		switch r.IntN(3) {
		case 0:
			return "(" + sub() + ")." + noArg[r.IntN(len(noArg))] + "()"
		case 1:
			return "(" + sub() + ")." + oneArg[r.IntN(len(oneArg))] + "(" + sub() + ")"
		}
		return "(" + sub() + ")." + []string{"replace", "get"}[r.IntN(2)] + "(" + sub() + ", " + sub() + ")"
	default:
		return sub() + "[::-1]"
	}
}

// TestEvalBranchMatchesPython evaluates random tests with the evaluator and with
// CPython: wherever the evaluator answers, Python must give the same truth without
// raising; and it must answer for most tests on known values.
func TestEvalBranchMatchesPython(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	var conds []string
	for len(conds) < 3000 {
		conds = append(conds, randomBranchExpr(r, 1+r.IntN(3)))
	}
	conds = append(conds, "a == t", "c // 2 == -4", "c % 3 == 2", "-c % -3 == -2", "q[1] == \"'\"",
		"u[1] > 'z'", "len(u) == 3", "p == (1, 1)", "[1, 'ab'] < l", "l[-1][0] + 1 == 3", "big - 1 > 0",
		"d[(1, 2)] is None", "'k' in d and d['k'] == [True]", "len(st) == 3 and (2,) in st", "not es and not ed", "[d] == [d]", "d[True] == 2")
	want := pythonEvals(t, conds)
	env := func(n string) (string, bool) {
		v, ok := branchEnv[n]
		return v, ok
	}
	answered, raised := 0, 0
	for k, c := range conds {
		got, ok := EvalBranch(c, env)
		if want[k] == nil {
			raised++
		}
		if !ok {
			if k >= 3000 {
				t.Errorf("%s: no answer (Python: %v)", c, want[k])
			}
			continue
		}
		answered++
		if want[k] == nil {
			t.Errorf("%s: %v, but Python raises", c, got)
		} else if got != want[k].Truth {
			t.Errorf("%s: %v, Python %v", c, got, want[k].Truth)
		}
	}
	t.Logf("%d tests: %d answered, %d raise in Python", len(conds), answered, raised)
	if answered < len(conds)/4 {
		t.Errorf("only %d of %d answered", answered, len(conds))
	}
}

// pyResult is what CPython makes of an expression on branchEnv: its value's repr and
// truth.
type pyResult struct {
	Repr  string `json:"repr"`
	Truth bool   `json:"truth"`
}

// pythonEvals evaluates each expression with CPython on branchEnv's values (with the
// builtins the evaluator calls): nil where Python raises. (A real frame's locals reach
// a comprehension as cells; globals do here.) The test is skipped without
// python3.
func pythonEvals(t *testing.T, exprs []string) []*pyResult {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	in, _ := json.Marshal(map[string]any{"env": branchEnv, "exprs": exprs})
	script := `
import json, sys
d = json.load(sys.stdin)
env = {}
for k, v in d["env"].items():
    try:
        env[k] = eval(v)
    except Exception:
        pass
builtins = {"len": len, "abs": abs, "min": min, "max": max, "sorted": sorted,
            "sum": sum, "any": any, "all": all, "list": list, "tuple": tuple, "enumerate": enumerate,
            "zip": zip, "reversed": reversed, "range": range, "dict": dict, "bool": bool, "int": int, "str": str,
            "divmod": divmod}
out = []
for c in d["exprs"]:
    try:
        # The frame's values are globals, which a comprehension's scope reads too.
        v = eval(c, dict(env, __builtins__=builtins))
        out.append({"repr": repr(v), "truth": bool(v)})
    except Exception:
        out.append(None)
print(json.dumps(out))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	outb, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var out []*pyResult
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzEvalBranch: any test and repr parse without panic, and a test answered once is
// answered the same again.
func FuzzEvalBranch(f *testing.F) {
	for _, s := range []string{"a < b", "not (s in l) and len(q) >= 3", "l[1][0] == 'a'", "p == (1, True) or c % 2", "x"} {
		f.Add(s, "[1, 'ab', (2,)]")
	}
	f.Fuzz(func(t *testing.T, cond, repr string) {
		env := func(n string) (string, bool) {
			if n == "x" {
				return repr, true
			}
			v, ok := branchEnv[n]
			return v, ok
		}
		v1, ok1 := EvalBranch(cond, env)
		v2, ok2 := EvalBranch(cond, env)
		if v1 != v2 || ok1 != ok2 {
			t.Fatal(fmt.Sprint("not deterministic: ", cond))
		}
	})
}
