package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/infer/neural/evalmodel"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/train/eval"
)

// handler answers one connection's requests, each on its own goroutine (so that a
// cancellation can reach a request in flight).
type handler struct {
	s        *Server
	mu       sync.Mutex
	inflight map[uint64]context.CancelFunc
}

func (h *handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Method == modelserver.MethodCancel {
		var p modelserver.CancelParams
		if unmarshal(req, &p) == nil {
			h.mu.Lock()
			if cancel := h.inflight[p.ID]; cancel != nil {
				cancel()
			}
			h.mu.Unlock()
		}
		return
	}
	if req.Notif {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	h.mu.Lock()
	h.inflight[req.ID.Num] = cancel
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.inflight, req.ID.Num)
		h.mu.Unlock()
		cancel()
	}()
	result, err := h.s.handle(ctx, conn, req)
	if err != nil {
		var werr *jsonrpc2.Error
		if !errors.As(err, &werr) {
			werr = toWire(err)
		}
		_ = conn.ReplyWithError(ctx, req.ID, werr)
		return
	}
	_ = conn.Reply(ctx, req.ID, result)
}

// toWire names the errors the client turns back into the session's.
func toWire(err error) *jsonrpc2.Error {
	var pe *session.ProgramError
	switch {
	case errors.Is(err, session.ErrEnded):
		return wireErr(modelserver.CodeEnded, err.Error())
	case errors.Is(err, session.ErrAtStart):
		return wireErr(modelserver.CodeAtStart, err.Error())
	case errors.As(err, &pe):
		e := wireErr(modelserver.CodeProgram, err.Error())
		e.SetError(pe)
		return e
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return wireErr(modelserver.CodeCanceled, err.Error())
	}
	return wireErr(jsonrpc2.CodeInternalError, err.Error())
}

// handle runs one request; the model's work holds s.run.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	switch req.Method {
	case modelserver.MethodHello:
		return modelserver.Hello{Protocol: modelserver.ProtocolVersion, MaxSessions: s.opt.MaxSessions,
			Sessions: s.Sessions(), Threads: infer.Threads()}, nil
	case modelserver.MethodOpen:
		var p modelserver.OpenParams
		if err := unmarshal(req, &p); err != nil {
			return nil, err
		}
		return s.open(ctx, conn, p)
	case modelserver.MethodDo, modelserver.MethodPeek:
		var p modelserver.ActionParams
		if err := unmarshal(req, &p); err != nil {
			return nil, err
		}
		return s.act(ctx, p, req.Method == modelserver.MethodPeek)
	case modelserver.MethodSetVariable:
		var p modelserver.SetVariableParams
		if err := unmarshal(req, &p); err != nil {
			return nil, err
		}
		se, err := s.lockSession(p.Session)
		if err != nil {
			return nil, err
		}
		defer se.mu.Unlock()
		return se.b.SetVariable(p.Name, p.Repr)
	case modelserver.MethodClose:
		var p modelserver.CloseParams
		if err := unmarshal(req, &p); err != nil {
			return nil, err
		}
		s.mu.Lock()
		se := s.sessions[p.Session]
		delete(s.sessions, p.Session)
		s.mu.Unlock()
		if se != nil {
			s.closeSession(se)
		}
		return struct{}{}, nil
	case modelserver.MethodLoad:
		var m modelserver.Model
		if err := unmarshal(req, &m); err != nil {
			return nil, err
		}
		s.run.Lock()
		defer s.run.Unlock()
		if _, err := s.model(m); err != nil {
			return nil, err
		}
		return struct{}{}, nil
	case modelserver.MethodPredict:
		var p modelserver.PredictParams
		if err := unmarshal(req, &p); err != nil {
			return nil, err
		}
		return s.predict(ctx, p)
	}
	return nil, wireErr(jsonrpc2.CodeMethodNotFound, "no method "+req.Method)
}

// open opens a session: the entry state from the program's parse, a backend over a
// share of the loaded model.
func (s *Server) open(ctx context.Context, conn *jsonrpc2.Conn, p modelserver.OpenParams) (any, error) {
	gctx := p.Context.Indexed()
	start, err := neural.EntryState(gctx, p.Parsed, p.Entry)
	if err != nil {
		return nil, &session.ProgramError{Path: p.Path, Kind: "entry", Message: err.Error()}
	}
	s.run.Lock()
	defer s.run.Unlock()
	if n := s.Sessions(); n >= s.opt.MaxSessions {
		return nil, wireErr(modelserver.CodeTooMany, fmt.Sprintf("the model server holds its limit of %d sessions: close one, or start it with a higher --max-sessions", n))
	}
	l, err := s.model(p.Model)
	if err != nil {
		return nil, err
	}
	var facts *grammar.Program
	if !p.GrammarOnly {
		facts = neural.ProgramOf(gctx, p.Parsed) // program facts by default (issue 12), as neural.Open
	}
	limit := 0 // positions: the model's context
	if s.opt.MaxCacheMB > 0 {
		if n := int((int64(s.opt.MaxCacheMB) << 20) / infer.CacheBytesPerPosition(l.m.Config)); n < l.m.Config.MaxSeqLen {
			limit = max(n, 1)
		}
	}
	copyOpt, err := copyOptions(p.Sampling)
	if err != nil {
		return nil, err
	}
	m := s.run.Share(l.m, limit)
	b, err := neural.New(m, l.tok, gctx, start, neural.Options{
		Temperature: p.Sampling.Temperature, TopP: p.Sampling.TopP, Seed: p.Sampling.Seed, CloseModel: true,
		Limits:      infer.Limits{MaxTokens: p.Sampling.MaxTokens},
		Calibration: l.cal,
		Program:     facts,
		Copy:        copyOpt,
	})
	if err != nil {
		m.Close()
		return nil, err
	}
	entry, _ := b.Entry(ctx)
	s.mu.Lock()
	id := s.newID()
	s.sessions[id] = &sess{b: b, conn: conn, limit: limit}
	s.mu.Unlock()
	s.opt.Log.Debug().Str("session", id).Str("program", p.Path).Msg("model server: session opened")
	return modelserver.OpenResult{Session: id, Entry: entry}, nil
}

// lockSession is an open session, locked for one request: the caller unlocks se.mu.
func (s *Server) lockSession(id string) (*sess, error) {
	s.mu.Lock()
	se := s.sessions[id]
	s.mu.Unlock()
	if se != nil {
		se.mu.Lock()
		if !se.closed {
			return se, nil
		}
		se.mu.Unlock()
	}
	return nil, wireErr(modelserver.CodeNoSession, fmt.Sprintf("the model server has no session %q (closed, or opened on a server that restarted)", id))
}

// act predicts an action's outcome (peek: without moving the session). Sessions
// predicting at the same time share the model's forward passes (infer.Runner).
func (s *Server) act(ctx context.Context, p modelserver.ActionParams, peek bool) (any, error) {
	se, err := s.lockSession(p.Session)
	if err != nil {
		return nil, err
	}
	defer se.mu.Unlock()
	if s.opt.NoBatch {
		s.serial.Lock()
		defer s.serial.Unlock()
	}
	if err := ctx.Err(); err != nil { // cancelled while it waited for the model
		return nil, err
	}
	m := se.b.Generator().Model
	s.run.Begin(m)
	var o session.Outcome
	if peek {
		o, err = se.b.Peek(ctx, p.Action)
	} else {
		o, err = se.b.Do(ctx, p.Action)
	}
	s.run.End(m)
	if err != nil {
		return nil, s.cacheErr(se, err)
	}
	return modelserver.OutcomeOf(o), nil
}

// cacheErr names the server's cache limits in the errors they cause.
func (s *Server) cacheErr(se *sess, err error) error {
	var ce *infer.ContextError
	var me *infer.CacheMemoryError
	switch {
	case errors.As(err, &ce) && se.limit > 0 && ce.Context == se.limit:
		return wireErr(modelserver.CodeCacheLimit, fmt.Sprintf(
			"the model server's cache limit of %d MB per session (%d positions) is too small for this prediction (%d positions): start ndb-infer with a higher --max-cache-mb",
			s.opt.MaxCacheMB, se.limit, ce.Positions))
	case errors.As(err, &me):
		return wireErr(modelserver.CodeCacheLimit, fmt.Sprintf(
			"the model server's cache limit for all sessions (--max-cache-total-mb %d) is reached: %v; try again when other sessions are idle, or start ndb-infer with a higher limit",
			me.Total>>20, me))
	}
	return err
}

// predict answers an evaluation prompt with a predictor kept per model and sampling.
func (s *Server) predict(ctx context.Context, p modelserver.PredictParams) (any, error) {
	s.run.Lock()
	defer s.run.Unlock()
	l, err := s.model(p.Model)
	if err != nil {
		return nil, err
	}
	key, _ := json.Marshal(struct {
		M modelserver.Model
		S modelserver.Sampling
	}{p.Model, p.Sampling})
	pr := s.preds[string(key)]
	if pr == nil {
		sm := p.Sampling
		copyOpt, err := copyOptions(sm)
		if err != nil {
			return nil, err
		}
		pr = evalmodel.NewPredictor("", l.m.Share(), l.tok, infer.NewVocab(l.tok), sm.MaxTokens,
			infer.NewSampler(sm.Temperature, sm.TopP, sm.Seed))
		pr.Generator().Calibration = l.cal
		pr.Copy = copyOpt
		s.preds[string(key)] = pr
	}
	p.Prompt.Context = p.Prompt.Context.Indexed()
	var prog *grammar.Program
	if p.Facts != nil {
		var err error
		if prog, err = grammar.NewProgram(p.Prompt.Context, p.Facts); err != nil {
			s.opt.Log.Debug().Err(err).Msg("program facts do not fit the prompt's context")
			prog = nil
		}
	}
	facts := func(context.Context, eval.Prompt) *grammar.Program { return prog }
	preds, err := pr.Constrained("", facts, p.GrammarOnly, true).Predict(ctx, p.Prompt, p.N)
	if err != nil {
		return nil, err
	}
	return modelserver.PredictResult{Predictions: preds}, nil
}

// copyOptions are the copy candidate's settings of sm; an unknown action name in its
// prior is an error.
func copyOptions(sm modelserver.Sampling) (neural.CopyOptions, error) {
	o := neural.CopyOptions{Off: sm.NoCopyCandidate}
	if sm.CopyPrior == nil {
		return o, nil
	}
	o.Prior = map[grammar.ActionKind]float64{}
	for name, nats := range sm.CopyPrior {
		k, ok := grammar.ParseActionKind(name)
		if !ok {
			return o, fmt.Errorf("copy prior: unknown action %q", name)
		}
		o.Prior[k] = nats
	}
	return o, nil
}
