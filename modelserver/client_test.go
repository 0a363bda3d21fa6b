package modelserver

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

var (
	stepInto = grammar.Action{Kind: grammar.StepInto}
	back     = grammar.Action{Kind: grammar.InvStepInto}
)

func openFake(t *testing.T, p *Pool, entry string) (*Backend, error) {
	t.Helper()
	return OpenBackend(context.Background(), p, "", OpenParams{Path: "prog.py", Entry: entry, Model: Model{Dir: "/m"}})
}

func doLine(t *testing.T, b *Backend, a grammar.Action) int {
	t.Helper()
	o, err := b.Do(context.Background(), a)
	if err != nil {
		t.Fatalf("%s: %v", a.Kind, err)
	}
	return o.State.Loc.Line
}

// The child is started on first use and kept: two sessions share one process, and
// each keeps its own state on it.
func TestPipeServerStartedOnceAndSessionsIsolated(t *testing.T) {
	p := fakePool(t)
	a, err := openFake(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := openFake(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	if a.c != b.c {
		t.Fatalf("two sessions started two model servers")
	}
	doLine(t, a, stepInto)
	doLine(t, a, stepInto)
	if got := doLine(t, b, stepInto); got != 2 {
		t.Errorf("session b's first step is at line %d, want 2 (a's steps leaked into it)", got)
	}
	if got := doLine(t, a, stepInto); got != 4 {
		t.Errorf("session a's third step is at line %d, want 4", got)
	}
	o, err := a.Peek(context.Background(), stepInto)
	if err != nil || o.State.Loc.Line != 5 {
		t.Fatalf("peek: %v, %v", o, err)
	}
	if got := doLine(t, a, stepInto); got != 5 {
		t.Errorf("a peek moved the session: the next step is at line %d, want 5", got)
	}
}

// A server that dies mid-session: the action in flight fails with "the model
// server exited: ..." and its reason, and the next action starts a new server and
// carries on from where the session was (its actions are replayed there).
func TestServerKilledMidSession(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "died")
	p := fakePool(t, "NDB_FAKE_DIE_AT", "4", "NDB_FAKE_MARKER", marker)
	b, err := openFake(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	doLine(t, b, stepInto)
	doLine(t, b, stepInto) // line 3
	first := b.c
	_, err = b.Do(context.Background(), stepInto)
	if !errors.Is(err, ErrExited) {
		t.Fatalf("the action the server died in: %v, want ErrExited", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "the model server exited: ") || !strings.Contains(msg, "simulated crash") || !strings.Contains(msg, "exit status 3") {
		t.Errorf("error %q: want the exit status and the server's last words", msg)
	}
	if got := doLine(t, b, stepInto); got != 4 {
		t.Errorf("after the restart the step is at line %d, want 4 (the session's history lost)", got)
	}
	if b.c == first {
		t.Errorf("no new server was started")
	}
	if got := doLine(t, b, back); got != 3 {
		t.Errorf("a reverse step after the restart is at line %d, want 3", got)
	}
}

// A server killed between actions (SIGKILL, no last words) is reported at the next
// action, and the one after restarts it.
func TestServerKilledBySignal(t *testing.T) {
	p := fakePool(t)
	b, err := openFake(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	doLine(t, b, stepInto)
	if err := b.c.Kill(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for b.c.Alive() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := b.Do(context.Background(), stepInto); !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "signal: killed") {
		t.Fatalf("the step after the kill: %v, want the server's exit", err)
	}
	if got := doLine(t, b, stepInto); got != 3 {
		t.Errorf("the step after that is at line %d, want 3", got)
	}
}

// A server that does not answer within the deadline: the action fails saying so,
// the request is cancelled there, and the session goes on.
func TestDeadlineCancels(t *testing.T) {
	p := fakePool(t)
	b, err := openFake(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	b.c.Timeout = 300 * time.Millisecond
	_, err = b.Do(context.Background(), grammar.Action{Kind: grammar.Continue})
	if err == nil || !strings.Contains(err.Error(), "did not answer session.do within 300ms") {
		t.Fatalf("a request past its deadline: %v", err)
	}
	b.c.Timeout = 20 * time.Second
	if got := doLine(t, b, stepInto); got != 2 {
		t.Errorf("the step after a cancelled one is at line %d, want 2", got)
	}
}

// The server's errors come back as the session's: ErrAtStart, a *ProgramError, a
// checkpoint that does not load (naming the file).
func TestErrorsComeBackAsTheSessions(t *testing.T) {
	p := fakePool(t)
	b, err := openFake(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Do(context.Background(), back); !errors.Is(err, session.ErrAtStart) {
		t.Errorf("a reverse step at the entry: %v, want ErrAtStart", err)
	}
	_, err = openFake(t, p, "nothing()")
	var pe *session.ProgramError
	if !errors.As(err, &pe) || pe.Kind != "entry" || pe.Path != "prog.py" {
		t.Errorf("a bad entry: %#v, want a *ProgramError of kind entry", err)
	}
	_, err = OpenBackend(context.Background(), p, "", OpenParams{Model: Model{Dir: "/no/such/checkpoint"}})
	if err == nil || !strings.Contains(err.Error(), "/no/such/checkpoint") {
		t.Errorf("a checkpoint that does not load: %v", err)
	}
}

// A missing ndb-infer is an error that says how to get one.
func TestMissingBinary(t *testing.T) {
	t.Setenv("NDB_INFER", "")
	t.Setenv("PATH", t.TempDir())
	if _, err := FindBinary(); err == nil || !strings.Contains(err.Error(), "ndb-infer") {
		t.Errorf("FindBinary with no ndb-infer: %v", err)
	}
	p := &Pool{Binary: filepath.Join(t.TempDir(), "ndb-infer")}
	if _, err := p.Get(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "start the model server") {
		t.Errorf("starting a missing binary: %v", err)
	}
	if _, err := p.Get(context.Background(), "127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("dialling nothing: %v", err)
	}
}

func TestCheckDevice(t *testing.T) {
	for _, ok := range []string{"", "cpu", "CUDA", "cuda:1", "auto"} {
		if err := CheckDevice(ok); err != nil {
			t.Errorf("CheckDevice(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"gpu", "cuda:x", "cuda:-1"} {
		if CheckDevice(bad) == nil {
			t.Errorf("CheckDevice(%q) accepted", bad)
		}
	}
}

// Warm starts the child a launch will use, so the session's open finds it running
// (one process), even when the server knows no model.load (an older ndb-infer).
func TestWarmStartsTheServerTheSessionUses(t *testing.T) {
	p := fakePool(t)
	p.Warm(session.Options{Model: "/m"})
	c, err := p.Get(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := openFake(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	if b.c != c {
		t.Errorf("the session started a second model server beside the warmed one")
	}
	if got := doLine(t, b, stepInto); got != 2 {
		t.Errorf("first step at line %d, want 2", got)
	}
}
