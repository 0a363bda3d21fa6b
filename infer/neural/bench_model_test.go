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

// BenchmarkSessionModel is BenchmarkSession20 (with cache reuse) on any checkpoint
// folder, one file or shards, named by NDB_BENCH_MODEL; it skips without one. It sizes
// models before training them (docs/gpu-training.md), so it also reports the tokens
// forwarded per action, which a random model does not keep realistic.
func BenchmarkSessionModel(b *testing.B) {
	dir := os.Getenv("NDB_BENCH_MODEL")
	if dir == "" {
		b.Skip("set NDB_BENCH_MODEL to a checkpoint folder")
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
	m, tok, err := Load(dir, gotch.CPU)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	infer.SetThreads(0)
	b.Logf("%s: %.1fM parameters", dir, float64(m.Config.NumParams())/1e6)
	for i := 0; i < b.N; i++ {
		m.ResetCache()
		be, err := New(m, tok, gctx, entry, Options{})
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
			o, err := be.Do(context.Background(), a)
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
			if o.Ended() {
				break
			}
		}
		sorted := slices.Clone(lat)
		slices.Sort(sorted)
		b.ReportMetric(float64(sorted[len(sorted)/2].Milliseconds()), "p50-ms")
		b.ReportMetric(float64(sorted[len(sorted)*95/100].Milliseconds()), "p95-ms")
		var sum time.Duration
		for _, l := range lat {
			sum += l
		}
		b.ReportMetric(float64(be.Generator().Forwarded)/float64(len(lat)), "tok/action")
		b.ReportMetric(float64(sum.Milliseconds())/float64(max(be.Generator().Forwarded, 1)), "ms/tok")
		b.ReportMetric(float64(len(lat)), "actions")
	}
}
