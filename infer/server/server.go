package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"

	"github.com/rs/zerolog"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/infer/neural/evalmodel"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/modelserver"
)

// Options configure a server.
type Options struct {
	// MaxSessions bounds the open sessions of all connections (0: 16).
	MaxSessions int
	// MaxCacheMB bounds one session's KV cache (0: the model's whole context). The
	// cache grows with the session's prompt; a bound below the context makes the
	// session's history start again from its current state sooner (as at the end of
	// the context), and a prediction that does not fit even then is refused.
	MaxCacheMB int
	// MaxCacheTotalMB bounds the KV caches of all sessions together (0: a quarter of
	// the machine's memory). Idle sessions' caches are freed first (least recently
	// used) and rebuilt from their prompt on their next request.
	MaxCacheTotalMB int
	// NoBatch runs one prediction at a time to its end, as before batching (for
	// comparing): no packed passes, no turns per step.
	NoBatch bool
	Log     zerolog.Logger
}

// Server holds the loaded models and the open sessions.
type Server struct {
	opt Options

	run    *infer.Runner // runs the sessions' passes; its lock holds libtorch
	serial sync.Mutex    // with NoBatch, held across a whole prediction

	mu       sync.Mutex
	models   map[modelserver.Model]*loaded
	sessions map[string]*sess
	preds    map[string]*evalmodel.Predictor
	next     int
}

// loaded is a checkpoint on a device.
type loaded struct {
	m   *infer.Model
	tok *tokenizer.Tokenizer
	dir string
	cal *infer.Calibration // the checkpoint's calibration.json, if any
}

// sess is an open session: its backend and the connection that opened it.
type sess struct {
	mu     sync.Mutex // held by a request on the session (its backend is not safe for concurrent use)
	b      *neural.Backend
	conn   *jsonrpc2.Conn
	closed bool // under mu: closed while a request waited for it
	limit  int  // the positions its cache may hold, when the server's limit is below the model's context
}

// New returns a server with nothing loaded.
func New(opt Options) *Server {
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 16
	}
	total := int64(opt.MaxCacheTotalMB) << 20
	if opt.MaxCacheTotalMB <= 0 {
		total = physicalMemory() / 4
	}
	return &Server{opt: opt, run: infer.NewRunner(infer.RunnerOptions{TotalCacheBytes: total, NoBatch: opt.NoBatch}), models: map[modelserver.Model]*loaded{}, sessions: map[string]*sess{},
		preds: map[string]*evalmodel.Predictor{}}
}

// ServeConn answers one connection until it closes; its sessions are closed then.
func (s *Server) ServeConn(ctx context.Context, rwc io.ReadWriteCloser) {
	h := &handler{s: s, inflight: map[uint64]context.CancelFunc{}}
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewPlainObjectStream(rwc), jsonrpc2.AsyncHandler(h))
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	s.closeConn(conn)
}

// Serve accepts connections on ln until ctx is done.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	go func() { <-ctx.Done(); ln.Close() }()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		s.opt.Log.Info().Str("peer", c.RemoteAddr().String()).Msg("model server: client connected")
		go s.ServeConn(ctx, c)
	}
}

// Close frees every session and model.
func (s *Server) Close() {
	s.mu.Lock()
	var gone []*sess
	for id, se := range s.sessions {
		gone = append(gone, se)
		delete(s.sessions, id)
	}
	s.mu.Unlock()
	for _, se := range gone {
		s.closeSession(se)
	}
	s.run.Lock()
	defer s.run.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, p := range s.preds {
		p.Close()
		delete(s.preds, k)
	}
	for k, l := range s.models {
		l.m.Close()
		delete(s.models, k)
	}
}

func (s *Server) closeConn(conn *jsonrpc2.Conn) {
	s.mu.Lock()
	var gone []*sess
	for id, se := range s.sessions {
		if se.conn == conn {
			gone = append(gone, se)
			delete(s.sessions, id)
		}
	}
	s.mu.Unlock()
	for _, se := range gone {
		s.closeSession(se)
	}
}

// closeSession frees a session taken out of s.sessions, once a request running on it
// is over.
func (s *Server) closeSession(se *sess) {
	se.mu.Lock()
	defer se.mu.Unlock()
	if se.closed {
		return
	}
	se.closed = true
	s.run.Lock()
	defer s.run.Unlock()
	se.b.Close()
}

// model loads m once (under s.run).
func (s *Server) model(m modelserver.Model) (*loaded, error) {
	if m.Device == "" {
		m.Device = "cpu"
	}
	if l := s.models[m]; l != nil {
		return l, nil
	}
	dir, err := models.Resolve(m.Dir)
	if errors.Is(err, models.ErrNoDefault) {
		return nil, wireErr(modelserver.CodeModel, "the model server bundles no model: name a checkpoint folder (--model DIR, or \"model\" in a launch)")
	}
	if err != nil {
		return nil, wireErr(modelserver.CodeModel, err.Error())
	}
	dev, err := infer.ParseDevice(m.Device)
	if err != nil {
		return nil, wireErr(modelserver.CodeInvalidInput, err.Error())
	}
	var mod *infer.Model
	var tok *tokenizer.Tokenizer
	infer.SingleThreaded(func() { mod, tok, err = neural.Load(dir, dev) }) // under s.run: no model call runs meanwhile
	if err != nil {
		return nil, wireErr(modelserver.CodeModel, err.Error())
	}
	s.opt.Log.Info().Str("model", dir).Str("device", m.Device).Msg("model server: checkpoint loaded")
	l := &loaded{m: mod, tok: tok, dir: dir, cal: neural.LoadCalibration(dir)}
	s.models[m] = l
	return l, nil
}

// CacheStats are the counts of the runner of the sessions' passes (batches,
// evictions, the caches' memory).
func (s *Server) CacheStats() infer.RunnerStats { return s.run.Stats() }

// Sessions is the number of open sessions.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

func (s *Server) newID() string {
	s.next++
	return strconv.Itoa(s.next)
}

func wireErr(code int64, msg string) *jsonrpc2.Error {
	return &jsonrpc2.Error{Code: code, Message: msg}
}

// unmarshal reads a request's params.
func unmarshal(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return wireErr(jsonrpc2.CodeInvalidParams, "missing params")
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return wireErr(jsonrpc2.CodeInvalidParams, fmt.Sprintf("%s: %v", req.Method, err))
	}
	return nil
}
