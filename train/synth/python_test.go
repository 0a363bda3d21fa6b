package synth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"testing"
	"time"
)

// runResult is one program's outcome as reported by testdata/run_programs.py.
type runResult struct {
	Status string `json:"status"`
	Exc    string `json:"exc"`
	Result string `json:"result"`
	Stdout string `json:"stdout"`
	Events int    `json:"events"`
}

// runPython runs the programs in one python3 process with the given PYTHONHASHSEED.
func runPython(ctx context.Context, python string, input []byte, hashSeed string) ([]runResult, error) {
	cmd := exec.CommandContext(ctx, python, "testdata/run_programs.py", "20000", "2")
	cmd.Env = append(os.Environ(), "PYTHONHASHSEED="+hashSeed)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("python3 (PYTHONHASHSEED=%s): %v\n%s", hashSeed, err, stderr.String())
	}
	var rs []runResult
	if err := json.Unmarshal(out, &rs); err != nil {
		return nil, fmt.Errorf("decoding python3 output: %v", err)
	}
	return rs, nil
}

// expectedExc maps a failure tag to the exception the program must end in.
var expectedExc = map[string]string{
	"error-index":     "IndexError",
	"error-key":       "KeyError",
	"error-value":     "ValueError",
	"error-zero":      "ZeroDivisionError",
	"error-type":      "TypeError",
	"error-attribute": "AttributeError",
	"error-runtime":   "RuntimeError",
	"error-recursion": "RecursionError",
	"assert":          "AssertionError",
}

// TestPythonRuns parses and runs 2000 programs in python3, twice, with different
// string hash seeds: every program must be valid Python, end as its tags say (normal
// return, uncaught exception, or endless loop), print only if tagged so, keep its trace
// small, and behave identically in both runs.
func TestPythonRuns(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH; cannot check the generated programs")
	}
	const n = 2000
	ps := generate(2024, n, Options{})
	type job struct {
		Source string `json:"source"`
		Entry  string `json:"entry"`
	}
	jobs := make([]job, n)
	for i, p := range ps {
		jobs[i] = job{p.Source, p.Entry}
	}
	input, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var runs [2][]runResult
	var errs [2]error
	done := make(chan int)
	for i, seed := range []string{"1", "2"} {
		go func() {
			runs[i], errs[i] = runPython(ctx, python, input, seed)
			done <- i
		}()
	}
	<-done
	<-done
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	a, b := runs[0], runs[1]
	if len(a) != n || len(b) != n {
		t.Fatalf("got %d and %d results for %d programs", len(a), len(b), n)
	}

	status := map[string]int{}
	excs := map[string]int{}
	var events []int
	printed, printTagged := 0, 0
	failures := 0
	fail := func(i int, format string, args ...any) {
		failures++
		if failures <= 8 {
			t.Errorf("program %d: %s\n%s# %s\n", i, fmt.Sprintf(format, args...), ps[i].Source, ps[i].Entry)
		}
	}
	for i, p := range ps {
		r := a[i]
		status[r.Status]++
		if r.Status == "syntax" {
			fail(i, "not valid Python: %s", r.Result)
			continue
		}
		want := "ok"
		switch {
		case slices.Contains(p.Features, "never"):
			want = "never"
		case slices.Contains(p.Features, "error"):
			want = "error"
		}
		if r.Status != want {
			fail(i, "ended %q (%s), want %q", r.Status, r.Exc, want)
		}
		if r.Status == "error" {
			excs[r.Exc]++
			for tag, exc := range expectedExc {
				if slices.Contains(p.Features, tag) && r.Exc != exc {
					fail(i, "tagged %s but raised %s", tag, r.Exc)
				}
			}
			if r.Exc == "NameError" || r.Exc == "UnboundLocalError" {
				fail(i, "raised %s: a generator bug", r.Exc)
			}
		}
		if r.Status == "ok" {
			events = append(events, r.Events)
		}
		if slices.Contains(p.Features, "print") {
			printTagged++
			if r.Stdout != "" {
				printed++
			}
		} else if r.Stdout != "" {
			fail(i, "printed %q but is not tagged print", r.Stdout)
		}
		if r != b[i] {
			fail(i, "runs differ between PYTHONHASHSEED=1 and 2:\n%+v\n%+v", r, b[i])
		}
	}
	if failures > 8 {
		t.Errorf("... %d failures in all", failures)
	}

	t.Logf("statuses: %v; exceptions: %v", status, excs)
	// The default shares are 3% each: 60 of 2000 expected.
	for _, s := range []string{"never", "error"} {
		if c := status[s]; c < 30 || c > 90 {
			t.Errorf("%d of %d programs ended %q, want about 60 (3%%)", c, n, s)
		}
	}
	if status["ok"] < n*90/100 {
		t.Errorf("only %d of %d programs terminated normally", status["ok"], n)
	}
	if printTagged == 0 || printed < printTagged*3/4 {
		t.Errorf("%d of %d print-tagged programs printed", printed, printTagged)
	}
	sort.Ints(events)
	q := func(p float64) int { return events[int(float64(len(events)-1)*p)] }
	t.Logf("trace events of normal runs: median %d, p90 %d, p99 %d, max %d; %d of %d print-tagged programs printed",
		q(0.5), q(0.9), q(0.99), events[len(events)-1], printed, printTagged)
	if q(0.5) > 100 || q(0.95) > 200 {
		t.Errorf("traces too long: median %d, p95 %d events", q(0.5), q(0.95))
	}
	if events[len(events)-1] > 2000 {
		t.Errorf("longest normal trace has %d events", events[len(events)-1])
	}
}
