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
		s.run.Lock()
		defer s.run.Unlock()
		b, err := s.session(p.Session)
		if err != nil {
			return nil, err
		}
		return b.SetVariable(p.Name, p.Repr)
	case modelserver.MethodClose:
		var p modelserver.CloseParams
		if err := unmarshal(req, &p); err != nil {
			return nil, err
		}
		s.run.Lock()
		defer s.run.Unlock()
		s.mu.Lock()
		defer s.mu.Unlock()
		if se := s.sessions[p.Session]; se != nil {
			se.b.Close()
			delete(s.sessions, p.Session)
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
	m := l.m.Share()
	b, err := neural.New(m, l.tok, gctx, start, neural.Options{
		Temperature: p.Sampling.Temperature, TopP: p.Sampling.TopP, Seed: p.Sampling.Seed, CloseModel: true,
		Limits:      infer.Limits{MaxTokens: p.Sampling.MaxTokens},
		Calibration: l.cal,
		Program:     facts,
	})
	if err != nil {
		m.Close()
		return nil, err
	}
	entry, _ := b.Entry(ctx)
	s.mu.Lock()
	id := s.newID()
	s.sessions[id] = &sess{b: b, conn: conn}
	s.mu.Unlock()
	s.opt.Log.Debug().Str("session", id).Str("program", p.Path).Msg("model server: session opened")
	return modelserver.OpenResult{Session: id, Entry: entry}, nil
}

// session is an open session's backend (under s.run).
func (s *Server) session(id string) (*neural.Backend, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.sessions[id]
	if se == nil {
		return nil, wireErr(modelserver.CodeNoSession, fmt.Sprintf("the model server has no session %q (closed, or opened on a server that restarted)", id))
	}
	return se.b, nil
}

// act predicts an action's outcome (peek: without moving the session).
func (s *Server) act(ctx context.Context, p modelserver.ActionParams, peek bool) (any, error) {
	s.run.Lock()
	defer s.run.Unlock()
	if err := ctx.Err(); err != nil { // cancelled while it waited for the model
		return nil, err
	}
	b, err := s.session(p.Session)
	if err != nil {
		return nil, err
	}
	var o session.Outcome
	if peek {
		o, err = b.Peek(ctx, p.Action)
	} else {
		o, err = b.Do(ctx, p.Action)
	}
	if err != nil {
		return nil, err
	}
	return modelserver.OutcomeOf(o), nil
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
		pr = evalmodel.NewPredictor("", l.m.Share(), l.tok, infer.NewVocab(l.tok), sm.MaxTokens,
			infer.NewSampler(sm.Temperature, sm.TopP, sm.Seed))
		pr.Generator().Calibration = l.cal
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
	facts := func(context.Context, grammar.Context) *grammar.Program { return prog }
	preds, err := pr.Constrained("", facts, p.GrammarOnly, true).Predict(ctx, p.Prompt, p.N)
	if err != nil {
		return nil, err
	}
	return modelserver.PredictResult{Predictions: preds}, nil
}
