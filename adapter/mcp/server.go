package mcp

import (
	"context"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/session"
)

// Version is the server version it reports to clients.
const Version = "0.1.0"

// DefaultMaxSteps caps the actions of a session (as a DAP launch's default).
const DefaultMaxSteps = 10000

// defaultTopP is the nucleus mass of sampling when a temperature is given.
const defaultTopP = 0.95

// Config configures a Server.
type Config struct {
	// Session holds the defaults of every session: Model and Device for the neural
	// backend, ModelServer (a listening ndb-infer that runs the model; "" starts one
	// over a pipe; a tool's "model" is then a folder on its machine), Tracer (nil: a
	// pool of Workers Python workers started on first use), Neural (tests). MaxSteps
	// 0 means DefaultMaxSteps.
	Session session.Options
	// Workers is the size of the tracer pool when Session.Tracer is nil.
	Workers int
	// MaxSessions bounds the sessions open at once (0: no limit).
	MaxSessions int
	// IdleTimeout closes a session no tool call used for this long (0: never).
	IdleTimeout time.Duration
	// Dir resolves relative program and model paths ("": the working directory).
	Dir string
	// Now is the clock of the idle timeout (nil: time.Now).
	Now func() time.Time
	Log zerolog.Logger
}

// Server is ndb's MCP server. Each tool call runs on the SDK's goroutine for that
// request; calls on different sessions run in parallel, calls on one session one at
// a time (registry.acquire). A sweeper goroutine closes idle sessions. Close ends
// every session and the tracer pool it started.
type Server struct {
	cfg    Config
	mcp    *sdk.Server
	reg    *registry
	tracer *session.LazyTracer // nil when Config.Session.Tracer is given
	stop   chan struct{}
	once   sync.Once
	wg     sync.WaitGroup
}

// NewServer builds a server with its nine tools.
func NewServer(cfg Config) *Server {
	if cfg.Session.MaxSteps == 0 {
		cfg.Session.MaxSteps = DefaultMaxSteps
	}
	if cfg.Dir == "" {
		cfg.Dir, _ = os.Getwd()
	}
	s := &Server{cfg: cfg, reg: newRegistry(cfg.MaxSessions, cfg.IdleTimeout, cfg.Now), stop: make(chan struct{})}
	if cfg.Session.Tracer == nil {
		s.tracer = &session.LazyTracer{Workers: cfg.Workers, Log: cfg.Log}
		s.cfg.Session.Tracer = s.tracer
	}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "ndb", Title: "ndb, a neural debugger for Python", Version: Version}, &sdk.ServerOptions{
		Instructions: instructions,
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	s.addTools()
	if cfg.IdleTimeout > 0 {
		s.wg.Add(1)
		go s.sweeper(cfg.IdleTimeout)
	}
	return s
}

// instructions tell the client's model what the server is for.
const instructions = `ndb debugs Python programs. start_session opens a session on a program (mode "neural": the model predicts every state and the program never runs; "recorded": the real execution; "compare": both side by side) and returns its id; step, run_to, get_state, evaluate and set_variable work on it; end_session closes it. predict and compare answer one-shot questions with no session to manage. Lines are 1-based line numbers of the program file.`

// MCP returns the SDK server (to serve on another transport).
func (s *Server) MCP() *sdk.Server { return s.mcp }

// ServeStdio serves one client over newline-delimited JSON on r and w until the
// client goes away or ctx ends.
func (s *Server) ServeStdio(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
	return s.mcp.Run(ctx, &sdk.IOTransport{Reader: r, Writer: w})
}

// Handler serves the streamable HTTP transport: any number of clients, each with its
// own MCP session; ndb sessions are shared by id.
func (s *Server) Handler() http.Handler {
	// An MCP session over HTTP that no request used for the idle timeout is closed too
	// (ndb sessions are closed by the registry's own sweep).
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.mcp }, &sdk.StreamableHTTPOptions{SessionTimeout: s.cfg.IdleTimeout})
}

// OpenSessions is the number of open sessions.
func (s *Server) OpenSessions() int { return s.reg.count() }

// Close ends every session and stops the tracer pool the server started.
func (s *Server) Close() error {
	s.once.Do(func() { close(s.stop) })
	s.wg.Wait()
	s.reg.closeAll()
	if s.tracer != nil {
		return s.tracer.Close()
	}
	return nil
}

// sweeper closes idle sessions, checking a few times per timeout.
func (s *Server) sweeper(idle time.Duration) {
	defer s.wg.Done()
	every := max(idle/4, 10*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			for _, id := range s.reg.sweep() {
				s.cfg.Log.Info().Str("session", id).Dur("idle", idle).Msg("closed an idle session")
			}
		}
	}
}
