package adapter

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/google/go-dap"
	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// conn is one client and its debugging session. See Server for who owns what.
type conn struct {
	srv *Server
	log zerolog.Logger
	rwc io.ReadWriteCloser

	// ctx ends with the connection; every action's context derives from it.
	ctx    context.Context
	cancel context.CancelFunc

	// Output: one writer for everything, serialized by wmu.
	wmu  sync.Mutex
	w    *bufio.Writer
	seq  int
	wErr error

	// Client settings from initialize (read loop only).
	linesStartAt1   bool
	columnsStartAt1 bool

	// mu guards everything below.
	mu       sync.Mutex
	launched *launched
	// running is set while an action goroutine is in flight; actionDone is closed
	// when it ends, and stopAction cancels it.
	running    bool
	actionDone chan struct{}
	stopAction context.CancelFunc
	// configured is set by configurationDone.
	configured bool
	// terminated is set by terminate and disconnect: no more stops are reported.
	terminated bool
	// disconnected ends the read loop after the disconnect response.
	disconnected bool
	// Breakpoints as the client set them (lines), kept before launch too; the
	// session gets them when the next action starts (its methods wait for an
	// action in flight, and setBreakpoints is answered while one runs).
	bpLines []int
	// Exception filters.
	raised, uncaught bool
	// stop describes the latest stop, for exceptionInfo and the uncaught filter.
	stop stopInfo
	// References, reset at every stop.
	frames handles[frameRef]
	vars   handles[varRef]
}

// launched is a launched program and its session, which owns the debugging (the
// run loop, the stack, the locals, the step limit).
type launched struct {
	cfg  LaunchConfig
	sess *session.Session
	// outputSent marks, per thread, that the program output of the run was sent.
	outputSent [3]bool
}

// stopInfo is the latest stop as the client saw it.
type stopInfo struct {
	reason string
	// exception is the exception's repr when the stop is on an exception state.
	exception string
	// unhandled marks a stop made by the uncaught filter.
	unhandled bool
	// line and conf are the stop's state's line and, when the model predicted it,
	// its confidence; minConf is the launch's minConfidence.
	line    int
	conf    *grammar.Confidence
	minConf float64
}

func newConn(ctx context.Context, s *Server, rwc io.ReadWriteCloser) *conn {
	ctx, cancel := context.WithCancel(ctx)
	return &conn{
		ctx:             ctx,
		cancel:          cancel,
		srv:             s,
		log:             s.log,
		rwc:             rwc,
		w:               bufio.NewWriter(rwc),
		linesStartAt1:   true,
		columnsStartAt1: true,
		frames:          newHandles[frameRef](),
		vars:            newHandles[varRef](),
	}
}

// serve reads and dispatches messages until the client disconnects or the stream
// fails, then stops any action in flight and closes the session and the connection.
func (c *conn) serve() (err error) {
	stop := context.AfterFunc(c.ctx, func() { c.rwc.Close() })
	defer func() {
		c.cancel()
		c.waitAction()
		c.mu.Lock()
		l := c.launched
		c.mu.Unlock()
		if l != nil {
			if cerr := l.sess.Close(); cerr != nil {
				c.log.Warn().Err(cerr).Msg("closing the session")
			}
		}
		stop()
		c.rwc.Close()
	}()
	r := bufio.NewReader(c.rwc)
	for {
		content, rerr := readMessage(r)
		if rerr != nil {
			return c.readFailed(rerr)
		}
		msg, derr := c.srv.codec.DecodeMessage(content)
		if derr != nil {
			c.undecodable(content, derr)
			continue
		}
		req, ok := msg.(dap.RequestMessage)
		if !ok {
			// Responses to reverse requests (ndb sends none) and events: nothing to do.
			c.log.Debug().Msgf("ignoring a %T from the client", msg)
			continue
		}
		c.dispatch(req)
		c.mu.Lock()
		done := c.disconnected
		c.mu.Unlock()
		if done {
			return nil
		}
		if c.writeErr() != nil {
			return c.writeErr()
		}
	}
}

// readFailed decides how a read error ends the connection: the client closing it is
// clean; a malformed or oversized header cannot be recovered from (the next
// message's start is unknown), so it is reported on the console and the
// connection is closed.
func (c *conn) readFailed(err error) error {
	if errors.Is(err, io.EOF) || c.ctx.Err() != nil {
		return nil
	}
	var fe *frameError
	if errors.As(err, &fe) {
		c.log.Warn().Err(err).Msg("unreadable message: closing the connection")
		c.output("console", "ndb: "+err.Error()+": closing the connection\n")
		return nil
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		c.log.Warn().Err(err).Msg("malformed message header: closing the connection")
		c.output("console", "ndb: malformed message header ("+err.Error()+"): closing the connection\n")
		return nil
	}
	return err
}

// undecodable answers a message that could not be decoded. Its bytes were read in
// full, so the stream is still in step: a request gets an error response; anything
// else is logged.
func (c *conn) undecodable(content []byte, err error) {
	env, rerr := decodeError(content, err)
	c.log.Debug().Err(err).Int("seq", env.seq).Str("command", env.command).Msg("undecodable message")
	if env.typ == "event" || env.typ == "response" {
		return // a client's event or response we cannot read: not worth an answer
	}
	c.send(newErrorResponse(env.seq, env.command, rerr, ErrMalformedMessage))
}

// send writes one message; it numbers it and flushes. A write error is kept and ends
// the connection.
func (c *conn) send(m dap.Message) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.wErr != nil {
		return
	}
	c.seq++
	setSeq(m, c.seq)
	if err := dap.WriteProtocolMessage(c.w, m); err != nil {
		c.wErr = err
	} else if err := c.w.Flush(); err != nil {
		c.wErr = err
	}
	if c.wErr != nil {
		c.log.Debug().Err(c.wErr).Msg("write failed: closing the connection")
		c.cancel()
	}
}

func (c *conn) writeErr() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.wErr
}

// setSeq sets the seq of an outgoing message.
func setSeq(m dap.Message, seq int) {
	switch m := m.(type) {
	case dap.ResponseMessage:
		m.GetResponse().Seq = seq
	case dap.EventMessage:
		m.GetEvent().Seq = seq
	}
}

// close ends the connection from outside (Server.Close).
func (c *conn) close() {
	c.cancel()
	c.rwc.Close()
}

// waitAction cancels the action in flight, if any, and waits for it to end.
func (c *conn) waitAction() {
	c.mu.Lock()
	done, stop := c.actionDone, c.stopAction
	c.mu.Unlock()
	if done == nil {
		return
	}
	stop()
	<-done
}
