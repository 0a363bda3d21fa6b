package adapter

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-dap"
)

// The adapters that the debugpy comparison drives with one wireClient: ndb served
// in-process over OS pipes (what `ndb dap` does on stdio, without the process),
// the `ndb dap` binary as a subprocess, and debugpy's adapter as a subprocess.

// debugpyPython is Debian's interpreter, the only one here that imports debugpy
// (Debian's python3-debugpy package).
const debugpyPython = "/usr/bin/python3.11"

var (
	debugpyOnce sync.Once
	debugpyErr  error
)

// needDebugpy skips the test or benchmark when debugpy cannot be imported.
func needDebugpy(t testing.TB) {
	t.Helper()
	debugpyOnce.Do(func() {
		out, err := exec.Command(debugpyPython, "-c", "import debugpy").CombinedOutput()
		if err != nil {
			debugpyErr = fmt.Errorf("%v: %s", err, bytes.TrimSpace(out))
		}
	})
	if debugpyErr != nil {
		t.Skipf("debugpy is not available (%s cannot import it: %v); install it with `apt-get install -y --no-install-recommends python3-debugpy`", debugpyPython, debugpyErr)
	}
}

// ndbBinary is the `ndb` binary to run as `ndb dap`: $NDB_BIN, else the
// repository's bin/ndb (make build). "" when there is none.
func ndbBinary() string {
	if p := os.Getenv("NDB_BIN"); p != "" {
		return p
	}
	p, err := filepath.Abs(filepath.Join("..", "bin", "ndb"))
	if err != nil {
		return ""
	}
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		return ""
	}
	return p
}

// dapTarget is one adapter and how to launch a program's entry call in it.
type dapTarget struct {
	name string
	// start opens a session: a connected client and a function that ends the
	// transport after the disconnect (closing stdin, reaping the process).
	start func(t testing.TB) (*wireClient, func())
	// launch is the launch request's arguments for a program and its entry call.
	launch func(t testing.TB, program, entry string) map[string]any
}

// ndbLaunch is ndb's launch in recorded mode, running to the breakpoint.
func ndbLaunch(t testing.TB, program, entry string) map[string]any {
	return map[string]any{"type": "ndb", "request": "launch", "name": "bench", "program": program, "entry": entry, "mode": "recorded", "stopOnEntry": false}
}

// ndbInProcess serves sessions from srv over a pair of OS pipes, as stdio.
func ndbInProcess(srv *Server) dapTarget {
	return dapTarget{
		name: "ndb",
		start: func(t testing.TB) (*wireClient, func()) {
			inR, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			outR, outW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				err := srv.ServeStdio(context.Background(), inR, outW)
				outW.Close()
				done <- err
			}()
			c := newWireClient(t, "ndb", outR, inW)
			return c, func() {
				inW.Close()
				select {
				case err := <-done:
					if err != nil {
						t.Errorf("ServeStdio: %v", err)
					}
				case <-time.After(wireTimeout):
					t.Error("the server did not end after its stdin closed")
				}
				inR.Close()
				outR.Close()
			}
		},
		launch: ndbLaunch,
	}
}

// subprocess starts an adapter that speaks DAP on its stdin and stdout.
func subprocess(t testing.TB, name string, argv ...string) (*wireClient, func()) {
	return subprocessEnv(t, name, nil, argv...)
}

// subprocessEnv is subprocess with env added to the adapter's environment.
func subprocessEnv(t testing.TB, name string, env []string, argv ...string) (*wireClient, func()) {
	cmd := exec.Command(argv[0], argv[1:]...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	c := newWireClient(t, name, stdout, stdin)
	return c, func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(wireTimeout):
			cmd.Process.Kill()
			<-done
			t.Errorf("%s did not exit after the session; stderr: %s", name, stderr.String())
		}
	}
}

func ndbSubprocess(bin string) dapTarget {
	return dapTarget{
		name: "ndb dap",
		start: func(t testing.TB) (*wireClient, func()) {
			return subprocessEnv(t, "ndb dap", samePython(), bin, "dap")
		},
		launch: ndbLaunch,
	}
}

// samePython makes the `ndb dap` subprocess trace with debugpy's interpreter, so
// that both debuggers start the same Python (unless NDB_PYTHON says otherwise): the
// python3 first on PATH can be a wrapper (a pyenv shim here costs 0.1-0.2 s a start)
// that debugpy's launch would not pay.
func samePython() []string {
	if os.Getenv("NDB_PYTHON") != "" {
		return nil
	}
	if _, err := os.Stat(debugpyPython); err != nil {
		return nil
	}
	return []string{"NDB_PYTHON=" + debugpyPython}
}

// debugpyTarget runs `python3.11 -m debugpy.adapter`, which launches the debuggee
// itself. debugpy debugs scripts, not calls, so the program runs under a wrapper
// script that loads the file as a module, takes its names and makes the entry call
// on a line of its own (so that stepping out of the entry function lands on it); the
// session stops at a breakpoint on the entry function's first line, as ndb's does.
func debugpyTarget() dapTarget {
	return dapTarget{
		name: "debugpy",
		start: func(t testing.TB) (*wireClient, func()) {
			return subprocess(t, "debugpy", debugpyPython, "-m", "debugpy.adapter")
		},
		launch: func(t testing.TB, program, entry string) map[string]any {
			dir := t.TempDir()
			wrapper := filepath.Join(dir, "ndb_entry.py")
			src := fmt.Sprintf(`import importlib.util

spec = importlib.util.spec_from_file_location("program", %q)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
globals().update(vars(module))
%s
`, program, entry)
			if err := os.WriteFile(wrapper, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			return map[string]any{
				"type": "python", "request": "launch", "name": "bench", "program": wrapper, "cwd": dir,
				"console": "internalConsole", "justMyCode": true, "stopOnEntry": false,
				"python": []string{debugpyPython},
			}
		},
	}
}

// stopAt is where a stop landed: the reason and the innermost frame.
type stopAt struct {
	reason string
	fn     string
	file   string
	line   int
	ret    bool // the stop has a "Return value" scope (ndb's return states)
}

func (s stopAt) String() string {
	if s.reason == "" {
		return "(the program ended)"
	}
	ret := ""
	if s.ret {
		ret = ", return"
	}
	return fmt.Sprintf("%s %s:%d (%s%s)", s.fn, s.file, s.line, s.reason, ret)
}

// sessionTimes are a session's phases as the client sees them.
type sessionTimes struct {
	launch time.Duration // start of the adapter (or connection) to the first stop
	stops  time.Duration // all steps: stepIn sent to the stopped event
	steps  time.Duration // all steps: stepIn sent to the refreshed view (stack, scopes, variables)
	total  time.Duration // start of the adapter (or connection) to the disconnect response
}

// dapSession is the session of the comparison: launch to a breakpoint on the entry
// function's first line, `steps` times stepIn (wait for stopped, then stackTrace,
// scopes and the Locals' variables, as an editor refreshes its view), then
// disconnect. It returns the timings and where each stop landed (the first stop
// first). probe, when not nil, runs after the steps, before the disconnect, with
// the client and the thread.
func dapSession(t testing.TB, a dapTarget, name string, steps int, probe func(c *wireClient, thread int)) (sessionTimes, []stopAt) {
	t.Helper()
	fn, _, _ := strings.Cut(entry(t, name), "(")
	return dapSessionAt(t, a, name, fn, steps, probe)
}

// dapSessionAt is dapSession with the breakpoint on the first line of function bpFn.
func dapSessionAt(t testing.TB, a dapTarget, name, bpFn string, steps int, probe func(c *wireClient, thread int)) (sessionTimes, []stopAt) {
	t.Helper()
	prog := program(t, name)
	call := entry(t, name)
	bpLine := firstBodyLine(t, prog, bpFn)
	args := a.launch(t, prog, call) // the wrapper is written before the clock starts

	var times sessionTimes
	var path []stopAt
	t0 := time.Now()
	c, end := a.start(t)
	c.Call("initialize", map[string]any{"clientID": "ndb-bench", "adapterID": a.name, "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}, nil)
	launch := c.Send("launch", args)
	c.Event("initialized", nil)
	var bps struct{ Breakpoints []dap.Breakpoint }
	c.Call("setBreakpoints", map[string]any{"source": map[string]any{"path": prog}, "breakpoints": []map[string]any{{"line": bpLine}}}, &bps)
	if len(bps.Breakpoints) != 1 || !bps.Breakpoints[0].Verified {
		t.Fatalf("%s: the breakpoint on line %d is not verified: %+v", a.name, bpLine, bps.Breakpoints)
	}
	c.Call("setExceptionBreakpoints", map[string]any{"filters": []string{}}, nil)
	c.Call("configurationDone", nil, nil)
	c.Response(launch, nil) // ndb answers launch before initialized; debugpy after configurationDone
	first, ok := c.StoppedOrEnd()
	if !ok {
		t.Fatalf("%s: the program ended before the breakpoint on line %d", a.name, bpLine)
	}
	thread := first.ThreadId
	path = append(path, view(t, c, first, thread))
	times.launch = time.Since(t0)

	for range steps {
		s0 := time.Now()
		c.Call("stepIn", map[string]any{"threadId": thread}, nil)
		st, ok := c.StoppedOrEnd()
		times.stops += time.Since(s0)
		if !ok {
			t.Fatalf("%s: the program ended after %d steps; path: %v", a.name, len(path)-1, path)
		}
		path = append(path, view(t, c, st, thread))
		times.steps += time.Since(s0)
	}
	if probe != nil {
		probe(c, thread)
	}
	c.Call("disconnect", map[string]any{"terminateDebuggee": true}, nil)
	times.total = time.Since(t0)
	end()
	return times, path
}

// view refreshes the view at a stop as an editor does (stackTrace, scopes, the
// Locals' variables) and returns where the stop landed.
func view(t testing.TB, c *wireClient, st dap.StoppedEventBody, thread int) stopAt {
	t.Helper()
	var stack struct{ StackFrames []dap.StackFrame }
	c.Call("stackTrace", map[string]any{"threadId": thread, "startFrame": 0, "levels": 20}, &stack)
	if len(stack.StackFrames) == 0 {
		t.Fatalf("%s: an empty stack at a stop: %+v", c.Name(), st)
	}
	top := stack.StackFrames[0]
	var scopes struct{ Scopes []dap.Scope }
	c.Call("scopes", map[string]any{"frameId": top.Id}, &scopes)
	ref, ret := 0, false
	for _, s := range scopes.Scopes {
		switch s.Name {
		case "Locals":
			ref = s.VariablesReference
		case "Return value":
			ret = true
		}
	}
	if ref == 0 {
		t.Fatalf("%s: no Locals scope in %+v", c.Name(), scopes.Scopes)
	}
	c.Call("variables", map[string]any{"variablesReference": ref}, nil)
	file := ""
	if top.Source != nil {
		file = filepath.Base(top.Source.Path)
	}
	return stopAt{reason: st.Reason, fn: top.Name, file: file, line: top.Line, ret: ret}
}

// firstBodyLine is the line of the first statement of function fn in a program:
// the line after its `def` (enough for the test programs).
func firstBodyLine(t testing.TB, path, fn string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "def "+fn+"(") {
			for j := i + 1; j < len(lines); j++ {
				if s := strings.TrimSpace(lines[j]); s != "" && !strings.HasPrefix(s, "#") {
					return j + 1
				}
			}
		}
	}
	t.Fatalf("no function %s in %s", fn, path)
	return 0
}
