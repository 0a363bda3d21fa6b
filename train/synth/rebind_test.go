package synth

import (
	"slices"
	"strings"
	"testing"
)

// TestFunctionsReturnTheirParameter checks the shape the rebind templates add: f
// changes a parameter (rebinding it, or in place) and returns it by its own name, as
// a quarter of CruxEval's dev functions do. Before the templates no generated f did.
func TestFunctionsReturnTheirParameter(t *testing.T) {
	ps := generate(7, 2000, Options{})
	rebound, inPlace := 0, 0
	for _, p := range ps {
		params, body := entryFunction(p.Source)
		for _, line := range body {
			name, ok := strings.CutPrefix(line, "    return ")
			if !ok || !slices.Contains(params, name) {
				continue
			}
			if slices.ContainsFunc(body, func(l string) bool {
				return strings.HasPrefix(strings.TrimSpace(l), name+" = ")
			}) {
				rebound++
			} else {
				inPlace++
			}
			break
		}
	}
	t.Logf("of %d programs, f returns a parameter it rebound in %d, one it changed in place in %d", len(ps), rebound, inPlace)
	if rebound < len(ps)/50 || inPlace < len(ps)/50 {
		t.Errorf("of %d programs, f returns a parameter it rebound in %d and one it changed in place in %d; want at least 2%% each",
			len(ps), rebound, inPlace)
	}
	if n := tagCounts(ps)["rebind"]; n == 0 {
		t.Error("no program tagged rebind")
	}
}

// entryFunction returns the parameters and body lines of f, the last definition of a
// generated program.
func entryFunction(src string) (params, body []string) {
	lines := strings.Split(src, "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "def f(") })
	if start < 0 {
		return nil, nil
	}
	header := strings.TrimSuffix(strings.TrimPrefix(lines[start], "def f("), "):")
	for _, p := range strings.Split(header, ",") {
		if p = strings.TrimSpace(p); p != "" {
			params = append(params, p)
		}
	}
	return params, lines[start+1:]
}
