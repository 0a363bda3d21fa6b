package adapter

import (
	"io"
	"testing"
	"time"

	"github.com/ndb-project/ndb/adapter/daptest"
)

// wireClient is the client that drives ndb and debugpy alike in the comparison: it
// knows no adapter, reads messages as plain JSON and matches responses to requests
// by request_seq, keeping the messages that arrive meanwhile (debugpy's process,
// thread, module and output events, ndb's output) in a backlog. Both adapters pay
// for the same reading and decoding.
type wireClient = daptest.Client

// wireTimeout bounds each wait: debugpy starts two Python processes per session, so
// it is looser than readTimeout.
const wireTimeout = 60 * time.Second

func newWireClient(t testing.TB, name string, r io.Reader, w io.Writer) *wireClient {
	return daptest.New(t, r, w, daptest.Options{Name: name, Timeout: wireTimeout})
}
