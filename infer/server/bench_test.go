package server

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// BenchmarkSession20 plays infer/neural's 20-action benchmark (step_into and
// step_over alternating on count("strawberry", "r"), the bundled model, greedy) in
// process and through a pipe-started model server, and reports each one's
// per-action latency p50/p95: the JSON-RPC hop is per action.
func BenchmarkSession20(b *testing.B) {
	src, err := os.ReadFile("../../testdata/programs/count.py")
	if err != nil {
		b.Fatal(err)
	}
	pool, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1})
	if err != nil {
		b.Skip(err)
	}
	defer pool.Close()
	b.Setenv("NDB_TEST_MODEL_SERVER", "1")
	exe, _ := os.Executable()
	served := &modelserver.Pool{Binary: exe}
	defer served.Close()
	for _, c := range []struct {
		name    string
		factory session.NeuralFactory
	}{{"inprocess", neural.Open}, {"served", served.Open}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, err := session.Open(context.Background(), session.Program{Path: "count.py", Source: string(src), Entry: `count("strawberry", "r")`},
					session.ModeNeural, session.Options{Tracer: pool, Neural: c.factory})
				if err != nil {
					b.Fatal(err)
				}
				var lat []time.Duration
				for k := 0; k < 20; k++ {
					a := grammar.Action{Kind: grammar.StepInto}
					if k%2 == 1 {
						a.Kind = grammar.StepOver
					}
					t0 := time.Now()
					o, err := s.Do(context.Background(), a)
					if err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
					if o.Ended() {
						break
					}
				}
				s.Close()
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
				b.ReportMetric(float64(len(lat)), "actions")
			}
		})
	}
}
