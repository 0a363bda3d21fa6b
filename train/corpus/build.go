package corpus

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/decontam"
	"github.com/ndb-project/ndb/train/synth"
)

// job is one generated program on its way through the workers.
type job struct {
	index int
	prog  synth.Program
	id    string // hash of the normalized source
	rec   *trace.Recording
	drop  *int // the Stats counter that says why it was dropped, if it was
}

// Progress receives the running counts after each program.
type Progress func(s Stats)

// Build generates the function-level corpus into opts.Out. Programs are traced on
// pool; when verify is non-nil each program is traced again there (other worker
// processes, other hash seeds) and dropped if the runs differ. The output is the same
// for the same options whatever the number of workers.
func Build(ctx context.Context, pool, verify *trace.Pool, opts Options, progress Progress) (Stats, error) {
	opts = opts.withDefaults()
	var filter *decontam.Filter
	if len(opts.CruxEval) > 0 {
		set, err := loadCruxEval(opts.CruxEval)
		if err != nil {
			return Stats{}, err
		}
		filter = decontam.NewFilter(set)
	}
	out, err := newWriter(opts)
	if err != nil {
		return Stats{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var stats Stats
	jobs := make(chan *job, 4*pool.Size())
	results := make(chan *job, 4*pool.Size())
	var stop atomic.Bool
	genErr := make(chan error, 1)
	go func() { genErr <- generate(ctx, opts, filter, &stats, &stop, jobs) }()

	var wg sync.WaitGroup
	for w := 0; w < pool.Size()+1; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				runJob(ctx, pool, verify, opts, j, &stats)
				results <- j
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	// Results arrive in any order; they are written in generation order.
	pending := map[int]*job{}
	next := 0
	var writeErr error
	for j := range results {
		pending[j.index] = j
		for writeErr == nil && !stop.Load() {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			writeErr = out.program(r, &stats)
			if progress != nil {
				progress(stats)
			}
			if stats.Kept >= opts.Programs {
				stop.Store(true)
				cancel()
			}
		}
		if writeErr != nil && !stop.Load() {
			stop.Store(true)
			cancel()
		}
	}
	if err := <-genErr; err != nil && !errors.Is(err, context.Canceled) && writeErr == nil {
		writeErr = err
	}
	if err := out.close(stats); err != nil && writeErr == nil {
		writeErr = err
	}
	if writeErr == nil && stats.Kept < opts.Programs {
		writeErr = fmt.Errorf("stopped after %d of %d programs: %w", stats.Kept, opts.Programs, context.Cause(ctx))
	}
	return stats, writeErr
}

// generate produces programs in order, skipping duplicates and CruxEval matches
// (counted in stats under statsMu-free fields: only this goroutine writes them
// before the writer reads them through the jobs' order).
func generate(ctx context.Context, opts Options, filter *decontam.Filter, stats *Stats, stop *atomic.Bool, jobs chan<- *job) error {
	defer close(jobs)
	g := synth.NewGenerator(opts.Seed, synth.Options{})
	seen := map[string]bool{}
	for index := 0; !stop.Load(); index++ {
		p := g.Next()
		id := programID(p.Source)
		j := &job{index: index, prog: p, id: id}
		switch {
		case seen[id]:
			j.drop = &stats.Duplicates
		case filter != nil && !filter.Keep(p.Source):
			j.drop = &stats.Contaminated
		}
		seen[id] = true
		select {
		case jobs <- j:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// programID names a program by its normalized source.
func programID(source string) string {
	sum := sha256.Sum256([]byte(synth.Normalize(source)))
	return hex.EncodeToString(sum[:8])
}

// heldOut decides the split of a program from its id, so that a program is in the
// same split in every build.
func heldOut(id string, share float64) bool {
	b, _ := hex.DecodeString(id)
	return float64(binary.BigEndian.Uint64(b))/float64(^uint64(0)) < share
}

// runJob traces a program (twice when verifying) and decides whether to keep it.
func runJob(ctx context.Context, pool, verify *trace.Pool, opts Options, j *job, stats *Stats) {
	if j.drop != nil {
		return
	}
	rec, err := pool.Record(ctx, "program.py", j.prog.Source, j.prog.Entry, opts.Limits)
	var pe *trace.ProgramError
	switch {
	case errors.As(err, &pe):
		j.drop = &stats.ProgramErrors
		return
	case err != nil:
		j.drop = &stats.WorkerErrors
		return
	}
	meantNever := hasFeature(j.prog, "never")
	switch {
	case rec.Result.Status == trace.StatusNever && !meantNever:
		j.drop = &stats.OverLimits
		return
	case strings.Contains(rec.Result.Output, outputCutMarker):
		j.drop = &stats.OutputOverflow
		return
	}
	if verify != nil && rec.Result.Status != trace.StatusNever {
		again, err := verify.Trace(ctx, trace.TraceRequest{Source: j.prog.Source, Entry: j.prog.Entry, Limits: opts.Limits})
		if err != nil {
			j.drop = &stats.WorkerErrors
			return
		}
		if !sameRun(rec.Result, again) {
			j.drop = &stats.Nondeterministic
			return
		}
	}
	j.rec = rec
}

// outputCutMarker is what the tracer appends to output it cut at the output limit.
const outputCutMarker = "[ndb: output truncated"

func hasFeature(p synth.Program, f string) bool {
	for _, x := range p.Features {
		if x == f {
			return true
		}
	}
	return false
}

// sameRun reports whether two runs recorded the same events, status and output.
func sameRun(a, b trace.TraceResult) bool {
	if a.Status != b.Status || a.Output != b.Output || a.Exception != b.Exception || len(a.Events) != len(b.Events) {
		return false
	}
	for i := range a.Events {
		x, y := a.Events[i], b.Events[i]
		if x.Event != y.Event || x.Line != y.Line || x.Depth != y.Depth || x.Arg != y.Arg || len(x.Locals) != len(y.Locals) {
			return false
		}
		for k := range x.Locals {
			if x.Locals[k] != y.Locals[k] {
				return false
			}
		}
	}
	return true
}

func loadCruxEval(paths []string) (*decontam.Set, error) {
	var all []decontam.Problem
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		problems, err := decontam.ReadProblems(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		all = append(all, problems...)
	}
	return decontam.NewSet(all), nil
}
