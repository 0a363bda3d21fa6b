package neural

import (
	"context"
	"testing"
	"time"

	"github.com/ndb-project/ndb/grammar"
)

// BenchmarkCopyCandidate times the actions whose greedy answer is weighed against the
// copy candidate (a breakpoint on each line of count.py and step_return from the
// entry, then inv_step_call from the return), with the candidate and without, and
// reports the mean latency of each and their ratio.
func BenchmarkCopyCandidate(b *testing.B) {
	p := loadBenchProgram(b)
	m, tok := loadBenchModel(b)
	defer m.Close()
	actions := []grammar.Action{{Kind: grammar.StepReturn}}
	for l := 2; l <= 6; l++ {
		actions = append(actions, grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: l}}})
	}
	// play runs every action from the entry (and inv_step_call after step_return)
	// and returns the mean latency per action.
	play := func(noCopy bool) time.Duration {
		var total time.Duration
		n := 0
		for _, a := range actions {
			m.ResetCache()
			be, err := New(m, tok, p.gctx, p.entry, Options{Program: p.prog, Copy: CopyOptions{Off: noCopy}})
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			o, err := be.Do(context.Background(), a)
			if err != nil {
				b.Fatal(err)
			}
			total += time.Since(t0)
			n++
			if a.Kind == grammar.StepReturn && !o.Ended() {
				t0 = time.Now()
				if _, err := be.Do(context.Background(), grammar.Action{Kind: grammar.InvStepCall}); err != nil {
					b.Fatal(err)
				}
				total += time.Since(t0)
				n++
			}
		}
		return total / time.Duration(n)
	}
	for i := 0; i < b.N; i++ {
		without, with := play(true), play(false)
		b.ReportMetric(float64(without.Microseconds())/1000, "plain-ms")
		b.ReportMetric(float64(with.Microseconds())/1000, "copy-ms")
		b.ReportMetric(float64(with)/float64(without), "copy/plain")
	}
}
