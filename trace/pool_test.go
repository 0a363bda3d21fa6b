package trace_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/trace"
)

// Helpers of the tracer and pool tests carry a "tp" prefix, so they do not
// collide with helpers of other tests in this package.

var (
	tpSharedOnce sync.Once
	tpSharedPool *trace.Pool
	tpSharedErr  error
)

// tpShared returns a pool shared by the tests that do not break workers. Its
// processes end with the test binary (their request pipe closes).
func tpShared(t testing.TB) *trace.Pool {
	t.Helper()
	tpSharedOnce.Do(func() {
		tpSharedPool, tpSharedErr = trace.NewPool(context.Background(), trace.PoolOptions{
			Workers: 2,
			Log:     tpLog(),
			// Generous: the tests run on loaded machines, and nothing here is
			// meant to reach the hard deadline.
			Grace: 30 * time.Second,
		})
	})
	if tpSharedErr != nil {
		t.Fatalf("NewPool: %v", tpSharedErr)
	}
	return tpSharedPool
}

// tpBusy spins without producing events (its loop is not the program's code),
// so only the wall-clock limit ends it.
const tpBusy = "exec('while True: pass')\n"

// tpNew returns a private pool, closed when the test ends.
func tpNew(t testing.TB, opts trace.PoolOptions) *trace.Pool {
	t.Helper()
	if reflect.ValueOf(opts.Log).IsZero() {
		opts.Log = tpLog()
	}
	p, err := trace.NewPool(context.Background(), opts)
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func tpLog() zerolog.Logger {
	return zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, NoColor: true}).Level(zerolog.WarnLevel).With().Timestamp().Logger()
}

func tpCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// tpTrace traces source with entry on the shared pool and fails on a transport error.
func tpTrace(t testing.TB, source, entry string, lim trace.Limits) trace.TraceResult {
	t.Helper()
	if lim.WallSecs == 0 {
		lim.WallSecs = 20 // loaded test machines; tests of the limit set their own
	}
	res, err := tpShared(t).Trace(tpCtx(t), trace.TraceRequest{Source: source, Entry: entry, Limits: lim})
	if err != nil {
		t.Fatalf("Trace: %v", err)
	}
	return res
}

func TestNewPoolMissingPython(t *testing.T) {
	_, err := trace.NewPool(context.Background(), trace.PoolOptions{Python: "no-such-python-ndb"})
	if !errors.Is(err, trace.ErrNoPython) {
		t.Fatalf("err = %v, want ErrNoPython", err)
	}
	if !strings.Contains(err.Error(), "no-such-python-ndb") {
		t.Errorf("error does not name the interpreter: %v", err)
	}
}

// An interpreter that is too old or does not run is ErrNoPython, saying why
// (the pool learns the version from its first worker; a worker that does not
// start is asked again).
func TestNewPoolOldOrBrokenPython(t *testing.T) {
	dir := t.TempDir()
	for name, script := range map[string]string{
		"old":    "#!/bin/sh\necho /usr/bin/python3.8\necho 3.8.10\n",
		"broken": "#!/bin/sh\necho 'no such module' >&2\nexit 1\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := trace.NewPool(context.Background(), trace.PoolOptions{Python: path})
		if !errors.Is(err, trace.ErrNoPython) {
			t.Errorf("%s: err = %v, want ErrNoPython", name, err)
			continue
		}
		want := map[string]string{"old": "is Python 3.8.10, need 3.10", "broken": "does not run"}[name]
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want it to say %q", name, err, want)
		}
	}
}

func TestNewPoolEnvPython(t *testing.T) {
	t.Setenv("NDB_PYTHON", "no-such-python-from-env")
	_, err := trace.NewPool(context.Background(), trace.PoolOptions{})
	if !errors.Is(err, trace.ErrNoPython) || !strings.Contains(err.Error(), "no-such-python-from-env") {
		t.Fatalf("NDB_PYTHON not used: %v", err)
	}
}

func TestPoolResolvesRealInterpreter(t *testing.T) {
	p := tpShared(t)
	if p.Size() != 2 {
		t.Errorf("Size = %d, want 2", p.Size())
	}
	if !strings.HasPrefix(p.Version(), "3.") {
		t.Errorf("Version = %q", p.Version())
	}
	// A pyenv shim or other wrapper script is replaced by the interpreter itself.
	data, err := os.ReadFile(p.Python())
	if err == nil && strings.HasPrefix(string(data), "#!") {
		t.Errorf("pool runs a script, not the interpreter: %s", p.Python())
	}
	v, err := p.Ping(tpCtx(t))
	if err != nil || v != p.Version() {
		t.Errorf("Ping = %q, %v", v, err)
	}
}

// A program that ends its process ends only the child the worker forked for it
// (the sandbox): the error says how it ended, and the same worker serves on.
func TestProgramOsExitEndsOnlyItsProcess(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	ctx := tpCtx(t)
	_, err := p.Trace(ctx, trace.TraceRequest{Source: "import os\nprint('bye')\nos._exit(3)\n"})
	if !errors.Is(err, trace.ErrWorkerDied) {
		t.Fatalf("err = %v, want ErrWorkerDied", err)
	}
	if !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("error does not say how the program's process ended: %v", err)
	}
	// The pool still serves, with the same worker.
	res, err := p.Trace(ctx, trace.TraceRequest{Source: "def f(x):\n    return x + 1\n", Entry: "f(1)"})
	if err != nil || res.Status != trace.StatusNormal || tpLast(res).Arg != "2" {
		t.Fatalf("after a worker death: %+v, %v", res, err)
	}
	if p.Size() != 1 || p.Restarts() != 0 {
		t.Errorf("Size = %d, Restarts = %d; want 1, 0", p.Size(), p.Restarts())
	}
}

func TestWorkerCrashIsReplaced(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	ctx := tpCtx(t)
	src := "import ctypes\nctypes.string_at(0)\n" // segfault
	_, err := p.Trace(ctx, trace.TraceRequest{Source: src})
	if !errors.Is(err, trace.ErrWorkerDied) {
		t.Fatalf("err = %v, want ErrWorkerDied", err)
	}
	if _, err := p.Parse(ctx, trace.ParseRequest{Source: "x = 1\n"}); err != nil {
		t.Fatalf("after a crash: %v", err)
	}
}

func TestLongCCallTimesOut(t *testing.T) {
	// sum over a range runs in C and never checks for signals, so only the
	// pool's hard deadline can stop it.
	p := tpNew(t, trace.PoolOptions{Workers: 1, Grace: 500 * time.Millisecond})
	ctx := tpCtx(t)
	res, err := p.Trace(ctx, trace.TraceRequest{
		Source: "def f():\n    return sum(range(10**12))\n",
		Entry:  "f()",
		Limits: trace.Limits{WallSecs: 0.3},
	})
	if !errors.Is(err, trace.ErrWorkerTimeout) {
		t.Fatalf("err = %v, want ErrWorkerTimeout", err)
	}
	if res.Status != trace.StatusNever || res.Exception != "time limit" {
		t.Errorf("result = %+v, want status never", res)
	}
	chk, err := p.Check(ctx, trace.CheckRequest{Source: "def f():\n    return 3\n", Call: "f()", Expected: "3"})
	if err != nil || !chk.OK {
		t.Fatalf("after a timeout: %+v, %v", chk, err)
	}
}

// TestTimeLimitIsNoException checks that a run the time limit cuts inside Python code
// ends with status never and no exception event: the limit is not the program's
// exception (the program facts rely on it: a line the evaluator decides raises
// nothing). Each pass spends its time in one C call, so the alarm's handler runs in
// the program's own code, where the tracer leaves the event out (where it fires
// inside the trace function, tracing ends without an event either way); and the run
// records few events, so that a loaded machine answers in time.
func TestTimeLimitIsNoException(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{
		Source: "def f():\n    n = 0\n    while True:\n        n += sum(range(300000))\n",
		Entry:  "f()",
		Limits: trace.Limits{WallSecs: 0.5},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != trace.StatusNever || res.Exception != "time limit" {
		t.Fatalf("result: status %s, %q; want never, time limit", res.Status, res.Exception)
	}
	for _, ev := range res.Events {
		if ev.Event == "exception" {
			t.Fatalf("an exception event at line %d: %s", ev.Line, ev.Arg)
		}
	}
	if len(res.Events) < 4 {
		t.Fatalf("only %d events", len(res.Events))
	}
}

func TestMemoryHogNeverHangs(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1, MemoryMiB: 512})
	ctx := tpCtx(t)
	for _, src := range []string{
		"def f():\n    b = bytearray(10**10)\n    return len(b)\n",
		// bytes(n) is calloc'ed: address space grows fast without touching pages.
		"def f():\n    xs = []\n    while True:\n        xs.append(bytes(10**7))\n",
	} {
		res, err := p.Trace(ctx, trace.TraceRequest{Source: src, Entry: "f()", Limits: trace.Limits{WallSecs: 10}})
		switch {
		case errors.Is(err, trace.ErrWorkerDied):
		case err != nil:
			t.Fatalf("unexpected error: %v", err)
		case res.Status != trace.StatusError || !strings.HasPrefix(res.Exception, "MemoryError"):
			t.Fatalf("status %s %q, want a MemoryError", res.Status, res.Exception)
		}
		res, err = p.Trace(ctx, trace.TraceRequest{Source: "x = [0] * 1000\n"})
		if err != nil || res.Status != trace.StatusNormal {
			t.Fatalf("after a memory hog: %+v, %v", res.Status, err)
		}
	}
}

func TestWaitingForWorkerRespectsContext(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	ctx := tpCtx(t)
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		close(started)
		_, err := p.Trace(ctx, trace.TraceRequest{Source: tpBusy, Limits: trace.Limits{WallSecs: 1.5}})
		done <- err
	}()
	<-started
	time.Sleep(200 * time.Millisecond) // let it take the only worker
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, err := p.Parse(short, trace.ParseRequest{Source: "x = 1\n"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("busy request: %v", err)
	}
}

func TestCancelledRequestKillsWorker(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	ctx, cancel := context.WithTimeout(tpCtx(t), 300*time.Millisecond)
	defer cancel()
	_, err := p.Trace(ctx, trace.TraceRequest{Source: tpBusy, Limits: trace.Limits{WallSecs: 20}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: "y = 2\n"})
	if err != nil || res.Status != trace.StatusNormal {
		t.Fatalf("after a cancelled request: %+v, %v", res, err)
	}
}

func TestCloseIsIdempotentAndFinal(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 2})
	ctx := tpCtx(t)
	inFlight := make(chan error, 1)
	go func() {
		_, err := p.Trace(ctx, trace.TraceRequest{Source: tpBusy, Limits: trace.Limits{WallSecs: 30}})
		inFlight <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-inFlight:
		if !errors.Is(err, trace.ErrPoolClosed) {
			t.Errorf("in-flight request: %v, want ErrPoolClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("in-flight request hangs after Close")
	}
	if _, err := p.Parse(ctx, trace.ParseRequest{Source: "x = 1\n"}); !errors.Is(err, trace.ErrPoolClosed) {
		t.Errorf("after Close: %v, want ErrPoolClosed", err)
	}
}

func TestStatsCountRequestsByMethod(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	ctx := tpCtx(t)
	src := "def f(x):\n    return x\n"
	for range 2 {
		if _, err := p.Parse(ctx, trace.ParseRequest{Source: src}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Trace(ctx, trace.TraceRequest{Source: src, Entry: "f(1)"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Check(ctx, trace.CheckRequest{Source: src, Call: "f(1)", Expected: "1"}); err != nil {
		t.Fatal(err)
	}
	got := p.Stats()
	want := map[string]int64{"parse": 2, "trace": 1, "check": 1}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Stats()[%q] = %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
	got["parse"] = 100 // a copy
	if p.Stats()["parse"] != 2 {
		t.Error("Stats returns the pool's own map")
	}
}

func TestConcurrentRequests(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 3})
	ctx := tpCtx(t)
	const n = 48
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := fmt.Sprintf("def f(x):\n    y = x * %d\n    print(y)\n    return y\n", i)
			switch i % 4 {
			case 0, 1:
				res, err := p.Trace(ctx, trace.TraceRequest{Source: src, Entry: "f(2)"})
				want := fmt.Sprint(2 * i)
				if err != nil || res.Status != trace.StatusNormal || tpLast(res).Arg != want || res.Output != want+"\n" {
					errs <- fmt.Errorf("trace %d: %+v, %v", i, res, err)
				}
			case 2:
				res, err := p.Check(ctx, trace.CheckRequest{Source: src, Call: "f(3)", Expected: fmt.Sprint(3 * i)})
				if err != nil || !res.OK {
					errs <- fmt.Errorf("check %d: %+v, %v", i, res, err)
				}
			case 3:
				res, err := p.Parse(ctx, trace.ParseRequest{Source: src})
				if err != nil || len(res.Functions) != 1 {
					errs <- fmt.Errorf("parse %d: %+v, %v", i, res, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := p.Stats(); got["trace"]+got["check"]+got["parse"] != n {
		t.Errorf("Stats = %v, want %d requests", got, n)
	}
}

func TestTraceOnce(t *testing.T) {
	python, _, err := trace.ResolvePython(tpCtx(t), "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := trace.TraceOnce(tpCtx(t), python, trace.TraceRequest{Source: tpCount, Entry: `count("berry", "r")`})
	if err != nil || res.Status != trace.StatusNormal || tpLast(res).Arg != "2" {
		t.Fatalf("TraceOnce: %+v, %v", res, err)
	}
}

// TestOtherInterpreters runs a few traces on every other CPython found here, so
// the tracer keeps working across the versions a user may have.
func TestOtherInterpreters(t *testing.T) {
	home, _ := os.UserHomeDir()
	candidates := []string{"/usr/bin/python3.11", "/usr/bin/python3.12", "/usr/bin/python3.13"}
	for _, v := range []string{"3.10", "3.12", "3.13"} {
		matches, _ := filepath.Glob(home + "/.pyenv/versions/" + v + ".*/bin/python" + v)
		candidates = append(candidates, matches...)
	}
	ran := 0
	for _, py := range candidates {
		if _, err := exec.LookPath(py); err != nil {
			continue
		}
		ran++
		t.Run(py, func(t *testing.T) {
			p := tpNew(t, trace.PoolOptions{Workers: 1, Python: py})
			ctx := tpCtx(t)
			res, err := p.Trace(ctx, trace.TraceRequest{Source: tpCount, Entry: `count("berry", "r")`})
			if err != nil || res.Status != trace.StatusNormal || tpLast(res).Arg != "2" || len(res.Events) != 17 {
				t.Fatalf("count: %d events, %+v, %v", len(res.Events), tpLast(res), err)
			}
			res, err = p.Trace(ctx, trace.TraceRequest{Source: tpCaught, Entry: "outer()"})
			if err != nil {
				t.Fatal(err)
			}
			tpCheckCaught(t, res)
			pr, err := p.Parse(ctx, trace.ParseRequest{Source: tpCount})
			if err != nil || fmt.Sprint(pr.Executable) != "[1 2 3 4 5 6]" {
				t.Fatalf("parse: %+v, %v", pr, err)
			}
		})
	}
	if ran == 0 {
		t.Skip("no other interpreter installed")
	}
}

// tpLockedBuffer is a log sink that tests can read while workers write.
type tpLockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *tpLockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *tpLockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestWorkerRealStdoutGoesToLog(t *testing.T) {
	var logs tpLockedBuffer
	p := tpNew(t, trace.PoolOptions{Workers: 1, Log: zerolog.New(&logs)})
	src := "import os, sys\nos.write(1, b'raw fd one\\n')\nos.write(2, b'raw fd two\\n')\nprint('captured')\nsys.__stdout__.write('real stdout\\n')\nsys.__stdout__.flush()\n"
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: src})
	if err != nil || res.Status != trace.StatusNormal {
		t.Fatalf("%+v, %v", res, err)
	}
	if res.Output != "captured\n" {
		t.Errorf("Output = %q: only sys.stdout and sys.stderr are captured", res.Output)
	}
	// The process's real fds are logged, never mixed into the protocol.
	deadline := time.Now().Add(5 * time.Second)
	for {
		l := logs.String()
		if strings.Contains(l, `"stream":"stdout","message":"raw fd one"`) &&
			strings.Contains(l, `"stream":"stderr","message":"raw fd two"`) &&
			strings.Contains(l, `"message":"real stdout"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("worker output not logged:\n%s", l)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tpStartLog counts the workers a pool starts, from its log.
type tpStartLog struct {
	mu      sync.Mutex
	started int
}

func (l *tpStartLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if strings.Contains(string(b), "trace worker started") {
		l.started++
	}
	return len(b), nil
}

func (l *tpStartLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.started
}

// A pool starts one worker; one request at a time never starts another, and
// overlapping requests start the others.
func TestPoolStartsWorkersOnDemand(t *testing.T) {
	var starts tpStartLog
	p := tpNew(t, trace.PoolOptions{Workers: 3, Log: zerolog.New(&starts).Level(zerolog.DebugLevel)})
	if n := starts.count(); n != 1 {
		t.Fatalf("NewPool started %d workers, want 1", n)
	}
	for range 4 {
		res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: tpCount, Entry: `count("aa", "a")`})
		if err != nil || res.Status != trace.StatusNormal {
			t.Fatalf("%s %v", res.Status, err)
		}
	}
	if n := starts.count(); n != 1 {
		t.Errorf("one request at a time started %d workers, want 1", n)
	}
	slow := "import time\ndef f():\n    time.sleep(0.5)\n    return 1\n"
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: slow, Entry: "f()", Limits: trace.Limits{WallSecs: 20}})
			if err == nil && res.Status != trace.StatusNormal {
				err = fmt.Errorf("status %s %q", res.Status, res.Exception)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := starts.count(); n < 2 || n > 3 {
		t.Errorf("three overlapping requests: %d workers started, want 2 or 3", n)
	}
}

// Workers keep the tracer's compiled code in the cache directory the user names;
// a damaged cache file is compiled again and replaced; with no NDB_CACHE_DIR (the
// default) or "off" no file is kept anywhere.
func TestWorkerCodeCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("NDB_CACHE_DIR", dir)
	trace1 := func() {
		t.Helper()
		p := tpNew(t, trace.PoolOptions{Workers: 1})
		res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: tpCount, Entry: `count("aa", "a")`})
		if err != nil || res.Status != trace.StatusNormal || tpLast(res).Arg != "2" {
			t.Fatalf("%+v %v", res, err)
		}
		p.Close()
	}
	trace1()
	files, _ := filepath.Glob(filepath.Join(dir, "tracer-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	if err := os.WriteFile(files[0], []byte("not marshal data"), 0o600); err != nil {
		t.Fatal(err)
	}
	trace1()
	if st, err := os.Stat(files[0]); err != nil || st.Size() < 1000 {
		t.Errorf("the damaged cache file was not replaced: %v %v", st, err)
	}
	for _, setting := range []string{"", "off"} {
		off := t.TempDir()
		t.Setenv("NDB_CACHE_DIR", setting)
		t.Setenv("XDG_CACHE_HOME", off)
		t.Setenv("HOME", off)
		trace1()
		if files, _ := filepath.Glob(filepath.Join(off, "*", "*", "tracer-*")); len(files) != 0 {
			t.Errorf("NDB_CACHE_DIR=%q wrote %v", setting, files)
		}
		if files, _ := filepath.Glob(filepath.Join(off, "*", "tracer-*")); len(files) != 0 {
			t.Errorf("NDB_CACHE_DIR=%q wrote %v", setting, files)
		}
	}
}
