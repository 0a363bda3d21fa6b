package modelserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// Backend is a neural session held by a model server: a session.Backend (and
// session.Editor and session.Peeker) whose every call is one request. When the
// server exited (during the call, or since the last one), the call fails with
// ErrExited ("the model server exited: ...") and the next one starts a new server (Pool) and rebuilds the session there by
// replaying its actions and edits (the same states under greedy decoding).
type Backend struct {
	pool  *Pool
	addr  string
	open  OpenParams
	c     *Client
	id    string
	entry grammar.State
	log   []op // what the session did, to replay on a new server
	dead  bool // the server went away: the next call reopens
}

// op is one successful action or edit.
type op struct {
	action    *grammar.Action
	name, val string
}

// OpenBackend opens a session on the server at addr ("" is the pool's child).
func OpenBackend(ctx context.Context, pool *Pool, addr string, p OpenParams) (*Backend, error) {
	b := &Backend{pool: pool, addr: addr, open: p}
	if err := b.reopen(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// reopen opens the session on a (new) server and replays its history.
func (b *Backend) reopen(ctx context.Context) error {
	c, err := b.pool.Get(ctx, b.addr)
	if err != nil {
		return err
	}
	var r OpenResult
	if err := c.Call(ctx, MethodOpen, b.open, &r); err != nil {
		return err
	}
	b.c, b.id, b.entry, b.dead = c, r.Session, r.Entry, false
	for _, o := range b.log {
		if o.action != nil {
			err = c.Call(ctx, MethodDo, ActionParams{Session: b.id, Action: *o.action}, &Outcome{})
		} else {
			err = c.Call(ctx, MethodSetVariable, SetVariableParams{Session: b.id, Name: o.name, Repr: o.val}, nil)
		}
		if err != nil {
			return fmt.Errorf("replaying the session on a new model server: %w", err)
		}
	}
	return nil
}

// call makes one request of the session, reopening it first on a server that went
// away since the last one.
func (b *Backend) call(ctx context.Context, method string, params, result any) error {
	if !b.dead && !b.c.Alive() { // it died since the last action: say so once
		b.dead = true
		return b.c.lost(errors.New("connection closed"))
	}
	if b.dead {
		if err := b.reopen(ctx); err != nil {
			return err
		}
	}
	err := b.c.Call(ctx, method, params, result)
	if errors.Is(err, ErrExited) {
		b.dead = true
	}
	return err
}

// Entry returns the entry state.
func (b *Backend) Entry(ctx context.Context) (grammar.State, error) { return b.entry, nil }

// Do predicts the outcome of action a on the server.
func (b *Backend) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	var o Outcome
	if err := b.call(ctx, MethodDo, ActionParams{Session: b.id, Action: a}, &o); err != nil {
		return session.Outcome{}, err
	}
	b.log = append(b.log, op{action: &a})
	return o.Session(), nil
}

// Peek predicts the outcome of a without moving the session.
func (b *Backend) Peek(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	var o Outcome
	if err := b.call(ctx, MethodPeek, ActionParams{Session: b.id, Action: a}, &o); err != nil {
		return session.Outcome{}, err
	}
	return o.Session(), nil
}

// SetVariable edits a local of the current state.
func (b *Backend) SetVariable(name, repr string) (grammar.State, error) {
	var st grammar.State
	if err := b.call(context.Background(), MethodSetVariable, SetVariableParams{Session: b.id, Name: name, Repr: repr}, &st); err != nil {
		return grammar.State{}, err
	}
	b.log = append(b.log, op{name: name, val: repr})
	return st, nil
}

// Close closes the session on the server (the server stays up for the others).
func (b *Backend) Close() error {
	if b.dead || b.c == nil || !b.c.Alive() {
		return nil
	}
	return b.c.Call(context.Background(), MethodClose, CloseParams{Session: b.id}, nil)
}

var (
	_ session.Backend = (*Backend)(nil)
	_ session.Editor  = (*Backend)(nil)
	_ session.Peeker  = (*Backend)(nil)
)
