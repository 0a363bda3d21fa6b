package adapter

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

// wireClient is a DAP client that knows no adapter: it frames requests, reads
// messages as plain JSON and matches responses to requests by request_seq, so the
// same code drives ndb and debugpy. Messages that arrive while it waits for
// something else (debugpy's process, thread, module and output events, ndb's
// output) are kept in a backlog, in order, and searched first by later waits.
// Both adapters pay for the same reading and decoding.
type wireClient struct {
	t       testing.TB
	name    string // the adapter, for messages
	w       io.Writer
	seq     int
	msgs    chan wireMsg
	errs    chan error
	backlog []wireMsg
}

// wireMsg is a DAP message as far as the client needs to read it.
type wireMsg struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`
	Command    string          `json:"command"`
	Event      string          `json:"event"`
	RequestSeq int             `json:"request_seq"`
	Success    bool            `json:"success"`
	Message    string          `json:"message"`
	Body       json.RawMessage `json:"body"`
}

func (m wireMsg) String() string {
	switch m.Type {
	case "event":
		return fmt.Sprintf("event %s %s", m.Event, m.Body)
	case "response":
		return fmt.Sprintf("response %s (request %d, success %v, %q) %s", m.Command, m.RequestSeq, m.Success, m.Message, m.Body)
	}
	return fmt.Sprintf("%s %s %s", m.Type, m.Command, m.Body)
}

// wireTimeout bounds each wait: debugpy starts two Python processes per session, so
// it is looser than readTimeout.
const wireTimeout = 60 * time.Second

func newWireClient(t testing.TB, name string, r io.Reader, w io.Writer) *wireClient {
	c := &wireClient{t: t, name: name, w: w, msgs: make(chan wireMsg, 256), errs: make(chan error, 1)}
	go func() {
		br := bufio.NewReader(r)
		for {
			content, err := dap.ReadBaseMessage(br)
			if err != nil {
				c.errs <- err
				close(c.msgs)
				return
			}
			var m wireMsg
			if err := json.Unmarshal(content, &m); err != nil {
				c.errs <- fmt.Errorf("undecodable message: %v: %s", err, content)
				close(c.msgs)
				return
			}
			c.msgs <- m
		}
	}()
	return c
}

// send writes a request and returns its seq.
func (c *wireClient) send(command string, args any) int {
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
	if err := dap.WriteBaseMessage(c.w, b); err != nil {
		c.t.Fatalf("%s: writing %s: %v", c.name, command, err)
	}
	return c.seq
}

// await returns the first message (backlog first, then the wire) that match accepts.
func (c *wireClient) await(what string, match func(wireMsg) bool) wireMsg {
	c.t.Helper()
	for i, m := range c.backlog {
		if match(m) {
			c.backlog = append(c.backlog[:i], c.backlog[i+1:]...)
			return m
		}
	}
	deadline := time.After(wireTimeout)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("%s closed the connection while the client waited for %s: %v\nunread: %s", c.name, what, <-c.errs, c.unread())
			}
			if match(m) {
				return m
			}
			c.backlog = append(c.backlog, m)
		case <-deadline:
			c.t.Fatalf("%s: no %s within %v\nunread: %s", c.name, what, wireTimeout, c.unread())
		}
	}
}

func (c *wireClient) unread() string {
	var s []string
	for _, m := range c.backlog {
		s = append(s, m.String())
	}
	return strings.Join(s, "\n  ")
}

// response waits for the response to request seq and fails the test on an error
// response; body, when not nil, receives the body.
func (c *wireClient) response(seq int, body any) wireMsg {
	c.t.Helper()
	m := c.await(fmt.Sprintf("the response to request %d", seq), func(m wireMsg) bool {
		return m.Type == "response" && m.RequestSeq == seq
	})
	if !m.Success {
		c.t.Fatalf("%s: request %d failed: %s", c.name, seq, m)
	}
	if body != nil {
		if err := json.Unmarshal(m.Body, body); err != nil {
			c.t.Fatalf("%s: %v: %s", c.name, err, m)
		}
	}
	return m
}

// call sends a request and waits for its successful response.
func (c *wireClient) call(command string, args, body any) {
	c.t.Helper()
	c.response(c.send(command, args), body)
}

// event waits for an event; body, when not nil, receives its body.
func (c *wireClient) event(name string, body any) wireMsg {
	c.t.Helper()
	m := c.await("a "+name+" event", func(m wireMsg) bool { return m.Type == "event" && m.Event == name })
	if body != nil {
		if err := json.Unmarshal(m.Body, body); err != nil {
			c.t.Fatalf("%s: %v: %s", c.name, err, m)
		}
	}
	return m
}

// stoppedOrEnd waits for a stopped event, or for the end of the program (exited or
// terminated); it returns the stop and whether the program is still there.
func (c *wireClient) stoppedOrEnd() (dap.StoppedEventBody, bool) {
	c.t.Helper()
	m := c.await("a stopped, exited or terminated event", func(m wireMsg) bool {
		return m.Type == "event" && (m.Event == "stopped" || m.Event == "exited" || m.Event == "terminated")
	})
	var s dap.StoppedEventBody
	if m.Event != "stopped" {
		return s, false
	}
	if err := json.Unmarshal(m.Body, &s); err != nil {
		c.t.Fatalf("%s: %v: %s", c.name, err, m)
	}
	return s, true
}
