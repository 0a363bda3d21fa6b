package trace

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

var update = flag.Bool("update", false, "rewrite the golden trajectories in testdata/golden")

// goldenForward and goldenInverse are the fixed walks every test program's golden file
// records, besides trajectories sampled with the paper's policy.
var (
	goldenForward = "step_into,step_into,step_over,step_into,step_return,step_over,step_return,continue"
	goldenInverse = "inv_step_into,inv_step_into,inv_step_over,inv_step_into,inv_step_call,inv_step_over,inv_step_call"
)

func mustActions(t *testing.T, list string) []grammar.Action {
	t.Helper()
	var as []grammar.Action
	for _, s := range strings.Split(list, ",") {
		a, err := grammar.ParseActionSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	return as
}

func encode(t *testing.T, rec *Recording, tr grammar.Trajectory) string {
	t.Helper()
	tr.Context = rec.Context
	text, err := grammar.EncodeTrajectory(tr)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// goldenText renders the golden file of one program.
func goldenText(t *testing.T, rec *Recording) string {
	var b strings.Builder
	s := NewSampler(7, SampleOptions{Lines: rec.Lines()})
	fmt.Fprintf(&b, "### forward: %s\n%s\n", goldenForward, encode(t, rec, s.Walk(rec.Forward, 0, mustActions(t, goldenForward))))
	fmt.Fprintf(&b, "### inverse: %s\n%s\n", goldenInverse, encode(t, rec, s.Walk(rec.Forward.Inverse(), 0, mustActions(t, goldenInverse))))
	for seed := uint64(1); seed <= 2; seed++ {
		s := NewSampler(seed, SampleOptions{Lines: rec.Lines()})
		fmt.Fprintf(&b, "### sampled forward, seed %d\n%s\n", seed, encode(t, rec, s.Sample(rec.Forward)))
		fmt.Fprintf(&b, "### sampled inverse, seed %d\n%s\n", seed, encode(t, rec, s.Sample(rec.Forward.Inverse())))
	}
	return b.String()
}

func TestGoldenTrajectories(t *testing.T) {
	for _, p := range testPrograms(t) {
		rec := record(t, p)
		got := goldenText(t, rec)
		path := filepath.Join("..", "testdata", "golden", p.Name+".txt")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./trace -run Golden -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s: trajectories differ from %s (run go test ./trace -run Golden -update and review the diff)", p.Name, path)
		}
	}
}

// specExample is the forward trajectory of spec section 5, byte for byte.
const specExample = `<|trace_context_start|>  1| def count(s, t):
  2|     n = 0
  3|     for c in s:
  4|         if c == t:
  5|             n += 1
  6|     return n
<|forward|><|call_sep|>{"s": "'berry'", "t": "'r'"}<|src_sep|>  1| def count(s, t):<|frame_sep|><|action_sep|><|step_into|><|line_sep|>{"..": ".."}<|src_sep|>  2|     n = 0<|frame_sep|><|action_sep|><|step_return|><|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"2"<|frame_sep|>`

func TestSpecExample(t *testing.T) {
	rec := record(t, programNamed(t, "count"))
	tr := NewSampler(1, SampleOptions{}).Walk(rec.Forward, 0, mustActions(t, "step_into,step_return"))
	if got := encode(t, rec, tr); got != specExample {
		t.Errorf("count(\"berry\", \"r\"):\n got %q\nwant %q", got, specExample)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	n := 0
	for _, p := range testPrograms(t) {
		rec := record(t, p)
		for seed := uint64(0); seed < 60; seed++ {
			s := NewSampler(seed, SampleOptions{Lines: rec.Lines()})
			for _, tree := range []*Tree{rec.Forward, rec.Forward.Inverse()} {
				tr := s.Sample(tree)
				tr.Context = rec.Context
				text, err := grammar.EncodeTrajectory(tr)
				if err != nil {
					t.Fatal(err)
				}
				back, err := grammar.DecodeTrajectory(text)
				if err != nil {
					t.Fatalf("%s seed %d: %v\n%s", p.Name, seed, err, text)
				}
				if !back.Start.Equal(tr.Start) || len(back.Steps) != len(tr.Steps) {
					t.Fatalf("%s seed %d: decoded trajectory differs", p.Name, seed)
				}
				for k := range tr.Steps {
					w, g := tr.Steps[k], back.Steps[k]
					if w.Exit != g.Exit || w.Action.Kind != g.Action.Kind || (w.Exit == "" && !w.State.Equal(g.State)) {
						t.Fatalf("%s seed %d step %d: decoded %+v, want %+v", p.Name, seed, k, g, w)
					}
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d trajectories round-tripped", n)
	}
}
