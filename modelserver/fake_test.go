package modelserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/train/eval"
)

// The test binary doubles as a model server: with NDB_FAKE_MODEL_SERVER set,
// TestMain serves the protocol on stdin/stdout with a fake "model" whose every step
// goes one line down (line 1 is the entry), so a session's states say how many
// actions it took. An action at line NDB_FAKE_DIE_AT (when set) makes it exit with a
// message on stderr, once per marker file; a continue sleeps past any deadline.
func TestMain(m *testing.M) {
	if os.Getenv("NDB_FAKE_MODEL_SERVER") != "" {
		serveFake()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type fakeSession struct{ line, depth int }

type fakeServer struct {
	mu       sync.Mutex
	sessions map[string]*fakeSession
	next     int
}

func serveFake() {
	f := &fakeServer{sessions: map[string]*fakeSession{}}
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewPlainObjectStream(stdio{}), jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(f.handle)))
	<-conn.DisconnectNotify()
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }

func (f *fakeServer) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch req.Method {
	case MethodHello:
		return Hello{Protocol: ProtocolVersion, MaxSessions: 4}, nil
	case MethodOpen:
		var p OpenParams
		json.Unmarshal(*req.Params, &p)
		if p.Entry == "nothing()" {
			e := &jsonrpc2.Error{Code: CodeProgram, Message: "bad entry"}
			e.SetError(map[string]any{"Path": p.Path, "Kind": "entry", "Message": "the program defines no function nothing"})
			return nil, e
		}
		if p.Model.Dir == "/no/such/checkpoint" {
			return nil, &jsonrpc2.Error{Code: CodeModel, Message: "model /no/such/checkpoint: open /no/such/checkpoint/config.json: no such file or directory"}
		}
		f.next++
		id := strconv.Itoa(f.next)
		f.sessions[id] = &fakeSession{line: 1}
		return OpenResult{Session: id, Entry: grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}}}, nil
	case MethodDo, MethodPeek:
		var p ActionParams
		json.Unmarshal(*req.Params, &p)
		s := f.sessions[p.Session]
		if s == nil {
			return nil, &jsonrpc2.Error{Code: CodeNoSession, Message: "no session"}
		}
		if p.Action.Kind == grammar.Continue {
			f.mu.Unlock()
			<-ctx.Done() // never answers
			f.mu.Lock()
			return nil, &jsonrpc2.Error{Code: CodeCanceled, Message: "cancelled"}
		}
		if p.Action.Kind.Inverse() && s.depth == 0 {
			return nil, &jsonrpc2.Error{Code: CodeAtStart, Message: "at start"}
		}
		line := s.line + 1
		if p.Action.Kind.Inverse() {
			line = s.line - 1
		}
		if die := os.Getenv("NDB_FAKE_DIE_AT"); die == strconv.Itoa(line) {
			if _, err := os.Stat(os.Getenv("NDB_FAKE_MARKER")); err != nil {
				os.WriteFile(os.Getenv("NDB_FAKE_MARKER"), nil, 0o644)
				fmt.Fprintln(os.Stderr, "fatal: simulated crash")
				os.Exit(3)
			}
		}
		if req.Method == MethodDo {
			s.line = line
			if p.Action.Kind.Inverse() {
				s.depth--
			} else {
				s.depth++
			}
		}
		return Outcome{State: grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: line}}}, nil
	case MethodPredict: // says what came with the prompt: the facts' codes (line), grammar alone (TooLong)
		var p PredictParams
		json.Unmarshal(*req.Params, &p)
		line := -1
		if p.Facts != nil {
			line = len(p.Facts.Codes)
		}
		pr := eval.Prediction{Next: eval.Next{State: grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: line}}}, TooLong: p.GrammarOnly}
		return PredictResult{Predictions: []eval.Prediction{pr}}, nil
	case MethodSetVariable:
		return grammar.State{Event: grammar.EventLine}, nil
	case MethodClose:
		var p CloseParams
		json.Unmarshal(*req.Params, &p)
		delete(f.sessions, p.Session)
		return struct{}{}, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: req.Method}
}

// fakePool is a pool whose child is this test binary serving the fake model.
func fakePool(t *testing.T, env ...string) *Pool {
	t.Helper()
	t.Setenv("NDB_FAKE_MODEL_SERVER", "1")
	for i := 0; i+1 < len(env); i += 2 {
		t.Setenv(env[i], env[i+1])
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &Pool{Binary: exe, Timeout: 20 * time.Second}
	t.Cleanup(func() { p.Close() })
	return p
}
