package server

import (
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

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

// BenchmarkConcurrentSessions plays BenchmarkSession20's 20 actions on N sessions of
// one --listen server at the same time (N = 1, 2, 4; the bundled model, greedy), with
// the forward passes batched across sessions and, as before batching, one prediction
// at a time (nobatch). It reports the predictions per second of all sessions together
// and each action's latency p50/p95.
func BenchmarkConcurrentSessions(b *testing.B) {
	src, err := os.ReadFile("../../testdata/programs/count.py")
	if err != nil {
		b.Fatal(err)
	}
	pool, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1})
	if err != nil {
		b.Skip(err)
	}
	defer pool.Close()
	for _, noBatch := range []bool{true, false} {
		for _, n := range []int{1, 2, 4} {
			name := fmt.Sprintf("batched/N=%d", n)
			if noBatch {
				name = fmt.Sprintf("nobatch/N=%d", n)
			}
			b.Run(name, func(b *testing.B) {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					b.Fatal(err)
				}
				srv := New(Options{Log: zerolog.Nop(), MaxSessions: n, NoBatch: noBatch})
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { srv.Serve(ctx, ln); close(done) }()
				defer func() { cancel(); <-done; srv.Close() }()
				addr := ln.Addr().String()
				for i := 0; i < b.N; i++ {
					ss := make([]*session.Session, n)
					for k := range ss {
						ss[k], err = session.Open(context.Background(), session.Program{Path: "count.py", Source: string(src), Entry: `count("strawberry", "r")`},
							session.ModeNeural, session.Options{Tracer: pool, Neural: modelserver.Default.Open, ModelServer: addr})
						if err != nil {
							b.Fatal(err)
						}
					}
					lats := make([][]time.Duration, n)
					var wg sync.WaitGroup
					t0 := time.Now()
					for k, s := range ss {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for j := 0; j < 20; j++ {
								a := grammar.Action{Kind: grammar.StepInto}
								if j%2 == 1 {
									a.Kind = grammar.StepOver
								}
								t1 := time.Now()
								o, err := s.Do(context.Background(), a)
								if err != nil {
									b.Error(err)
									return
								}
								lats[k] = append(lats[k], time.Since(t1))
								if o.Ended() {
									return
								}
							}
						}()
					}
					wg.Wait()
					wall := time.Since(t0)
					var all []time.Duration
					for k, s := range ss {
						all = append(all, lats[k]...)
						s.Close()
					}
					slices.Sort(all)
					b.ReportMetric(float64(len(all))/wall.Seconds(), "pred/s")
					b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
					b.ReportMetric(float64(all[len(all)*95/100].Microseconds())/1000, "p95-ms")
					b.ReportMetric(float64(len(all)), "actions")
				}
				b.Logf("%s: %+v", name, srv.CacheStats())
			})
		}
	}
}
