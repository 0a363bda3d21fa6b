package trace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/sourcegraph/jsonrpc2"
)

// DefaultGrace is how long past a request's wall-clock limit the pool waits for
// a worker's answer before it kills the worker.
const DefaultGrace = 3 * time.Second

// PoolOptions configure NewPool. Zero fields take the defaults.
type PoolOptions struct {
	// Workers is the number of persistent Python processes (default runtime.NumCPU()).
	Workers int
	// Python is the interpreter, a path or a command on PATH (default
	// DefaultPython(): $NDB_PYTHON, else "python3").
	Python string
	// MemoryMiB is the address-space limit of every worker process (default
	// DefaultMemoryMiB). A request's Limits.MemoryMiB can lower it, not raise it.
	MemoryMiB int
	// Grace is added to a request's wall-clock limit to give its hard deadline
	// (default DefaultGrace). The worker itself kills a program's process at the
	// limit plus half of it (at most one second), so the deadline is a last resort.
	Grace time.Duration
	// HashSeed fixes the workers' str and bytes hashing (Python's PYTHONHASHSEED, a
	// decimal number), so that sets of strings iterate in the same order in every
	// worker and every run: the repository level of a corpus needs it to come out
	// the same twice. "" (the default) keeps Python's own random seed per worker.
	HashSeed string
	// Log receives the pool's events and whatever the workers write to their real
	// stdout and stderr. The zero Logger discards everything.
	Log zerolog.Logger
}

// Pool is a fixed-size set of persistent Python tracer workers, each of which
// runs every program in a fresh process of its own (docs/sandbox.md). It is safe
// for concurrent use: each request takes an idle worker, waiting for one while
// its context allows. A worker that dies or overruns its deadline is killed and
// replaced, so the pool keeps its size.
type Pool struct {
	cfg     workerConfig
	size    int
	grace   time.Duration
	log     zerolog.Logger
	version string

	// Every one of the `size` slots is, at any time, in use by a request, an
	// idle worker in idle, or a token in empty: a worker to start on demand
	// (not started yet, or its replacement failed). A request takes an idle
	// worker when there is one and starts one only when there is none.
	idle  chan *worker
	empty chan struct{}
	done  chan struct{}

	mu     sync.Mutex
	closed bool
	live   map[*worker]struct{}
	bg     sync.WaitGroup

	sandbox Sandbox // what the first worker set up

	closeOnce sync.Once
	stats     methodStats
	restarts  atomic.Int64
}

// NewPool resolves the interpreter and starts the first worker; the others start
// when requests overlap (a debugging session, which sends one request at a time,
// never starts a second). ctx bounds the start only. It fails with ErrNoPython
// when the interpreter is missing or too old.
func NewPool(ctx context.Context, opts PoolOptions) (*Pool, error) {
	if err := checkHashSeed(opts.HashSeed); err != nil {
		return nil, err
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.MemoryMiB <= 0 {
		opts.MemoryMiB = DefaultMemoryMiB
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	// The first worker runs the interpreter as found; its ping says which
	// executable and version that is (a separate Python run to ask was most of
	// a launch's wait), and the other workers run that executable, so that a
	// wrapper such as a pyenv shim is paid for once.
	found, err := lookPython(opts.Python)
	if err != nil {
		return nil, fmt.Errorf("trace: new pool: %w", err)
	}
	log := opts.Log.With().Str("component", "trace-pool").Logger()
	p := &Pool{
		cfg:   workerConfig{python: found, memoryMiB: opts.MemoryMiB, killGrace: min(time.Second, opts.Grace/2), hashSeed: opts.HashSeed, log: log},
		size:  opts.Workers,
		grace: opts.Grace,
		log:   log,
		idle:  make(chan *worker, opts.Workers),
		empty: make(chan struct{}, opts.Workers),
		done:  make(chan struct{}),
		live:  make(map[*worker]struct{}),
	}
	// One worker now, to prove the interpreter and the sandbox work; starting
	// them all would put their start-up on the first request's path (on a
	// two-core machine the second worker's start competed with the first trace).
	w, err := p.spawn(ctx)
	if err != nil {
		// A missing, broken or too old interpreter is ErrNoPython; ask it why.
		if _, _, why := ResolvePython(ctx, found); why != nil {
			err = why
		}
		p.Close()
		return nil, fmt.Errorf("trace: new pool: %w", err)
	}
	if !versionAtLeast(w.info.Version, MinPythonVersion) {
		p.Close()
		return nil, fmt.Errorf("trace: new pool: %w: %s is Python %s, need %s or newer", ErrNoPython, found, w.info.Version, MinPythonVersion)
	}
	if exe := w.info.Executable; exe != "" {
		if st, err := os.Stat(exe); err == nil && !st.IsDir() {
			p.cfg.python = exe // sys.executable can be empty or odd in embedded setups
		}
	}
	p.version = w.info.Version
	p.sandbox = w.info.Sandbox
	p.idle <- w
	for range opts.Workers - 1 {
		p.empty <- struct{}{}
	}
	log.Debug().Int("workers", p.size).Str("python", p.cfg.python).Str("version", p.version).Msg("trace pool ready")
	return p, nil
}

// Size returns the number of workers the pool keeps.
func (p *Pool) Size() int { return p.size }

// Python returns the resolved interpreter path the workers run.
func (p *Pool) Python() string { return p.cfg.python }

// Version returns the interpreter's version, e.g. "3.11.7".
func (p *Pool) Version() string { return p.version }

// Sandbox returns what the workers set up for every request's process
// (docs/sandbox.md).
func (p *Pool) Sandbox() Sandbox { return p.sandbox }

// Stats returns how many requests of each method ("trace", "parse", "check",
// "ping") the pool was asked to serve, whatever their outcome.
func (p *Pool) Stats() map[string]int64 { return p.stats.snapshot() }

// Restarts returns how many workers were replaced after dying or being killed.
func (p *Pool) Restarts() int64 { return p.restarts.Load() }

// Trace runs req.Source under the tracer. On ErrWorkerTimeout (a run the
// worker's own alarm could not stop, such as one long call into C) it returns
// the error together with a result whose Status is StatusNever, Exception
// "time limit" and no events.
func (p *Pool) Trace(ctx context.Context, req TraceRequest) (TraceResult, error) {
	req.Limits = p.limits(req.Limits)
	var res TraceResult
	err := p.do(ctx, "trace", req, &res, req.Limits.wall())
	if errors.Is(err, ErrWorkerTimeout) {
		return TraceResult{Status: StatusNever, Exception: "time limit"}, err
	}
	return res, err
}

// Parse returns the functions and executable lines of req.Source without
// running it.
func (p *Pool) Parse(ctx context.Context, req ParseRequest) (ParseResult, error) {
	var res ParseResult
	err := p.do(ctx, "parse", req, &res, Limits{}.wall())
	return res, err
}

// Check runs the program untraced and compares req.Call with req.Expected.
func (p *Pool) Check(ctx context.Context, req CheckRequest) (CheckResult, error) {
	req.Limits = p.limits(req.Limits)
	var res CheckResult
	err := p.do(ctx, "check", req, &res, req.Limits.wall())
	return res, err
}

// Ping asks a worker for its interpreter version; a health check.
func (p *Pool) Ping(ctx context.Context) (string, error) {
	var res pingResult
	err := p.do(ctx, "ping", struct{}{}, &res, 0)
	return res.Version, err
}

// limits fills the defaults of a request; memory defaults to the pool's limit.
func (p *Pool) limits(l Limits) Limits {
	if l.MemoryMiB <= 0 || l.MemoryMiB > p.cfg.memoryMiB {
		l.MemoryMiB = p.cfg.memoryMiB
	}
	return l.WithDefaults()
}

// do serves one request on an idle worker within wall + grace.
func (p *Pool) do(ctx context.Context, method string, params, result any, wall time.Duration) error {
	p.stats.add(method)
	w, err := p.acquire(ctx)
	if err != nil {
		return fmt.Errorf("trace: %s request: %w", method, err)
	}
	err = w.call(ctx, method, params, result, wall+p.grace)
	if err == nil || w.alive() && isWorkerReport(err) {
		p.release(w)
		return err
	}
	p.replace(w, err)
	if p.isClosed() {
		return fmt.Errorf("trace: %s request: %w (%v)", method, ErrPoolClosed, err)
	}
	return err
}

// acquire takes an idle worker; only when there is none does it start one in an
// empty slot (or wait for a busy one, whichever comes first).
func (p *Pool) acquire(ctx context.Context) (*worker, error) {
	var w *worker
	select {
	case w = <-p.idle:
	default:
		select {
		case <-p.done:
			return nil, ErrPoolClosed
		case <-ctx.Done():
			return nil, ctx.Err()
		case w = <-p.idle:
		case <-p.empty:
		}
	}
	if p.isClosed() {
		p.putBack(w)
		return nil, ErrPoolClosed
	}
	if w != nil && w.alive() {
		return w, nil
	}
	if w != nil { // died while idle
		p.forget(w)
		p.restarts.Add(1)
	}
	nw, err := p.spawn(ctx)
	if err != nil {
		p.empty <- struct{}{}
		return nil, err
	}
	return nw, nil
}

// putBack returns a slot: a worker to idle, nil (no worker) to empty.
func (p *Pool) putBack(w *worker) {
	if w == nil {
		p.empty <- struct{}{}
		return
	}
	p.idle <- w
}

// release returns a healthy worker to its slot.
func (p *Pool) release(w *worker) {
	p.idle <- w
}

// replace kills a broken worker and starts its successor in the background;
// the slot is filled with the new worker, or left empty (nil) for the next
// request to retry when the start failed.
func (p *Pool) replace(w *worker, why error) {
	w.kill()
	p.forget(w)
	p.restarts.Add(1)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.empty <- struct{}{}
		return
	}
	p.log.Warn().Err(why).Int("worker_pid", w.pid).Msg("replacing trace worker")
	p.bg.Add(1) // under mu, so never after Close started waiting
	p.mu.Unlock()
	go func() {
		defer p.bg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-p.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		nw, err := p.spawn(ctx)
		if err != nil && !p.isClosed() {
			p.log.Error().Err(err).Msg("trace worker replacement failed; will retry on demand")
		}
		if err != nil {
			nw = nil
		}
		p.putBack(nw)
	}()
}

// spawn starts a worker and registers it, unless the pool closed meanwhile.
func (p *Pool) spawn(ctx context.Context) (*worker, error) {
	w, err := startWorker(ctx, p.cfg)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		w.kill()
		return nil, ErrPoolClosed
	}
	p.live[w] = struct{}{}
	p.mu.Unlock()
	return w, nil
}

func (p *Pool) forget(w *worker) {
	p.mu.Lock()
	delete(p.live, w)
	p.mu.Unlock()
}

func (p *Pool) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Close kills every worker, waits for them to end and makes later requests
// fail with ErrPoolClosed. Requests in flight fail too. It is idempotent.
func (p *Pool) Close() error {
	p.closeOnce.Do(func() {
		p.mu.Lock()
		p.closed = true
		close(p.done)
		live := make([]*worker, 0, len(p.live))
		for w := range p.live {
			live = append(live, w)
		}
		p.live = map[*worker]struct{}{}
		p.mu.Unlock()
		var wg sync.WaitGroup
		for _, w := range live {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.kill()
			}()
		}
		wg.Wait()
		p.bg.Wait()
	})
	return nil
}

// isWorkerReport tells an error the worker itself answered with (the worker
// is fine, even when the request's own process died or was killed) from a lost
// or killed worker.
func isWorkerReport(err error) bool {
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return true
	}
	return !errors.Is(err, ErrWorkerDied) && !errors.Is(err, ErrWorkerTimeout) &&
		!errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// methodStats counts requests by method.
type methodStats struct {
	mu     sync.Mutex
	counts map[string]int64
}

func (s *methodStats) add(method string) {
	s.mu.Lock()
	if s.counts == nil {
		s.counts = make(map[string]int64)
	}
	s.counts[method]++
	s.mu.Unlock()
}

func (s *methodStats) snapshot() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.counts))
	for k, v := range s.counts {
		out[k] = v
	}
	return out
}
