package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/ndb-project/ndb/session"
)

// registry holds the open sessions under unguessable ids: one agent cannot reach
// another's session by counting. It enforces the limit on open sessions and closes
// sessions idle past the timeout (sweep).
type registry struct {
	max  int           // open sessions at most (0: no limit)
	idle time.Duration // close sessions idle this long (0: never)
	now  func() time.Time

	mu      sync.Mutex
	byID    map[string]*entry
	opening int                  // sessions being opened, counted against max
	expired map[string]time.Time // ids the idle timeout closed, and when
	closed  bool
}

// entry is one open session. sem is held by the tool call working on it, so calls
// on one session run one at a time and each answers the state it left.
type entry struct {
	id     string
	sess   *session.Session
	sem    chan struct{}
	ctx    context.Context // done when the session ends: cancels a call in flight
	cancel context.CancelFunc
	// guarded by registry.mu
	last time.Time
	busy int
}

// maxExpired bounds the ids remembered as expired.
const maxExpired = 1024

func newRegistry(max int, idle time.Duration, now func() time.Time) *registry {
	if now == nil {
		now = time.Now
	}
	return &registry{max: max, idle: idle, now: now, byID: map[string]*entry{}, expired: map[string]time.Time{}}
}

// reserve claims a slot for a session about to be opened; done releases it.
func (r *registry) reserve() (done func(), err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, fmt.Errorf("the server is shutting down")
	}
	if r.max > 0 && len(r.byID)+r.opening >= r.max {
		return nil, fmt.Errorf("%d sessions are open, the most this server allows (--max-sessions %d): end one with end_session, or restart ndb mcp with a higher --max-sessions", len(r.byID)+r.opening, r.max)
	}
	r.opening++
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			r.opening--
			r.mu.Unlock()
		})
	}, nil
}

// add registers an opened session under a new id.
func (r *registry) add(s *session.Session) (string, error) {
	ctx, cancel := context.WithCancel(context.Background())
	e := &entry{id: newID(), sess: s, sem: make(chan struct{}, 1), ctx: ctx, cancel: cancel}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		cancel()
		return "", fmt.Errorf("the server is shutting down")
	}
	e.last = r.now()
	r.byID[e.id] = e
	return e.id, nil
}

func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return "ndb-" + hex.EncodeToString(b[:])
}

// lookupErr says why id names no open session.
func (r *registry) lookupErr(id string) error {
	if id == "" {
		return fmt.Errorf(`"session" is required: the id start_session returned`)
	}
	if at, ok := r.expired[id]; ok {
		return fmt.Errorf("session %s was closed after %s idle (at %s, --idle-timeout): start a new one with start_session", id, r.idle, at.UTC().Format(time.TimeOnly))
	}
	return fmt.Errorf("unknown session %q: it was never opened or has ended; start_session opens one (its result has the id)", id)
}

// acquire waits for the session's call in flight (if any) and holds the session for
// one call: the returned context ends with ctx or when the session ends; release
// marks the session used.
func (r *registry) acquire(ctx context.Context, id string) (*entry, context.Context, func(), error) {
	r.mu.Lock()
	e, ok := r.byID[id]
	if !ok {
		err := r.lookupErr(id)
		r.mu.Unlock()
		return nil, nil, nil, err
	}
	e.busy++
	r.mu.Unlock()
	unbusy := func() {
		r.mu.Lock()
		e.busy--
		e.last = r.now()
		r.mu.Unlock()
	}
	select {
	case e.sem <- struct{}{}:
	case <-ctx.Done():
		unbusy()
		return nil, nil, nil, ctx.Err()
	case <-e.ctx.Done():
		unbusy()
		return nil, nil, nil, fmt.Errorf("session %s ended while this call waited for it", id)
	}
	cctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(e.ctx, cancel)
	release := func() {
		stop()
		cancel()
		<-e.sem
		unbusy()
	}
	return e, cctx, release, nil
}

// end removes a session, cancels the call in flight on it, and closes it once that
// call returned.
func (r *registry) end(id string) error {
	r.mu.Lock()
	e, ok := r.byID[id]
	if !ok {
		err := r.lookupErr(id)
		r.mu.Unlock()
		return err
	}
	delete(r.byID, id)
	r.mu.Unlock()
	r.close(e)
	return nil
}

func (r *registry) close(e *entry) {
	e.cancel()
	e.sem <- struct{}{} // the call in flight has returned
	e.sess.Close()
}

// sweep closes the sessions idle for longer than the timeout (none with a call in
// flight or waiting) and returns their ids.
func (r *registry) sweep() []string {
	if r.idle <= 0 {
		return nil
	}
	r.mu.Lock()
	now := r.now()
	var stale []*entry
	for id, e := range r.byID {
		if e.busy == 0 && now.Sub(e.last) > r.idle {
			stale = append(stale, e)
			delete(r.byID, id)
			if len(r.expired) >= maxExpired {
				clear(r.expired)
			}
			r.expired[id] = now
		}
	}
	r.mu.Unlock()
	var ids []string
	for _, e := range stale {
		r.close(e)
		ids = append(ids, e.id)
	}
	return ids
}

// count is the number of open sessions.
func (r *registry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byID)
}

// closeAll ends every session; later opens fail.
func (r *registry) closeAll() {
	r.mu.Lock()
	r.closed = true
	all := make([]*entry, 0, len(r.byID))
	for id, e := range r.byID {
		all = append(all, e)
		delete(r.byID, id)
	}
	r.mu.Unlock()
	for _, e := range all {
		r.close(e)
	}
}
