package neural

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/trace"
)

// benchModel is the checkpoint the benchmarks run: NDB_BENCH_MODEL when set (any
// folder, one file or shards), else the model bundled with ndb.
func benchModel(b *testing.B) string {
	if dir := os.Getenv("NDB_BENCH_MODEL"); dir != "" {
		return dir
	}
	dir, err := models.DefaultDir()
	if err != nil {
		b.Skip("no bundled model: ", err)
	}
	return dir
}

// benchProgram is count.py parsed, its context and its entry state.
type benchProgram struct {
	gctx  grammar.Context
	entry grammar.State
	prog  *grammar.Program // the program facts (nil: the grammar alone)
}

func loadBenchProgram(b *testing.B) benchProgram {
	src, err := os.ReadFile("../../testdata/programs/count.py")
	if err != nil {
		b.Fatal(err)
	}
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
	entry, err := EntryState(gctx, parsed, `count("strawberry", "r")`)
	if err != nil {
		b.Fatal(err)
	}
	return benchProgram{gctx, entry, ProgramOf(gctx, parsed)}
}

func loadBenchModel(b *testing.B) (*infer.Model, *tokenizer.Tokenizer) {
	dir := benchModel(b)
	m, tok, err := Load(dir, gotch.CPU)
	if err != nil {
		b.Fatal(err)
	}
	infer.SetThreads(0)
	b.Logf("%s: %.1fM parameters, %d threads", dir, float64(m.Config.NumParams())/1e6, infer.Threads())
	return m, tok
}

// sessionRun is n actions of alternating step_into and step_over, in one session or,
// when the predicted program ends before, in several one after another.
type sessionRun struct {
	latencies []time.Duration
	forwarded int // tokens run through the model
	sessions  int
}

// playSession plays n actions (step_into, step_over, ...) from the entry; when the
// predicted program ends, a new session starts from the entry, so that n actions are
// measured whatever the model predicts.
func playSession(b *testing.B, m *infer.Model, tok *tokenizer.Tokenizer, p benchProgram, n int, reuse bool) sessionRun {
	var r sessionRun
	for len(r.latencies) < n {
		m.ResetCache()
		be, err := New(m, tok, p.gctx, p.entry, Options{Program: p.prog})
		if err != nil {
			b.Fatal(err)
		}
		be.Generator().NoReuse = !reuse
		r.sessions++
		for k := 0; len(r.latencies) < n; k++ {
			a := grammar.Action{Kind: grammar.StepInto}
			if k%2 == 1 {
				a.Kind = grammar.StepOver
			}
			t0 := time.Now()
			o, err := be.Do(context.Background(), a)
			if err != nil {
				b.Fatal(err)
			}
			r.latencies = append(r.latencies, time.Since(t0))
			if o.Ended() {
				break
			}
		}
		r.forwarded += be.Generator().Forwarded
	}
	return r
}

// BenchmarkSession20 plays 20 actions (step_into and step_over) on count.py, in one
// session unless the predicted program ends first, under the program facts (the
// default) and the grammar alone, with and without KV-cache reuse, and reports
// per-action latency p50/p95, the latency of action 20 over action 2 (in one
// session), tokens forwarded per action and per second, and how many sessions the 20
// actions took.
func BenchmarkSession20(b *testing.B) {
	withFacts := loadBenchProgram(b)
	if withFacts.prog == nil {
		b.Fatal("count.py has no program facts")
	}
	grammarOnly := withFacts
	grammarOnly.prog = nil
	m, tok := loadBenchModel(b)
	defer m.Close()
	for _, c := range []struct {
		name  string
		p     benchProgram
		reuse bool
	}{
		{"program/reuse", withFacts, true}, {"grammar/reuse", grammarOnly, true},
		{"program/noreuse", withFacts, false}, {"grammar/noreuse", grammarOnly, false},
	} {
		p, reuse := c.p, c.reuse
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r := playSession(b, m, tok, p, 20, reuse)
				sorted := slices.Clone(r.latencies)
				slices.Sort(sorted)
				var total time.Duration
				for _, l := range r.latencies {
					total += l
				}
				b.ReportMetric(float64(sorted[len(sorted)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(sorted[len(sorted)*95/100].Microseconds())/1000, "p95-ms")
				if r.sessions == 1 {
					b.ReportMetric(float64(r.latencies[19])/float64(r.latencies[1]), "a20/a2")
				}
				b.ReportMetric(float64(r.sessions), "sessions")
				b.ReportMetric(float64(r.forwarded)/float64(len(r.latencies)), "tok/action")
				b.ReportMetric(float64(r.forwarded)/total.Seconds(), "tok/s")
				b.ReportMetric(float64(len(r.latencies)), "actions")
			}
		})
	}
}

// BenchmarkResidentMemory makes 1,000 predictions (sessions of up to 20 actions,
// one after another on one loaded model) and reports the resident memory after
// loading, after the first 100 predictions (the allocator's warm-up) and at the end,
// and the growth from the second to the third, as a user's process would see it (no
// forced collection). NDB_BENCH_PREDICTIONS changes the count.
func BenchmarkResidentMemory(b *testing.B) {
	total := 1000
	if n, err := strconv.Atoi(os.Getenv("NDB_BENCH_PREDICTIONS")); err == nil && n > 0 {
		total = n
	}
	p := loadBenchProgram(b)
	m, tok := loadBenchModel(b)
	defer m.Close()
	loaded := residentMB(b)
	for i := 0; i < b.N; i++ {
		done, warm := 0, 0.0
		for done < total {
			r := playSession(b, m, tok, p, min(20, total-done), true)
			before := done
			done += len(r.latencies)
			if before < total/10 && done >= total/10 {
				warm = residentMB(b)
			}
		}
		end := residentMB(b)
		b.ReportMetric(loaded, "rss-loaded-MB")
		b.ReportMetric(warm, "rss-warm-MB")
		b.ReportMetric(end, "rss-end-MB")
		b.ReportMetric(100*(end-warm)/warm, "growth-%")
		b.ReportMetric(float64(done), "predictions")
	}
}

// residentMB is this process's resident set size in MB, from /proc/self/status.
func residentMB(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status: ", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}
