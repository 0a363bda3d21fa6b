// Package daptest is a synchronous Debug Adapter Protocol client for Go tests, in the
// manner of delve's service/dap/daptest: a test sends a request (>>) and reads what
// comes back (<<) one message at a time, so it reads as a transcript of the
// conversation:
//
//	seq := c.Send("launch", args) // >> launch
//	daptest.Expect[*dap.InitializedEvent](c) // << initialized
//	daptest.Expect[*dap.LaunchResponse](c)   // << launch
//
// Next and Expect take messages strictly in order. For adapters that interleave
// events of their own (debugpy's process, thread and module events), Await, Response,
// Event and Call match what they wait for and keep the rest, in order, in a backlog
// that later reads search first. A wait that outlasts Options.Timeout fails the test
// (no test asserts how long anything takes).
//
// The client knows no adapter: it frames with go-dap and decodes with a Decoder, by
// default go-dap's codec (give the adapter's to read its custom messages).
package daptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-dap"
)

// Decoder decodes one message's content; *dap.Codec is one.
type Decoder interface {
	DecodeMessage(content []byte) (dap.Message, error)
}

// Options configure a Client.
type Options struct {
	// Name names the adapter in failure messages (default "adapter").
	Name string
	// Timeout bounds each wait for a message (default 20 s).
	Timeout time.Duration
	// Decoder decodes messages for Next and Expect (default dap.NewCodec()).
	Decoder Decoder
}

// Client is a synchronous DAP client. Its methods must be called from the test's
// goroutine; they fail the test (t.Fatal) on any protocol error.
type Client struct {
	t    testing.TB
	opt  Options
	w    io.Writer
	seq  int
	msgs chan []byte
	errs chan error
	// backlog holds messages read while waiting for another, in order.
	backlog [][]byte
}

// New returns a client that reads the adapter's messages from r and writes requests
// to w. A goroutine reads r until it fails or ends.
func New(t testing.TB, r io.Reader, w io.Writer, opt Options) *Client {
	if opt.Name == "" {
		opt.Name = "adapter"
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 20 * time.Second
	}
	if opt.Decoder == nil {
		opt.Decoder = dap.NewCodec()
	}
	c := &Client{t: t, opt: opt, w: w, msgs: make(chan []byte, 256), errs: make(chan error, 1)}
	go func() {
		br := bufio.NewReader(r)
		for {
			content, err := dap.ReadBaseMessage(br)
			if err != nil {
				c.errs <- err
				close(c.msgs)
				return
			}
			c.msgs <- content
		}
	}()
	return c
}

// Name is the adapter's name, for messages.
func (c *Client) Name() string { return c.opt.Name }

// Send sends a request with the given arguments (any JSON-marshalable value; nil
// sends none) and returns its seq.
func (c *Client) Send(command string, args any) int {
	c.t.Helper()
	c.seq++
	m := map[string]any{"seq": c.seq, "type": "request", "command": command}
	if args != nil {
		m["arguments"] = args
	}
	b, err := json.Marshal(m)
	if err != nil {
		c.t.Fatal(err)
	}
	c.SendRaw(b)
	return c.seq
}

// SendRaw sends bytes as one framed message.
func (c *Client) SendRaw(content []byte) {
	c.t.Helper()
	if err := dap.WriteBaseMessage(c.w, content); err != nil {
		c.t.Fatalf("%s: writing: %v", c.opt.Name, err)
	}
}

// read returns the next message's content: the backlog's first, else the wire's.
// ok is false when the adapter closed the connection.
func (c *Client) read(what string) (content []byte, ok bool) {
	c.t.Helper()
	if len(c.backlog) > 0 {
		content, c.backlog = c.backlog[0], c.backlog[1:]
		return content, true
	}
	select {
	case content, ok := <-c.msgs:
		return content, ok
	case <-time.After(c.opt.Timeout):
		c.t.Fatalf("%s: no %s within %v\nunread: %s", c.opt.Name, what, c.opt.Timeout, c.unread())
	}
	return nil, false
}

// Next reads the adapter's next message.
func (c *Client) Next() dap.Message {
	c.t.Helper()
	content, ok := c.read("message")
	if !ok {
		c.t.Fatalf("%s closed the connection: %v", c.opt.Name, <-c.errs)
	}
	m, err := c.opt.Decoder.DecodeMessage(content)
	if err != nil {
		c.t.Fatalf("%s: undecodable message: %v: %s", c.opt.Name, err, content)
	}
	return m
}

// Expect reads the next message and checks that it is a T.
func Expect[T dap.Message](c *Client) T {
	c.t.Helper()
	m := c.Next()
	v, ok := m.(T)
	if !ok {
		var zero T
		c.t.Fatalf("expected %T, got %s", zero, Dump(m))
	}
	return v
}

// ExpectError reads an error response to command with error id and returns its
// message (the error's format).
func (c *Client) ExpectError(command string, id int) string {
	c.t.Helper()
	r := Expect[*dap.ErrorResponse](c)
	if r.Command != command || r.Body.Error == nil || r.Body.Error.Id != id {
		c.t.Fatalf("expected a %s error response with id %d, got %s", command, id, Dump(r))
	}
	return r.Body.Error.Format
}

// ExpectClosed checks that the adapter closes the connection next.
func (c *Client) ExpectClosed() {
	c.t.Helper()
	content, ok := c.read("end of the connection")
	if ok {
		c.t.Fatalf("expected the connection to close, got %s", content)
	}
}

// Dump writes a message for failure messages: its Go type and JSON.
func Dump(m dap.Message) string {
	b, _ := json.Marshal(m)
	return fmt.Sprintf("%T %s", m, b)
}

// Msg is a message as far as Await needs to read it; Body is left raw.
type Msg struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`
	Command    string          `json:"command"`
	Event      string          `json:"event"`
	RequestSeq int             `json:"request_seq"`
	Success    bool            `json:"success"`
	Message    string          `json:"message"`
	Body       json.RawMessage `json:"body"`
}

func (m Msg) String() string {
	switch m.Type {
	case "event":
		return fmt.Sprintf("event %s %s", m.Event, m.Body)
	case "response":
		return fmt.Sprintf("response %s (request %d, success %v, %q) %s", m.Command, m.RequestSeq, m.Success, m.Message, m.Body)
	}
	return fmt.Sprintf("%s %s %s", m.Type, m.Command, m.Body)
}

func (c *Client) parse(content []byte) Msg {
	c.t.Helper()
	var m Msg
	if err := json.Unmarshal(content, &m); err != nil {
		c.t.Fatalf("%s: undecodable message: %v: %s", c.opt.Name, err, content)
	}
	return m
}

// Await returns the first message (backlog first, then the wire) that match
// accepts; the others stay in the backlog, in order.
func (c *Client) Await(what string, match func(Msg) bool) Msg {
	c.t.Helper()
	for i, content := range c.backlog {
		if m := c.parse(content); match(m) {
			c.backlog = append(c.backlog[:i:i], c.backlog[i+1:]...)
			return m
		}
	}
	deadline := time.After(c.opt.Timeout)
	for {
		select {
		case content, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("%s closed the connection while the client waited for %s: %v\nunread: %s", c.opt.Name, what, <-c.errs, c.unread())
			}
			if m := c.parse(content); match(m) {
				return m
			}
			c.backlog = append(c.backlog, content)
		case <-deadline:
			c.t.Fatalf("%s: no %s within %v\nunread: %s", c.opt.Name, what, c.opt.Timeout, c.unread())
		}
	}
}

func (c *Client) unread() string {
	var s []string
	for _, content := range c.backlog {
		s = append(s, c.parse(content).String())
	}
	return strings.Join(s, "\n  ")
}

// Response waits for the response to request seq and fails the test on an error
// response; body, when not nil, receives the body.
func (c *Client) Response(seq int, body any) Msg {
	c.t.Helper()
	m := c.Await(fmt.Sprintf("the response to request %d", seq), func(m Msg) bool {
		return m.Type == "response" && m.RequestSeq == seq
	})
	if !m.Success {
		c.t.Fatalf("%s: request %d failed: %s", c.opt.Name, seq, m)
	}
	c.unmarshal(m, body)
	return m
}

// Call sends a request and waits for its successful response; body, when not nil,
// receives the response's body.
func (c *Client) Call(command string, args, body any) {
	c.t.Helper()
	c.Response(c.Send(command, args), body)
}

// Event waits for an event; body, when not nil, receives its body.
func (c *Client) Event(name string, body any) Msg {
	c.t.Helper()
	m := c.Await("a "+name+" event", func(m Msg) bool { return m.Type == "event" && m.Event == name })
	c.unmarshal(m, body)
	return m
}

// StoppedOrEnd waits for a stopped event, or for the end of the program (exited or
// terminated); it returns the stop and whether the program is still there.
func (c *Client) StoppedOrEnd() (dap.StoppedEventBody, bool) {
	c.t.Helper()
	m := c.Await("a stopped, exited or terminated event", func(m Msg) bool {
		return m.Type == "event" && (m.Event == "stopped" || m.Event == "exited" || m.Event == "terminated")
	})
	var s dap.StoppedEventBody
	if m.Event != "stopped" {
		return s, false
	}
	c.unmarshal(m, &s)
	return s, true
}

func (c *Client) unmarshal(m Msg, body any) {
	c.t.Helper()
	if body == nil {
		return
	}
	if err := json.Unmarshal(m.Body, body); err != nil {
		c.t.Fatalf("%s: %v: %s", c.opt.Name, err, m)
	}
}
