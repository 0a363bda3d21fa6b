package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// With NDB_TEST_MODEL_SERVER set, the test binary is ndb-infer on stdin/stdout: the
// pipe tests start it as ndb starts the real one.
func TestMain(m *testing.M) {
	if os.Getenv("NDB_TEST_MODEL_SERVER") != "" {
		srv := New(Options{Log: zerolog.Nop()})
		srv.ServeConn(context.Background(), stdio{})
		srv.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }

// model is the bundled checkpoint: the tiny random one ends its sessions at once.
func model(t *testing.T) string {
	dir, err := models.DefaultDir()
	if err != nil {
		t.Skip("no bundled model: ", err)
	}
	return dir
}

// entries are the calls of count.py the sessions start from.
var entries = []string{`count("berry", "r")`, `count("strawberry", "r")`, `count("aab", "a")`, `count("x", "y")`}

// actions is the session every test plays: enough to move and come back.
var actions = []grammar.Action{{Kind: grammar.StepInto}, {Kind: grammar.StepOver}, {Kind: grammar.StepOver},
	{Kind: grammar.InvStepInto}, {Kind: grammar.StepOver}, {Kind: grammar.StepReturn}}

type opener func(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error)

// open opens a greedy neural session of count.py with the bundled model through
// factory.
func open(t *testing.T, factory opener, addr, entry string) *session.Session {
	t.Helper()
	return openWith(t, factory, addr, entry, false)
}

// openWith is open under the program facts' constraints (the default), or the
// grammar's alone.
func openWith(t *testing.T, factory opener, addr, entry string, grammarOnly bool) *session.Session {
	t.Helper()
	return openFile(t, factory, addr, "count.py", entry, grammarOnly)
}

// openFile is openWith on another of testdata/programs.
func openFile(t *testing.T, factory opener, addr, file, entry string, grammarOnly bool) *session.Session {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "programs", file))
	if err != nil {
		t.Fatal(err)
	}
	pool, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1})
	if err != nil {
		t.Skip(err)
	}
	defer pool.Close()
	s, err := session.Open(context.Background(), session.Program{Path: file, Source: string(src), Entry: entry},
		session.ModeNeural, session.Options{Tracer: pool, Neural: session.NeuralFactory(factory), Model: model(t), MaxTokens: 96,
			ModelServer: addr, GrammarOnly: grammarOnly})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play is the states (or errors) the actions lead to, one line each.
func play(t *testing.T, s *session.Session, acts []grammar.Action) []string {
	t.Helper()
	var out []string
	for _, a := range acts {
		o, err := s.Do(context.Background(), a)
		if err != nil {
			out = append(out, a.Kind.String()+": "+err.Error())
			continue
		}
		out = append(out, fmt.Sprintf("%s: %+v %s", a.Kind, o.State, o.Exit))
	}
	return out
}

func pipePool(t *testing.T) *modelserver.Pool {
	t.Setenv("NDB_TEST_MODEL_SERVER", "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &modelserver.Pool{Binary: exe}
	t.Cleanup(func() { p.Close() })
	return p
}

func listen(t *testing.T) string {
	addr, _ := listenWith(t, Options{Log: zerolog.Nop(), MaxSessions: 3})
	return addr
}

// listenWith starts a server with opt on a loopback port.
func listenWith(t *testing.T, opt Options) (string, *Server) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(opt)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done; srv.Close() })
	return ln.Addr().String(), srv
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant (in process):\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A session through a pipe-started server, and one through a listening server,
// predict exactly what the model predicts in process, so the hop changes nothing but where the model runs.
func TestServedSessionsMatchInProcess(t *testing.T) {
	inproc := open(t, neural.Open, "", entries[1])
	want := play(t, inproc, actions)
	inproc.Close()

	p := pipePool(t)
	s := open(t, p.Open, "", entries[1])
	equal(t, "through a pipe", play(t, s, actions), want)
	s.Close()

	addr := listen(t)
	s = open(t, modelserver.Default.Open, addr, entries[1])
	equal(t, "through --listen", play(t, s, actions), want)
	s.Close()

	// --constraints grammar travels too: the served raw model is the in-process one.
	inproc = openWith(t, neural.Open, "", entries[1], true)
	want = play(t, inproc, actions)
	inproc.Close()
	s = openWith(t, modelserver.Default.Open, addr, entries[1], true)
	equal(t, "through --listen, the grammar alone", play(t, s, actions), want)
	s.Close()
}

// Two sessions on one server, their actions interleaved, get the same states as
// each alone: their KV caches and histories are their own.
func TestTwoSessionsOnOneServerAreIsolated(t *testing.T) {
	alone := func(entry string) []string {
		s := open(t, neural.Open, "", entry)
		defer s.Close()
		return play(t, s, actions)
	}
	wantA, wantB := alone(entries[1]), alone(entries[2])
	addr := listen(t)
	a := open(t, modelserver.Default.Open, addr, entries[1])
	defer a.Close()
	b := open(t, modelserver.Default.Open, addr, entries[2])
	defer b.Close()
	var gotA, gotB []string
	for i := range actions {
		gotA = append(gotA, play(t, a, actions[i:i+1])...)
		gotB = append(gotB, play(t, b, actions[i:i+1])...)
	}
	equal(t, "session a beside b", gotA, wantA)
	equal(t, "session b beside a", gotB, wantB)

	// The server's limit (3 here) bounds open sessions; a closed one frees its place.
	c := open(t, modelserver.Default.Open, addr, entries[3])
	_, err := modelserver.OpenBackend(context.Background(), modelserver.Default, addr, modelserver.OpenParams{Model: modelserver.Model{Dir: model(t)}})
	if err == nil || !strings.Contains(err.Error(), "limit of 3 sessions") {
		t.Errorf("a fourth session: %v", err)
	}
	c.Close()
	d := open(t, modelserver.Default.Open, addr, entries[3])
	d.Close()
}

// The server killed mid-session: the action fails with "the model server exited",
// and the next one restarts it and carries on as if nothing happened (greedy).
func TestServerKilledMidSession(t *testing.T) {
	inproc := open(t, neural.Open, "", entries[0])
	want := play(t, inproc, actions)
	inproc.Close()
	t.Logf("in process:\n%s", strings.Join(want, "\n"))

	p := pipePool(t)
	c, err := p.Get(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, p.Open, "", entries[0])
	defer s.Close()
	got := play(t, s, actions[:3])
	c.Kill()
	for deadline := time.Now().Add(10 * time.Second); c.Alive() && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	_, err = s.Do(context.Background(), actions[3])
	if !errors.Is(err, modelserver.ErrExited) || !strings.HasPrefix(err.Error(), "the model server exited: ") {
		t.Fatalf("the action after the kill: %v", err)
	}
	t.Log(err)
	got = append(got, play(t, s, actions[3:])...)
	equal(t, "across a restart", got, want)
}

// A checkpoint that does not load is an error naming it, and the server stays up.
func TestBadCheckpoint(t *testing.T) {
	addr := listen(t)
	bad := t.TempDir()
	_, err := modelserver.OpenBackend(context.Background(), modelserver.Default, addr, modelserver.OpenParams{Model: modelserver.Model{Dir: bad}})
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("a folder with no checkpoint: %v", err)
	}
	s := open(t, modelserver.Default.Open, addr, entries[0])
	s.Close()
}

// model.load (ndb's warm-up, sent as a neural launch arrives) loads the checkpoint
// before the session asks for it: the open that follows finds it loaded and loads
// nothing; a checkpoint that does not load is the error naming it, as at open.
func TestLoadAheadOfOpen(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	defer func() { cancel(); <-done; srv.Close() }()
	addr := ln.Addr().String()

	c, err := modelserver.Dial(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	bad := t.TempDir()
	if err := c.Call(context.Background(), modelserver.MethodLoad, modelserver.Model{Dir: bad}, &struct{}{}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("model.load of a folder with no checkpoint: %v", err)
	}
	if err := c.Call(context.Background(), modelserver.MethodLoad, modelserver.Model{Dir: model(t)}, &struct{}{}); err != nil {
		t.Fatal(err)
	}
	loaded := func() int { srv.run.Lock(); defer srv.run.Unlock(); return len(srv.models) }
	if n := loaded(); n != 1 {
		t.Fatalf("%d checkpoints loaded after model.load, want 1", n)
	}
	s := open(t, modelserver.Default.Open, addr, entries[1])
	defer s.Close()
	if n := loaded(); n != 1 {
		t.Errorf("%d checkpoints loaded after the open, want the one model.load loaded", n)
	}
	if _, err := s.Do(context.Background(), actions[0]); err != nil {
		t.Error(err)
	}
}
