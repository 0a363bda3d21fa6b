package synth

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// coverageScript is the measurement of docs/corpus.md, relative to this package.
const coverageScript = "../../scripts/corpus-coverage.py"

// coverageReport is the part of the script's --json output the tests read.
type coverageReport struct {
	CorpusPrograms int `json:"corpus_programs"`
	Coverage       map[string]struct {
		Distinct    int `json:"distinct"`
		DistinctDev int `json:"distinct_dev"`
		Uses        int `json:"uses"`
		UsesDev     int `json:"uses_dev"`
		Items       []struct {
			Item           string `json:"item"`
			DevUses        int    `json:"dev_uses"`
			DevProblems    int    `json:"dev_problems"`
			CorpusPrograms int    `json:"corpus_programs"`
		} `json:"items"`
	} `json:"coverage"`
}

// runCoverage writes the programs as JSONL and runs the script on them against the
// problems file crux.
func runCoverage(t *testing.T, crux string, sources []string) coverageReport {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH")
	}
	dir := t.TempDir()
	corpus := filepath.Join(dir, "programs.jsonl")
	fh, err := os.Create(corpus)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(fh)
	for _, s := range sources {
		if err := enc.Encode(map[string]string{"source": s}); err != nil {
			t.Fatal(err)
		}
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "coverage.json")
	cmd := exec.Command(python, coverageScript, "--cruxeval", crux, "--json", out, corpus)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", coverageScript, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep coverageReport
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCoverageScriptCounts checks the script's counting on two tiny problems: called
// attribute names are methods, a built-in the program rebinds is not a built-in, and
// uses are weighted by how often the problems write them.
func TestCoverageScriptCounts(t *testing.T) {
	crux := filepath.Join(t.TempDir(), "problems.jsonl")
	problems := `{"code": "def f(s):\n    return s.upper().split() + s.split()", "id": "a"}
{"code": "def f(xs):\n    list = xs\n    return len(list) ** 2", "id": "b"}
`
	if err := os.WriteFile(crux, []byte(problems), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runCoverage(t, crux, []string{"def f(t):\n    return t.upper()\n", "def g(:\n"})
	if rep.CorpusPrograms != 1 {
		t.Errorf("corpus programs = %d, want 1 (the other does not parse)", rep.CorpusPrograms)
	}
	m := rep.Coverage["methods"]
	if m.Distinct != 1 || m.DistinctDev != 2 || m.Uses != 1 || m.UsesDev != 3 {
		t.Errorf("methods: %d/%d distinct, %d/%d uses; want upper covered of upper and split: 1/2, 1/3",
			m.Distinct, m.DistinctDev, m.Uses, m.UsesDev)
	}
	b := rep.Coverage["builtins"]
	if b.DistinctDev != 1 || len(b.Items) != 1 || b.Items[0].Item != "len" || b.Distinct != 0 {
		t.Errorf("builtins: %+v; want only len (list is rebound), not covered", b)
	}
	n := rep.Coverage["nodes"]
	for _, it := range n.Items {
		if it.Item == "Pow" && it.CorpusPrograms != 0 || it.Item == "Return" && it.CorpusPrograms != 1 {
			t.Errorf("node %s in %d corpus programs", it.Item, it.CorpusPrograms)
		}
	}
}

// TestCoverageScriptShapes checks the parameter shapes: a function returning a
// parameter by name, and one assigning to a parameter, each counted once a function.
func TestCoverageScriptShapes(t *testing.T) {
	crux := filepath.Join(t.TempDir(), "problems.jsonl")
	problems := `{"code": "def f(s):\n    s = s.strip()\n    s += '!'\n    return s", "id": "a"}
{"code": "def f(xs):\n    out = xs[:]\n    return out", "id": "b"}
`
	if err := os.WriteFile(crux, []byte(problems), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runCoverage(t, crux, []string{"def f(t):\n    t.append(1)\n    return t\n"})
	got := map[string][2]int{}
	for _, it := range rep.Coverage["shapes"].Items {
		got[it.Item] = [2]int{it.DevProblems, it.CorpusPrograms}
	}
	want := map[string][2]int{"return-parameter": {1, 1}, "rebind-parameter": {1, 0}}
	if len(got) != len(want) || got["return-parameter"] != want["return-parameter"] || got["rebind-parameter"] != want["rebind-parameter"] {
		t.Errorf("shapes (dev problems, corpus programs) = %v, want %v", got, want)
	}
}

// TestCruxEvalDevCoverage measures the generator on CruxEval's dev split (never the
// test problems): every method name, built-in, AST node kind and parameter shape the
// dev problems use appears in 3000 generated programs.
func TestCruxEvalDevCoverage(t *testing.T) {
	crux := findDevFile(t)
	ps := generate(13, 3000, Options{})
	sources := make([]string, len(ps))
	for i, p := range ps {
		sources[i] = p.Source
	}
	rep := runCoverage(t, crux, sources)
	for _, kind := range []string{"methods", "builtins", "nodes", "shapes"} {
		c := rep.Coverage[kind]
		t.Logf("%s: %d/%d distinct, %.1f%% of uses", kind, c.Distinct, c.DistinctDev, 100*float64(c.Uses)/float64(c.UsesDev))
		for _, it := range c.Items {
			if it.CorpusPrograms == 0 {
				t.Errorf("%s: %q (%d uses in the dev split) is in no generated program", kind, it.Item, it.DevUses)
			}
		}
	}
}

// findDevFile returns shared/cruxeval/dev.jsonl from the working directory or a parent,
// or skips the test.
func findDevFile(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "cruxeval", "dev.jsonl")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if filepath.Dir(dir) == dir {
			t.Skip("shared/cruxeval/dev.jsonl not found above the working directory")
		}
		dir = filepath.Dir(dir)
	}
}
