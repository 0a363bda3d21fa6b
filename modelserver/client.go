package modelserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/ndb-project/ndb/session"
)

// DefaultTimeout bounds one request (an action's prediction, a model load): a
// server that does not answer within it is sent a cancellation and the action
// fails.
const DefaultTimeout = 5 * time.Minute

// MethodCancel is the notification that cancels request {"id": N} in flight.
const MethodCancel = "$/cancelRequest"

// CancelParams name the request to cancel.
type CancelParams struct {
	ID uint64 `json:"id"`
}

// ErrExited wraps every error of a request that the model server could not answer
// because it exited (or its connection was lost).
var ErrExited = errors.New("the model server exited")

// Client is one connection to a model server: a child ndb-infer over a pipe
// (Start) or a listening one (Dial). It is safe for concurrent use.
type Client struct {
	conn    *jsonrpc2.Conn
	cmd     *exec.Cmd     // the child, when started over a pipe
	waited  chan struct{} // closed when the child was waited for
	stderr  *tailBuffer
	addr    string
	nextID  atomic.Uint64
	Timeout time.Duration // per request; 0 is DefaultTimeout

	mu      sync.Mutex
	exitErr error // why the server went away
}

// Start runs the model server binary path with args (its stdin and stdout carry
// the protocol) and says hello to it.
func Start(ctx context.Context, path string, args ...string) (*Client, error) {
	cmd := exec.Command(path, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &Client{cmd: cmd, waited: make(chan struct{}), stderr: &tailBuffer{max: 4096}, addr: path}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the model server %s: %w", path, err)
	}
	go func() {
		werr := cmd.Wait()
		c.setExit(c.describeExit(werr))
		close(c.waited)
	}()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewPlainObjectStream(pipeRWC{r: out, w: in}),
		jsonrpc2.HandlerWithError(refuse))
	if err := c.hello(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Dial connects to a model server listening on addr (HOST:PORT) and says hello.
func Dial(ctx context.Context, addr string) (*Client, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("the model server at %s: %w", addr, err)
	}
	return NewClient(ctx, nc, addr)
}

// NewClient speaks the protocol over rwc (a connection to a server named addr).
func NewClient(ctx context.Context, rwc io.ReadWriteCloser, addr string) (*Client, error) {
	c := &Client{addr: addr}
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewPlainObjectStream(rwc), jsonrpc2.HandlerWithError(refuse))
	if err := c.hello(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Client) hello(ctx context.Context) error {
	var h Hello
	if err := c.Call(ctx, MethodHello, struct{}{}, &h); err != nil {
		return err
	}
	if h.Protocol != ProtocolVersion {
		return fmt.Errorf("the model server at %s speaks protocol %d, ndb speaks %d", c.addr, h.Protocol, ProtocolVersion)
	}
	return nil
}

// Alive reports whether the server can still answer.
func (c *Client) Alive() bool {
	select {
	case <-c.conn.DisconnectNotify():
		return false
	default:
	}
	if c.waited != nil {
		select {
		case <-c.waited:
			return false
		default:
		}
	}
	return true
}

// Call sends a request and waits for its answer, at most Timeout (a request past
// it is cancelled on the server). Errors the server names come back as the session's
// errors; a lost server as ErrExited.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	id := c.nextID.Add(1)
	err := c.conn.Call(ctx, method, params, result, jsonrpc2.PickID(jsonrpc2.ID{Num: id}))
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && c.Alive() {
		// Tell the server to stop; the answer, if any, is dropped.
		nctx, ncancel := context.WithTimeout(context.Background(), time.Second)
		_ = c.conn.Notify(nctx, MethodCancel, CancelParams{ID: id})
		ncancel()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("the model server did not answer %s within %s: cancelled", method, timeout)
		}
		return ctx.Err()
	}
	var rerr *jsonrpc2.Error
	if errors.As(err, &rerr) {
		return fromWire(rerr)
	}
	return c.lost(err)
}

// lost is the error of a request whose connection went away.
func (c *Client) lost(err error) error {
	if c.waited != nil {
		select { // the exit status says more than the closed pipe
		case <-c.waited:
		case <-time.After(2 * time.Second):
		}
	}
	c.mu.Lock()
	why := c.exitErr
	c.mu.Unlock()
	if why == nil {
		why = err
	}
	return fmt.Errorf("%w: %v", ErrExited, why)
}

func (c *Client) setExit(err error) {
	c.mu.Lock()
	if c.exitErr == nil {
		c.exitErr = err
	}
	c.mu.Unlock()
}

// describeExit is the child's exit with the last line it wrote on stderr.
func (c *Client) describeExit(werr error) error {
	msg := "exit status 0"
	if werr != nil {
		msg = werr.Error()
	}
	if last := c.stderr.lastLine(); last != "" {
		msg += " (" + last + ")"
	}
	return errors.New(msg)
}

// Close ends the connection and, for a child, the process.
func (c *Client) Close() error {
	c.setExit(errors.New("closed by ndb"))
	err := c.conn.Close()
	if c.cmd != nil && c.cmd.Process != nil {
		select {
		case <-c.waited:
		case <-time.After(3 * time.Second): // its stdin closed: it should have exited
			_ = c.cmd.Process.Kill()
			<-c.waited
		}
	}
	return err
}

// Kill ends a pipe-started server at once (tests: a server dying mid-session).
func (c *Client) Kill() error {
	if c.cmd == nil || c.cmd.Process == nil {
		return errors.New("not a child process")
	}
	return c.cmd.Process.Kill()
}

// fromWire turns a server's error back into the error the session knows.
func fromWire(e *jsonrpc2.Error) error {
	switch e.Code {
	case CodeEnded:
		return session.ErrEnded
	case CodeAtStart:
		return session.ErrAtStart
	case CodeProgram:
		var pe session.ProgramError
		if e.Data != nil && json.Unmarshal(*e.Data, &pe) == nil {
			return &pe
		}
	}
	return errors.New(e.Message)
}

// refuse answers any call the server makes to the client: it makes none.
func refuse(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "ndb answers no calls"}
}

// pipeRWC joins a child's stdout and stdin into one stream.
type pipeRWC struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p pipeRWC) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeRWC) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeRWC) Close() error {
	werr := p.w.Close()
	p.r.Close()
	return werr
}

// tailBuffer keeps the last max bytes written (the child's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(string(bytes.TrimSpace(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
