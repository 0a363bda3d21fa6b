package infer

import (
	"fmt"
	"sync"
)

// Runner runs the KV-cached forward passes of a model server's sessions, each a
// share of a loaded model (Runner.Share), and bounds the memory of their caches.
//
// Batching: a session's prediction runs between Begin and End on its own goroutine;
// its forward passes (the prompt's new tokens, then one step of generated tokens at a
// time) wait in the Runner until every running prediction has one waiting, and all
// of them then run as one packed forward pass (packed.go): the tokens of every pass
// side by side through the projections, the feed-forward layers and the head, the
// attention of each over its own cache at its own positions. A prediction that has
// its pass waiting does not hold the model, so one long prediction does not keep the
// others waiting for its end: they take turns per step, and share the steps they take
// at the same time.
//
// Memory: a share's cache grows with its sequence, up to the share's context (its
// per-session limit, Share's maxPositions). With a total bound (RunnerOptions), a
// cache that would go past it first frees the caches of idle shares, least recently
// used first (evicted): their next pass finds an empty cache, and the generator runs
// their prompt again from its first token (infer.Generator keeps the prompt, so the
// states are the same).
//
// Libtorch runs on one goroutine at a time: the passes under the Runner's lock, and
// everything else done to its models (loading, closing, an unshared prediction)
// inside Exclusive.
type Runner struct {
	opt RunnerOptions
	run sync.Mutex // held while libtorch runs

	mu      sync.Mutex
	active  int     // predictions between Begin and End
	pending []*pass // passes waiting for the others
	shares  map[*Model]*shareState
	used    int64 // bytes of all the shares' caches
	clock   uint64
	stats   RunnerStats
}

// RunnerOptions configure a Runner.
type RunnerOptions struct {
	// TotalCacheBytes bounds the memory of all the shares' KV caches together
	// (0: no bound).
	TotalCacheBytes int64
	// NoBatch runs every pass on its own as it comes (for comparing).
	NoBatch bool
}

// RunnerStats count what a Runner did.
type RunnerStats struct {
	Passes     int   // forward passes run
	Batches    int   // packed forward passes, of two passes or more
	Batched    int   // passes run in those
	Evictions  int   // idle caches freed to make room
	CacheBytes int64 // memory of the caches now
}

// shareState is what the Runner keeps of a share.
type shareState struct {
	held    int    // predictions running on it (Begin without End)
	lastUse uint64 // the clock at its last pass
}

// pass is one cached forward pass waiting to run.
type pass struct {
	m        *Model
	tokens   []int
	pos      int
	lastOnly bool
	rows     [][]float32
	err      error
	done     chan struct{}
}

// NewRunner returns a Runner.
func NewRunner(opt RunnerOptions) *Runner {
	return &Runner{opt: opt, shares: map[*Model]*shareState{}}
}

// Lock holds libtorch for the caller until Unlock: no pass runs meanwhile (the
// caller may load or close a model, or run an unshared one). Never call a share's
// Forward, Begin or End while holding it.
func (r *Runner) Lock() { r.run.Lock() }

// Unlock lets the passes run again.
func (r *Runner) Unlock() { r.run.Unlock() }

// Exclusive runs f while no pass runs: f may use libtorch (load or close a model,
// run an unshared one).
func (r *Runner) Exclusive(f func()) {
	r.run.Lock()
	defer r.run.Unlock()
	f()
}

// Share returns a share of m (Model.Share) whose cached forward passes run through r,
// with a context of at most maxPositions (<= 0, or more than m's: m's context). The
// share's Config.MaxSeqLen is that context, so a generator and a prompter sized from
// it keep the session's prompts within its cache's limit. Close the share to free its
// cache (inside Exclusive, or when no pass of it can run).
func (r *Runner) Share(m *Model, maxPositions int) *Model {
	s := m.Share()
	s.runner = r
	if maxPositions > 0 && maxPositions < s.Config.MaxSeqLen {
		s.Config.MaxSeqLen = maxPositions
	}
	r.mu.Lock()
	r.shares[s] = &shareState{}
	r.mu.Unlock()
	return s
}

// Begin says a prediction on share m starts: until End, the Runner waits for its
// passes before it runs the others', and never evicts its cache. Every Begin needs
// its End, and between the two the prediction must keep calling m's Forward (or end):
// the other predictions wait for it.
func (r *Runner) Begin(m *Model) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.active++
	if st := r.shares[m]; st != nil {
		st.held++
	}
}

// End says the prediction that Begin announced is over.
func (r *Runner) End(m *Model) {
	r.mu.Lock()
	r.active--
	if st := r.shares[m]; st != nil {
		st.held--
	}
	batch := r.ready()
	r.mu.Unlock()
	if batch != nil {
		r.runBatch(batch)
	}
}

// Stats returns the Runner's counts.
func (r *Runner) Stats() RunnerStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.stats
	st.CacheBytes = r.used
	return st
}

// forget drops share m (closing): its cache's memory is given back.
func (r *Runner) forget(m *Model) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.cache != nil {
		r.used -= m.cache.Bytes()
	}
	delete(r.shares, m)
}

// forward runs one pass of share m, batched with the passes that wait beside it.
func (r *Runner) forward(m *Model, tokens []int, pos int, lastOnly bool) ([][]float32, error) {
	p := &pass{m: m, tokens: tokens, pos: pos, lastOnly: lastOnly, done: make(chan struct{})}
	r.mu.Lock()
	r.pending = append(r.pending, p)
	batch := r.ready()
	r.mu.Unlock()
	if batch != nil {
		r.runBatch(batch)
	}
	<-p.done
	return p.rows, p.err
}

// ready takes the waiting passes when every running prediction has one waiting (or,
// without batching, at once). Under r.mu.
func (r *Runner) ready() []*pass {
	if len(r.pending) == 0 || (!r.opt.NoBatch && len(r.pending) < r.active) {
		return nil
	}
	b := r.pending
	r.pending = nil
	return b
}

// runBatch runs the passes: room in their caches, then one packed forward pass per
// loaded model (a single pass runs as Forward does in process).
func (r *Runner) runBatch(batch []*pass) {
	r.run.Lock()
	defer r.run.Unlock()
	defer func() {
		for _, p := range batch {
			close(p.done)
		}
	}()
	var ok []*pass
	NoGrad(func() {
		r.mu.Lock()
		r.clock++
		for _, p := range batch {
			if st := r.shares[p.m]; st != nil {
				st.lastUse = r.clock
			}
		}
		for _, p := range batch {
			if p.err = r.room(p, batch); p.err == nil {
				ok = append(ok, p)
			}
		}
		r.stats.Passes += len(ok)
		r.mu.Unlock()
	})
	// Group the passes by the weights they run (shares of one loaded model).
	for len(ok) > 0 {
		w := ok[0].m.embed
		var group, rest []*pass
		for _, p := range ok {
			if p.m.embed == w {
				group = append(group, p)
			} else {
				rest = append(rest, p)
			}
		}
		ok = rest
		if len(group) > 1 {
			r.mu.Lock()
			r.stats.Batches++
			r.stats.Batched += len(group)
			r.mu.Unlock()
		}
		runPacked(group)
	}
}

// room makes p's cache hold its positions: it allocates or grows it (to twice its
// size, in steps of 64 positions, at most the share's context), evicting idle caches
// first when the total bound needs it, and marks the positions valid. Under r.run
// and r.mu.
func (r *Runner) room(p *pass, batch []*pass) (err error) {
	defer recoverTorch(&err, "infer: the KV cache")
	m := p.m
	if m.cache == nil {
		m.cache = &kvCache{cfg: m.Config, device: m.Device(), maxSeq: m.Config.MaxSeqLen}
	}
	c := m.cache
	if err := c.check(p.pos, len(p.tokens)); err != nil {
		return fmt.Errorf("infer.Forward: %w", err)
	}
	need := p.pos + len(p.tokens)
	if need > c.cap {
		capacity := min((max(need, 2*c.cap, 64)+63)/64*64, c.maxSeq)
		bpp := bytesPerPosition(c.cfg)
		if r.evictFor(int64(capacity-c.cap)*bpp, batch) != nil {
			capacity = need // the least room that does
			if err := r.evictFor(int64(capacity-c.cap)*bpp, batch); err != nil {
				return err
			}
		}
		r.used += int64(capacity-c.cap) * bpp
		c.grow(capacity)
	}
	return c.begin(p.pos, len(p.tokens))
}

// evictFor frees idle caches, least recently used first, until delta more bytes fit
// the total bound. Under r.run and r.mu.
func (r *Runner) evictFor(delta int64, batch []*pass) error {
	total := r.opt.TotalCacheBytes
	if total <= 0 {
		return nil
	}
	inBatch := map[*Model]bool{}
	for _, p := range batch {
		inBatch[p.m] = true
	}
	for r.used+delta > total {
		var victim *Model
		for s, st := range r.shares {
			if st.held > 0 || inBatch[s] || s.cache == nil || s.cache.cap == 0 {
				continue
			}
			if victim == nil || st.lastUse < r.shares[victim].lastUse {
				victim = s
			}
		}
		if victim == nil {
			return &CacheMemoryError{Need: delta, Used: r.used, Total: total}
		}
		r.used -= victim.cache.Bytes()
		victim.cache.free()
		r.stats.Evictions++
	}
	return nil
}

// CacheMemoryError says the caches of the predictions running now fill the total
// bound, so a cache cannot grow.
type CacheMemoryError struct {
	Need, Used, Total int64 // bytes
}

func (e *CacheMemoryError) Error() string {
	mb := func(n int64) float64 { return float64(n) / (1 << 20) }
	return fmt.Sprintf("this prediction's KV cache needs %.1f MB more, and the predictions running now hold %.1f of the %.1f MB",
		mb(e.Need), mb(e.Used), mb(e.Total))
}
