package decontam

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/train/synth"
)

// devSet loads the CruxEval development split, found by walking up from the working
// directory, or skips the test.
func devSet(t testing.TB) (*Set, []Problem) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	path, err := FindDevFile(wd)
	if err != nil {
		t.Skipf("skipping: %s not found above %s (it lives next to the repository, in ../%s)", DevFile, wd, DevFile)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	problems, err := ReadProblems(f)
	if err != nil {
		t.Fatal(err)
	}
	return NewSet(problems), problems
}

func TestDevSetMatchesItself(t *testing.T) {
	set, problems := devSet(t)
	if set.Len() != len(problems) || len(problems) != 200 {
		t.Fatalf("got %d problems (set of %d), want the 200 of dev.jsonl", len(problems), set.Len())
	}
	for _, p := range problems {
		if id, ok := set.Match(p.Code); !ok {
			t.Errorf("%s does not match itself", p.ID)
		} else if Keys(p.Code)[0] != Keys(problemByID(problems, id).Code)[0] {
			t.Errorf("%s matched %s, whose code differs", p.ID, id)
		}
	}
}

func problemByID(ps []Problem, id string) Problem {
	for _, p := range ps {
		if p.ID == id {
			return p
		}
	}
	return Problem{}
}

var callOfF = regexp.MustCompile(`(^|[^\w.])f\(`)

// reformat changes a function's layout without changing its code: comments, blank
// lines, other indentation, spaces around operators.
func reformat(code string) string {
	var b strings.Builder
	b.WriteString("# copied from somewhere\n\n")
	for _, line := range strings.Split(code, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := (len(line) - len(trimmed))
		b.WriteString(strings.Repeat("  ", indent/4+indent%4))
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(trimmed, ", ", " ,  "), "(", "( "))
		b.WriteString("   \n\n")
	}
	return b.String()
}

func TestReformattedAndEmbeddedCopiesAreCaught(t *testing.T) {
	set, problems := devSet(t)
	caught := 0
	for _, p := range problems {
		if set.Contains(reformat(p.Code)) {
			caught++
		}
	}
	// Reformatting may break code whose strings contain ", " or "(": most must match.
	if caught < len(problems)*9/10 {
		t.Errorf("only %d of %d reformatted problems caught", caught, len(problems))
	}

	// A problem's function used as a helper under another name, next to a fresh f.
	embedded := 0
	for _, p := range problems {
		helper := callOfF.ReplaceAllString(p.Code, "${1}tidy_up(") // the def and any recursive call
		program := helper + "\n\ndef f(xs):\n    return [tidy_up(x) for x in xs]\n"
		if set.Contains(program) {
			embedded++
		} else {
			t.Errorf("%s embedded as helper tidy_up not caught:\n%s", p.ID, program)
		}
	}
	t.Logf("%d of %d reformatted copies and %d of %d embedded copies caught", caught, len(problems), embedded, len(problems))
}

func TestDifferentCodeIsNotCaught(t *testing.T) {
	set, problems := devSet(t)
	for _, p := range problems[:50] {
		changed := p.Code + "\n    # unreachable\n    return None\n"
		if set.Contains(changed) {
			t.Errorf("%s with an extra statement still matches", p.ID)
		}
	}
	clean := "def f(nums):\n    total = 0\n    for n in nums:\n        total += n * 3\n    return total\n"
	if set.Contains(clean) {
		t.Errorf("unrelated function matched")
	}
}

// TestGeneratorIsClean asserts that no generated program (neither a whole program nor
// any of its helpers) matches a CruxEval development problem.
func TestGeneratorIsClean(t *testing.T) {
	set, _ := devSet(t)
	n := 50000
	if testing.Short() {
		n = 5000
	}
	g := synth.NewGenerator(1, synth.Options{})
	filter := NewFilter(set)
	for range n {
		p := g.Next()
		if !filter.Keep(p.Source) {
			id, _ := set.Match(p.Source)
			t.Errorf("generated program matches %s:\n%s", id, p.Source)
		}
	}
	if filter.Checked != n || filter.Dropped != 0 {
		t.Errorf("checked %d, dropped %d (by problem: %v)", filter.Checked, filter.Dropped, filter.ByID)
	}
	t.Logf("%d generated programs checked, %d dropped", filter.Checked, filter.Dropped)
}

// TestStructural checks the renaming comparison, and reports how many generated
// programs have a function that equals a problem up to names (independent idioms such
// as "count the upper-case characters" can).
func TestStructural(t *testing.T) {
	_, problems := devSet(t)
	set := NewStructuralSet(problems)
	caught := 0
	exact := NewSet(problems)
	for _, p := range problems {
		// Crude renaming: it also rewrites these words inside string literals, which
		// changes a few problems for real; nearly all must still be caught.
		onlyF := callOfF.ReplaceAllString(p.Code, "${1}other_name(")
		renamed := onlyF
		for _, w := range []string{"text", "nums", "s", "array", "d", "x", "n"} {
			renamed = regexp.MustCompile(`\b`+w+`\b`).ReplaceAllString(renamed, w+"_renamed")
		}
		if set.Contains(renamed) {
			caught++
		}
		if exact.Contains(renamed) && renamed != onlyF {
			t.Errorf("%s: the exact set caught a renamed copy", p.ID)
		}
	}
	if caught < len(problems)*95/100 {
		t.Errorf("structural set caught %d of %d renamed problems", caught, len(problems))
	}
	g := synth.NewGenerator(1, synth.Options{})
	filter := NewFilter(set)
	for range 20000 {
		filter.Keep(g.Next().Source)
	}
	t.Logf("%d of %d renamed problems caught; structural matches: %d of %d generated programs (by problem: %v)",
		caught, len(problems), filter.Dropped, filter.Checked, filter.ByID)
	if filter.Dropped > filter.Checked/1000 {
		t.Errorf("%d of %d generated programs equal a problem up to names", filter.Dropped, filter.Checked)
	}
}

func TestFilterCounts(t *testing.T) {
	set := NewSet([]Problem{
		{ID: "a", Code: "def f(x):\n    return x + 1"},
		{ID: "b", Code: "def f(s):\n    return s[::-1]"},
	})
	filter := NewFilter(set)
	for _, src := range []string{
		"def f(x):\n  return x+1\n",
		"def g(x):\n    return x * 2\n\ndef f(y):\n    return g(y)\n",
		"def flip(s):\n    return s[::-1]\n\ndef f(w):\n    return flip(w) + w\n",
		"def f(s):\n    return s[::-1]\n",
	} {
		filter.Keep(src)
	}
	if filter.Checked != 4 || filter.Dropped != 3 || filter.ByID["a"] != 1 || filter.ByID["b"] != 2 {
		t.Errorf("checked %d dropped %d by id %v; want 4, 3, a:1 b:2", filter.Checked, filter.Dropped, filter.ByID)
	}
}

func TestKeysUnits(t *testing.T) {
	src := "import os\n\n@cache\ndef walk(n):\n    return walk(n - 1) if n else 0\n\nclass Box:\n    def size(self):\n        return 1\n\nX = 3\n\ndef f(n):\n    return walk(n) + X\n"
	keys := Keys(src)
	want := []string{
		synth.Normalize(src),
		"@cache\ndef f(n):\n    return f(n-1)if n else 0",
		"class Box:\n    def size(self):\n        return 1",
		"def f(n):\n    return walk(n)+X",
	}
	if len(keys) != len(want) {
		t.Fatalf("Keys = %q, want %q", keys, want)
	}
	for i := range want {
		if keys[i] != want[i] {
			t.Errorf("key %d = %q, want %q", i, keys[i], want[i])
		}
	}
}

func TestLoadOtherFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "problems.jsonl")
	data := `{"code": "def f(a, b):\n    return a * b + 1", "input": "2, 3", "output": "7", "id": "sample_1"}

{"code": "def f(t):\n    return t.title()", "input": "'ab cd'", "output": "'Ab Cd'", "id": "sample_2"}
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 2 || !set.Contains("def f(a,b):\n    return a*b+1\n") || set.Contains("def f(a, b):\n    return a * b\n") {
		t.Errorf("loaded set behaves wrongly (len %d)", set.Len())
	}

	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(data+"{not json\n"), 0o644)
	if _, err := LoadFile(bad); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("malformed line: got error %v, want one naming line 4", err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, []byte(`{"id": "x", "input": "1"}`+"\n"), 0o644)
	if _, err := LoadFile(empty); err == nil {
		t.Errorf("problem without code: want an error")
	}
	if _, err := LoadFile(filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Errorf("missing file: want an error")
	}
}

func TestFindDevFile(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "repo", "train", "decontam")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := FindDevFile(deep); err == nil {
		// A dev file may exist above the temporary directory on some machines; only
		// check the positive case below then.
		t.Log("a dev file exists above the temporary directory")
	}
	want := filepath.Join(root, "shared", "cruxeval", "dev.jsonl")
	os.MkdirAll(filepath.Dir(want), 0o755)
	os.WriteFile(want, []byte("{}\n"), 0o644)
	got, err := FindDevFile(deep)
	if err != nil || got != want {
		t.Errorf("FindDevFile = %q, %v; want %q", got, err, want)
	}
}
