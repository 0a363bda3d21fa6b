package trace_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ndb-project/ndb/trace"
)

// tpBenchPrograms are small, typical debugger inputs: a loop, nested calls, a
// class, a generator, an exception caught by the caller.
var tpBenchPrograms = []trace.TraceRequest{
	{Source: tpCount, Entry: `count("strawberry", "r")`},
	{Source: tpNested, Entry: "f(3)"},
	{Source: tpClass, Entry: "main()"},
	{Source: tpGenerator, Entry: "main()"},
	{Source: tpCaught, Entry: "outer()"},
}

func tpBenchPool(b *testing.B, workers int) *trace.Pool {
	b.Helper()
	p, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: workers, Log: tpLog()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

func tpBenchCheck(b *testing.B, res trace.TraceResult, err error) {
	if err != nil || res.Status != trace.StatusNormal || len(res.Events) == 0 {
		b.Fatalf("trace failed: %s %q, %v", res.Status, res.Exception, err)
	}
}

// BenchmarkPoolTrace traces the programs one after another on a warm pool. It
// also reports the CPU time the Python side spends per trace (the worker and the
// process it forks for each request, from /proc; 0 where there is none).
func BenchmarkPoolTrace(b *testing.B) {
	p := tpBenchPool(b, 1)
	ctx := context.Background()
	cpu0 := tpChildrenCPU()
	i := 0
	for b.Loop() {
		res, err := p.Trace(ctx, tpBenchPrograms[i%len(tpBenchPrograms)])
		tpBenchCheck(b, res, err)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "traces/s")
	b.ReportMetric((tpChildrenCPU()-cpu0).Seconds()*1000/float64(b.N), "py-cpu-ms/trace")
}

// tpChildrenCPU is the CPU time of this process's live children and of the
// children they reaped (utime, stime, cutime and cstime of /proc/PID/stat).
func tpChildrenCPU() time.Duration {
	names, _ := os.ReadDir("/proc")
	me := os.Getpid()
	var ticks int64
	for _, e := range names {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 15 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid != me {
			continue
		}
		for _, k := range f[11:15] { // fields 14-17: utime stime cutime cstime
			n, _ := strconv.ParseInt(k, 10, 64)
			ticks += n
		}
	}
	return time.Duration(ticks) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// BenchmarkPoolTraceParallel traces from many goroutines on a pool with one
// worker per CPU.
func BenchmarkPoolTraceParallel(b *testing.B) {
	p := tpBenchPool(b, runtime.NumCPU())
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			res, err := p.Trace(ctx, tpBenchPrograms[i%len(tpBenchPrograms)])
			tpBenchCheck(b, res, err)
			i++
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "traces/s")
}

// BenchmarkFreshPython is the baseline: a new Python process per trace (the
// real interpreter, not a wrapper script, so the comparison is fair).
func BenchmarkFreshPython(b *testing.B) {
	python, _, err := trace.ResolvePython(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	i := 0
	for b.Loop() {
		res, err := trace.TraceOnce(ctx, python, tpBenchPrograms[i%len(tpBenchPrograms)])
		tpBenchCheck(b, res, err)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "traces/s")
}

// BenchmarkPoolVsFresh measures both in the same run, on the same programs and
// the same machine load, one request at a time, and reports the speed-up. A
// fresh process is timed on every 10th iteration.
func BenchmarkPoolVsFresh(b *testing.B) {
	p := tpBenchPool(b, 1)
	python := p.Python()
	ctx := context.Background()
	var poolTime, freshTime time.Duration
	var poolN, freshN int
	i := 0
	for b.Loop() {
		req := tpBenchPrograms[i%len(tpBenchPrograms)]
		t0 := time.Now()
		res, err := p.Trace(ctx, req)
		poolTime += time.Since(t0)
		poolN++
		tpBenchCheck(b, res, err)
		if i%10 == 0 {
			t0 = time.Now()
			res, err = trace.TraceOnce(ctx, python, req)
			freshTime += time.Since(t0)
			freshN++
			tpBenchCheck(b, res, err)
		}
		i++
	}
	poolRate := float64(poolN) / poolTime.Seconds()
	freshRate := float64(freshN) / freshTime.Seconds()
	b.ReportMetric(poolRate, "pool-traces/s")
	b.ReportMetric(freshRate, "fresh-traces/s")
	b.ReportMetric(poolRate/freshRate, "x-faster")
}

// BenchmarkPoolStart is a pool's start (what a recorded launch waits for): the
// interpreter resolved, one worker up and answering, then closed.
func BenchmarkPoolStart(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		p, err := trace.NewPool(ctx, trace.PoolOptions{Workers: runtime.NumCPU(), Log: tpLog()})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}
