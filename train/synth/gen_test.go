package synth

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

func generate(seed int64, n int, opts Options) []Program {
	g := NewGenerator(seed, opts)
	ps := make([]Program, n)
	for i := range ps {
		ps[i] = g.Next()
	}
	return ps
}

func TestDeterministic(t *testing.T) {
	a := generate(42, 500, Options{})
	b := generate(42, 500, Options{})
	for i := range a {
		if a[i].Source != b[i].Source || a[i].Entry != b[i].Entry || !slices.Equal(a[i].Features, b[i].Features) {
			t.Fatalf("program %d differs between two generators with the same seed:\n%s\n---\n%s", i, a[i].Source, b[i].Source)
		}
	}
	c := generate(43, 500, Options{})
	same := 0
	for i := range a {
		if a[i].Source == c[i].Source {
			same++
		}
	}
	if same > 5 {
		t.Errorf("seeds 42 and 43 agree on %d of 500 programs", same)
	}
}

func TestDistinct(t *testing.T) {
	const n = 55000
	start := time.Now()
	g := NewGenerator(1, Options{})
	seen := make(map[string]struct{}, n)
	for range n {
		seen[Normalize(g.Next().Source)] = struct{}{}
	}
	elapsed := time.Since(start)
	t.Logf("%d distinct of %d programs after Normalize (%.1f%%), %v with normalization", len(seen), n, 100*float64(len(seen))/n, elapsed)
	if len(seen) < 50000 {
		t.Errorf("only %d distinct programs of %d, want at least 50000", len(seen), n)
	}
}

// TestFeatureCoverage checks that every construct the generator is meant to produce
// appears in some of 2000 programs, by source text and by tag.
func TestFeatureCoverage(t *testing.T) {
	ps := generate(7, 2000, Options{})
	substrings := []string{
		// str methods
		".split(", ".join(", ".replace(", ".find(", ".count(", ".upper()", ".lower()", ".strip(",
		".startswith(", ".endswith(", ".isdigit()", ".isalpha()", ".center(", ".zfill(",
		".partition(", ".format(", ".rsplit(", ".title()", ".swapcase()", ".ljust(", ".index(",
		// list methods
		".append(", ".extend(", ".insert(", ".pop(", ".remove(", ".sort(", ".reverse()",
		// dict methods
		".get(", ".items()", ".keys()", ".values()", ".setdefault(", ".update(",
		// set methods and operators
		"set(", ".add(", ".discard(", " & set(", " | set(", " - set(", " ^ set(",
		// builtins
		"abs(", "divmod(", "min(", "max(", "sum(", "len(", "sorted(", "enumerate(", "zip(",
		"range(", "reversed(", "int(", "str(", "chr(", "ord(", "any(", "all(",
		// operators and syntax
		" // ", " % ", "[::-1]", "[1:", "lambda ", "f'", "while True:", "for ", "while ",
		"break", "continue", "elif ", "else:", "try:", "except ValueError", "except IndexError",
		"except KeyError", "except ZeroDivisionError", "finally:", "raise ", "class ",
		"def __repr__", "print(", " in ", "not in", "return ", "*rest", " = [",
		// what CruxEval's dev split uses and the first templates lacked
		".rfind(", ".rindex(", ".rpartition(", ".isdecimal()", ".isnumeric()", ".isascii()",
		".istitle()", "str.maketrans(", ".translate(", ".removeprefix(", ".removesuffix(",
		".splitlines(", ".expandtabs(", ".encode(", ".clear()", ".copy()", ".popitem()",
		"dict.fromkeys(", "dict(zip(", "del ", "slice(", "iter(", "next(", "isinstance(",
		"type(", "bool(", "float(", "global ", " ** ",
	}
	var all strings.Builder
	for _, p := range ps {
		all.WriteString(p.Source)
	}
	text := all.String()
	for _, s := range substrings {
		if !strings.Contains(text, s) {
			t.Errorf("no program contains %q", s)
		}
	}
	tags := []string{
		"loop", "for", "while", "break", "continue", "for-else", "while-else", "while-true", "if", "elif",
		"comprehension", "genexpr", "dictcomp", "setcomp", "nested-comprehension", "slicing",
		"unpacking", "star-unpacking", "tuple", "set", "dict", "helper", "nested-call",
		"recursion", "mutual-recursion", "exception", "try", "try-else", "finally", "raise",
		"except-as", "custom-exception", "lambda", "class", "print", "fstring", "format",
		"never", "error", "normal", "nested-loop", "early-return", "ternary", "enumerate", "zip",
		"rfind", "rindex", "rpartition", "translate", "removeprefix", "splitlines", "expandtabs",
		"encode", "reverse", "sort", "copy", "clear", "del", "popitem", "keys", "global", "rebind",
	}
	count := tagCounts(ps)
	for _, tag := range tags {
		if count[tag] == 0 {
			t.Errorf("no program tagged %q", tag)
		}
	}
	// Failure kinds are rare at the default shares: check them where they are common.
	failing := tagCounts(generate(7, 2000, Options{NeverShare: 0.3, ErrorShare: 0.5}))
	for _, tag := range []string{"error-index", "error-key", "error-value", "error-zero", "error-type",
		"error-attribute", "error-runtime", "error-recursion", "assert", "never", "error"} {
		if failing[tag] == 0 {
			t.Errorf("no failing program tagged %q", tag)
		}
	}
	var keys []string
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteString("=")
		b.WriteString(itoa(count[k]))
		b.WriteString(" ")
	}
	t.Logf("tags over 2000 programs: %s", b.String())
}

func tagCounts(ps []Program) map[string]int {
	count := map[string]int{}
	for _, p := range ps {
		for _, f := range p.Features {
			count[f]++
		}
	}
	return count
}

func TestShape(t *testing.T) {
	ps := generate(11, 5000, Options{})
	var fLines, allLines []int
	for _, p := range ps {
		if !strings.HasSuffix(p.Source, "\n") || !strings.Contains(p.Source, "\ndef f(") && !strings.HasPrefix(p.Source, "def f(") {
			t.Fatalf("program does not end in a newline or lacks def f:\n%s", p.Source)
		}
		if !strings.HasPrefix(p.Entry, "f(") || !strings.HasSuffix(p.Entry, ")") {
			t.Fatalf("bad entry %q", p.Entry)
		}
		if !sort.StringsAreSorted(p.Features) {
			t.Fatalf("features not sorted: %v", p.Features)
		}
		lines := 0
		for _, l := range strings.Split(strings.TrimSpace(p.Source), "\n") {
			if strings.TrimSpace(l) != "" {
				lines++
			}
		}
		allLines = append(allLines, lines)
		body := p.Source[strings.LastIndex(p.Source, "def f("):]
		fLines = append(fLines, strings.Count(body, "\n"))
		if len(p.Entry) > maxEntry {
			t.Errorf("entry too long (%d chars): %s", len(p.Entry), p.Entry)
		}
	}
	sort.Ints(allLines)
	sort.Ints(fLines)
	q := func(xs []int, p float64) int { return xs[int(float64(len(xs)-1)*p)] }
	t.Logf("non-blank lines: min %d median %d p90 %d max %d; f alone: median %d p90 %d",
		allLines[0], q(allLines, 0.5), q(allLines, 0.9), allLines[len(allLines)-1], q(fLines, 0.5), q(fLines, 0.9))
	if m := q(allLines, 0.5); m < 6 || m > 20 {
		t.Errorf("median program length %d lines, want between 6 and 20", m)
	}
	if p := q(allLines, 0.9); p > 40 {
		t.Errorf("90th percentile program length %d lines, want at most 40", p)
	}
	if allLines[0] < 4 {
		t.Errorf("shortest program has %d lines, want at least 4", allLines[0])
	}
}

func TestOptionsShares(t *testing.T) {
	count := func(ps []Program, tag string) int {
		n := 0
		for _, p := range ps {
			if slices.Contains(p.Features, tag) {
				n++
			}
		}
		return n
	}
	none := generate(3, 3000, Options{NeverShare: -1, ErrorShare: -1})
	if n, e := count(none, "never"), count(none, "error"); n != 0 || e != 0 {
		t.Errorf("negative shares: got %d never and %d error programs, want none", n, e)
	}
	many := generate(3, 3000, Options{NeverShare: 0.2, ErrorShare: 0.1})
	if n := count(many, "never"); n < 500 || n > 700 {
		t.Errorf("NeverShare 0.2: %d of 3000 never programs", n)
	}
	if e := count(many, "error"); e < 220 || e > 380 {
		t.Errorf("ErrorShare 0.1: %d of 3000 error programs", e)
	}
	def := generate(3, 10000, Options{})
	if n := count(def, "never"); n < 240 || n > 360 {
		t.Errorf("default NeverShare: %d of 10000 never programs, want about 300", n)
	}
	if e := count(def, "error"); e < 240 || e > 360 {
		t.Errorf("default ErrorShare: %d of 10000 error programs, want about 300", e)
	}
	for _, p := range def {
		n, e := slices.Contains(p.Features, "never"), slices.Contains(p.Features, "error")
		if n && e || (n || e) == slices.Contains(p.Features, "normal") {
			t.Fatalf("program must be exactly one of normal, never, error: %v", p.Features)
		}
	}
	noPrint := generate(3, 2000, Options{PrintShare: -1})
	if c := count(noPrint, "print"); c != 0 {
		t.Errorf("PrintShare -1: %d printing programs", c)
	}
}

func BenchmarkGenerate(b *testing.B) {
	g := NewGenerator(1, Options{})
	b.ResetTimer()
	for b.Loop() {
		g.Next()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "programs/s")
}
