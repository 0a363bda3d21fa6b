package daptest_test

import (
	"bufio"
	"net"
	"testing"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/adapter/daptest"
)

// fakeAdapter answers each request with an output event and then its response, as
// an adapter that interleaves events does.
func fakeAdapter(t *testing.T, conn net.Conn) {
	r := bufio.NewReader(conn)
	seq := 0
	for {
		m, err := dap.ReadProtocolMessage(r)
		if err != nil {
			return
		}
		req := m.(dap.RequestMessage).GetRequest()
		seq++
		ev := &dap.OutputEvent{Event: dap.Event{ProtocolMessage: dap.ProtocolMessage{Seq: seq, Type: "event"}, Event: "output"}, Body: dap.OutputEventBody{Output: req.Command}}
		seq++
		resp := &dap.ThreadsResponse{Response: dap.Response{ProtocolMessage: dap.ProtocolMessage{Seq: seq, Type: "response"}, Command: req.Command, RequestSeq: req.Seq, Success: true},
			Body: dap.ThreadsResponseBody{Threads: []dap.Thread{{Id: 1, Name: "main"}}}}
		if dap.WriteProtocolMessage(conn, ev) != nil || dap.WriteProtocolMessage(conn, resp) != nil {
			return
		}
		if req.Command == "disconnect" {
			conn.Close()
			return
		}
	}
}

func TestTranscriptAndBacklog(t *testing.T) {
	a, b := net.Pipe()
	go fakeAdapter(t, b)
	c := daptest.New(t, a, a, daptest.Options{Name: "fake"})

	c.Send("threads", nil)                                                    // >> threads
	if e := daptest.Expect[*dap.OutputEvent](c); e.Body.Output != "threads" { // << output
		t.Fatalf("output %q", e.Body.Output)
	}
	if r := daptest.Expect[*dap.ThreadsResponse](c); len(r.Body.Threads) != 1 { // << threads
		t.Fatalf("threads %+v", r.Body)
	}

	// Waiting for the response first keeps the event that came before it.
	var body dap.ThreadsResponseBody
	c.Call("threads", nil, &body)
	if len(body.Threads) != 1 || body.Threads[0].Name != "main" {
		t.Fatalf("threads body %+v", body)
	}
	if e := daptest.Expect[*dap.OutputEvent](c); e.Body.Output != "threads" {
		t.Fatalf("the backlog's output %q", e.Body.Output)
	}

	c.Send("disconnect", nil)
	c.Event("output", nil)
	daptest.Expect[*dap.DisconnectResponse](c)
	c.ExpectClosed()
}
