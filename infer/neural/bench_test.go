package neural

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/trace"
)

// realCheckpoint is the training run's checkpoint, when there is one.
const realCheckpoint = "../../build/run/checkpoint"

// BenchmarkSession20 plays a 20-action session (step_into and step_over) on
// count.py with the real checkpoint, with and without KV-cache reuse, and reports
// per-action latency p50/p95, the latency of action 20 over action 2, and tokens
// run per second.
func BenchmarkSession20(b *testing.B) {
	if _, err := os.Stat(realCheckpoint + "/model.safetensors"); err != nil {
		b.Skip("no checkpoint at " + realCheckpoint)
	}
	src, _ := os.ReadFile("../../testdata/programs/count.py")
	pool, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1})
	if err != nil {
		b.Skip(err)
	}
	defer pool.Close()
	parsed, err := pool.Parse(context.Background(), trace.ParseRequest{Source: string(src)})
	if err != nil {
		b.Fatal(err)
	}
	gctx := grammar.NewContext("", string(src))
	entry, _ := EntryState(gctx, parsed, `count("strawberry", "r")`)
	m, tok, err := Load(realCheckpoint, gotch.CPU)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	infer.SetThreads(0)
	for _, reuse := range []bool{true, false} {
		name := "reuse"
		if !reuse {
			name = "noreuse"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m.ResetCache()
				be, err := New(m, tok, gctx, entry, Options{})
				if err != nil {
					b.Fatal(err)
				}
				be.Generator().NoReuse = !reuse
				var lat []time.Duration
				start := time.Now()
				for k := 0; k < 20; k++ {
					a := grammar.Action{Kind: grammar.StepInto}
					if k%2 == 1 {
						a.Kind = grammar.StepOver
					}
					t0 := time.Now()
					o, err := be.Do(context.Background(), a)
					if err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
					if o.Ended() {
						break
					}
				}
				total := time.Since(start)
				sorted := slices.Clone(lat)
				slices.Sort(sorted)
				b.ReportMetric(float64(sorted[len(sorted)/2].Milliseconds()), "p50-ms")
				b.ReportMetric(float64(sorted[len(sorted)*95/100].Milliseconds()), "p95-ms")
				if len(lat) >= 20 {
					b.ReportMetric(float64(lat[19])/float64(lat[1]), "a20/a2")
				}
				b.ReportMetric(float64(be.Generator().Forwarded)/total.Seconds(), "tok/s")
				b.ReportMetric(float64(len(lat)), "actions")
			}
		})
	}
}
