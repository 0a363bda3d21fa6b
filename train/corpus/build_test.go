package corpus

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/decontam"
)

func newPool(t *testing.T, n int) *trace.Pool {
	t.Helper()
	p, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: n, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func readLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func TestBuildSmallCorpus(t *testing.T) {
	dev, err := decontam.FindDevFile(".")
	if err != nil {
		t.Skipf("no CruxEval file: %v", err)
	}
	opts := Options{Programs: 120, Seed: 3, Trajectories: 4, HeldOut: 0.1, CruxEval: []string{dev}}
	build := func(workers int, verify bool) (string, Stats) {
		o := opts
		o.Out = t.TempDir()
		var v *trace.Pool
		if verify {
			v = newPool(t, 1)
		}
		stats, err := Build(context.Background(), newPool(t, workers), v, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		return o.Out, stats
	}
	dirA, stats := build(2, true)
	if stats.Kept != 120 || stats.Trajectories == 0 {
		t.Fatalf("stats: %+v", stats)
	}
	if stats.Exits["never"] == 0 || stats.Exits["error"] == 0 || stats.Exits["normal"] == 0 {
		t.Errorf("want every exit state among the programs, got %v", stats.Exits)
	}
	train := readLines[Trajectory](t, filepath.Join(dirA, TrainText))
	eval := readLines[Trajectory](t, filepath.Join(dirA, EvalText))
	if len(train)+len(eval) != stats.Trajectories || len(eval) == 0 {
		t.Fatalf("%d train + %d eval trajectories, stats say %d", len(train), len(eval), stats.Trajectories)
	}
	// The split is by program: no program in both.
	inTrain := map[string]bool{}
	for _, tr := range train {
		inTrain[tr.Program] = true
	}
	for _, tr := range eval {
		if inTrain[tr.Program] {
			t.Fatalf("program %s is in both splits", tr.Program)
		}
	}
	// Every trajectory decodes, and directions are mixed.
	dirs := map[string]int{}
	for _, tr := range append(train, eval...) {
		if _, err := grammar.DecodeTrajectory(tr.Text); err != nil {
			t.Fatalf("trajectory of %s does not decode: %v", tr.Program, err)
		}
		dirs[tr.Direction]++
	}
	if dirs["forward"] == 0 || dirs["inverse"] == 0 {
		t.Errorf("directions: %v", dirs)
	}
	// Deterministic whatever the number of workers.
	dirB, _ := build(1, false)
	for _, f := range []string{TrainText, EvalText, TrainPrograms, EvalPrograms} {
		a, _ := os.ReadFile(filepath.Join(dirA, f))
		b, _ := os.ReadFile(filepath.Join(dirB, f))
		if string(a) != string(b) {
			t.Errorf("%s differs between a 2-worker and a 1-worker build", f)
		}
	}
}
