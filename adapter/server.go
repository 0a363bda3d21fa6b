package adapter

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/internal/loopback"
	"github.com/ndb-project/ndb/session"
)

// Config configures a Server.
type Config struct {
	// Session is what every launch's session starts from (session.Open): the
	// recording limits, the default model and its device. A launch sets the mode,
	// maxSteps, temperature and seed, and its "model" overrides Model.
	//
	// Session.Tracer records (recorded and compare modes) and parses (every mode);
	// nil: the server starts its own pool on first use (Workers workers) and closes
	// it in Close. Session.Neural, when set, builds the neural backend instead of the
	// factory the binary registered (session.RegisterNeural); with neither, neural
	// and compare launches fail with a clear error.
	Session session.Options
	Workers int
	// Log receives the server's events; the zero Logger discards them. In stdio mode
	// it must not write to stdout, which carries the protocol.
	Log zerolog.Logger
}

// Server is ndb's Debug Adapter Protocol server. Every connection (a TCP client, or
// stdin/stdout) is its own debugging session with its own launch.
//
// Goroutines, what each owns and what each blocks on:
//
//   - Serve's accept loop owns the listener; it blocks in Accept and starts one
//     connection goroutine per client.
//   - A connection goroutine (ServeConn) owns the reader: it blocks reading the next
//     message and dispatches it synchronously, so requests are handled in order. It
//     owns the connection's state (the launch, the session, breakpoints, handles)
//     under conn.mu. A launch runs here too (session.Open: parsing and recording are
//     bounded by the tracer's limits), so nothing else is read meanwhile.
//   - At most one action goroutine per connection runs a resuming request (next,
//     stepIn, stepOut, continue, stepBack, reverseContinue, ndbReverseStep, and the
//     start after configurationDone) after its response was sent: it runs the plan
//     (session.Run) and blocks on the backend (a model's prediction; a recorded step
//     is instant), cancellable through
//     its context: pause, terminate and disconnect, still read by the connection
//     goroutine, cancel it and wait for it. It then takes conn.mu to reset the
//     handles and mark the session stopped, and sends the stopped (or exited and
//     terminated) event.
//   - A watcher goroutine per connection closes the connection when the server's
//     context ends, which unblocks the reader.
//
// All output goes through one writer, conn.send, serialized by conn.wmu, which also
// numbers the messages; a response is always sent before the events its request
// causes. conn.mu is never held while waiting on the backend or on the action
// goroutine.
type Server struct {
	cfg   Config
	log   zerolog.Logger
	codec *codec
	// own is the server's own tracer when Config.Session.Tracer is nil.
	own *session.LazyTracer

	mu     sync.Mutex
	conns  map[*conn]struct{}
	wg     sync.WaitGroup
	closed bool
}

// NewServer returns a server; it serves nothing until Serve, ServeConn or ServeStdio.
func NewServer(cfg Config) *Server {
	s := &Server{
		cfg:   cfg,
		log:   cfg.Log.With().Str("component", "dap").Logger(),
		codec: newCodec(),
		conns: map[*conn]struct{}{},
	}
	if cfg.Session.Tracer == nil {
		s.own = &session.LazyTracer{Workers: cfg.Workers, Log: cfg.Log}
	}
	return s
}

// tracer returns the tracer of every launch: the configured one, or the server's own
// (started on first use).
func (s *Server) tracer() session.Tracer {
	if s.own != nil {
		return s.own
	}
	return s.cfg.Session.Tracer
}

// Serve accepts clients on ln until ctx ends or ln fails, each client its own
// session, and returns after every connection ended. It closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	defer ln.Close()
	var err error
	for {
		var nc net.Conn
		nc, err = ln.Accept()
		if err != nil {
			break
		}
		s.log.Info().Str("client", nc.RemoteAddr().String()).Msg("client connected")
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			if err := s.ServeConn(ctx, nc); err != nil {
				s.log.Warn().Err(err).Str("client", nc.RemoteAddr().String()).Msg("connection ended")
			}
		}()
	}
	s.wg.Wait()
	if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// ServeConn serves one client on rwc until it disconnects, the stream breaks or ctx
// ends; it closes rwc. It returns nil when the client went away cleanly.
func (s *Server) ServeConn(ctx context.Context, rwc io.ReadWriteCloser) error {
	c := newConn(ctx, s, rwc)
	if !s.track(c, true) {
		rwc.Close()
		return errors.New("the server is closed")
	}
	defer s.track(c, false)
	return c.serve()
}

// ServeStdio serves one client over in and out (stdin and stdout in `ndb dap`).
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.Writer) error {
	return s.ServeConn(ctx, stdio{in, out})
}

type stdio struct {
	io.ReadCloser
	io.Writer
}

func (s *Server) track(c *conn, add bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if add {
		if s.closed {
			return false
		}
		s.conns[c] = struct{}{}
	} else {
		delete(s.conns, c)
	}
	return true
}

// Close ends every connection and closes the tracer pool the server started.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		c.close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	if s.own != nil {
		return s.own.Close()
	}
	return nil
}

// ListenAddr completes a --listen address: a bare port or ":PORT" listens on
// 127.0.0.1 (debug adapters should not be reachable from the network by default);
// HOST:PORT is kept as given (internal/loopback.Addr, the rule every ndb server
// shares).
func ListenAddr(addr string) (string, error) { return loopback.Addr(addr) }
