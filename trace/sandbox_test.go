//go:build linux

package trace_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/ndb-project/ndb/trace"
)

// The sandbox (docs/sandbox.md): every program runs in a fresh process, so what it
// changes or leaves behind never reaches the next program. Each test poisons the
// only worker of a pool and then runs a clean program on it.

// tpClean is the clean program every poisoning test runs afterwards: it reads the
// builtins and sys attributes the poisons replace.
const tpClean = `import sys

def f():
    r = abs(-3)
    n = len("ab")
    secret = getattr(sys, "ndb_secret", "none")
    return r, n, secret
`

// tpCheckClean traces tpClean on p and fails unless it saw pristine state and no
// process is left below the test's workers.
func tpCheckClean(t *testing.T, p *trace.Pool) {
	t.Helper()
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: tpClean, Entry: "f()", Limits: trace.Limits{WallSecs: 20}})
	if err != nil {
		t.Fatalf("clean program after the poison: %v", err)
	}
	if res.Status != trace.StatusNormal || tpLast(res).Arg != "(3, 2, 'none')" {
		t.Errorf("clean program after the poison: %s %q, returned %q; want (3, 2, 'none')",
			res.Status, res.Exception, tpLast(res).Arg)
	}
	// A spare the worker has just forked renames itself "ndb-spare" at once; a
	// process a run left behind never goes away by itself.
	strays := tpStrays(t)
	for i := 0; len(strays) > 0 && i < 100; i++ {
		time.Sleep(50 * time.Millisecond)
		strays = tpStrays(t)
	}
	if len(strays) > 0 {
		t.Errorf("processes left below the workers: %s", strings.Join(strays, "; "))
	}
}

// tpStrays lists the processes two or more levels below this test process: below
// the workers (its children), where only a request in flight may have a process,
// besides the one spare child each worker keeps ready for its next request.
func tpStrays(t *testing.T) []string {
	t.Helper()
	parent := map[int]int{}
	names, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range names {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 {
			parent[pid], _ = strconv.Atoi(fields[1])
		}
	}
	me := os.Getpid()
	var out []string
	spares := map[int]int{}
	for pid := range parent {
		depth := 0
		for q := pid; q > 1 && depth < 64; q = parent[q] {
			if q == me {
				comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
				if depth == 2 && strings.TrimSpace(string(comm)) == "ndb-spare" {
					if spares[parent[pid]]++; spares[parent[pid]] == 1 {
						break
					}
				}
				if depth >= 2 {
					cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
					out = append(out, fmt.Sprintf("pid %d at depth %d: %q", pid, depth, strings.ReplaceAll(string(cmd), "\x00", " ")))
				}
				break
			}
			depth++
		}
	}
	return out
}

// tpGone fails unless no process has the pid written in file.
func tpGone(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the program did not write its pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("pid file: %q", data)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		t.Errorf("process %d outlived its run: %s", pid, stat)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func TestSandboxPoisonsDoNotReachTheNextProgram(t *testing.T) {
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	poisons := []struct {
		name   string
		source string
		entry  string
		after  func(t *testing.T)
	}{
		{name: "builtins", source: "import builtins\nbuiltins.abs = lambda x: -999\nbuiltins.len = lambda x: 0\n"},
		{name: "sys attribute", source: "import sys\nsys.ndb_secret = 's3cret'\n"},
		{name: "compile hook", source: fmt.Sprintf(`import builtins, sys
seen = open(%q, "a")
def hook(event, args):
    if event == "compile":
        seen.write(repr(args[0])[:80] + "\n")
        seen.flush()
sys.addaudithook(hook)
real = builtins.compile
def spy(src, *a, **k):
    seen.write("spy " + repr(src)[:80] + "\n")
    seen.flush()
    return real(src, *a, **k)
builtins.compile = spy
`, file("compiled")), after: func(t *testing.T) {
			data, _ := os.ReadFile(file("compiled"))
			if strings.Contains(string(data), "ndb_secret") {
				t.Errorf("a compile hook captured a later program:\n%s", data)
			}
		}},
		{name: "daemon thread", source: fmt.Sprintf(`import threading, time
def scribble():
    while True:
        with open(%q, "a") as f:
            f.write("x")
        time.sleep(0.005)
threading.Thread(target=scribble, daemon=True).start()
time.sleep(0.05)
`, file("scribbled")), after: func(t *testing.T) {
			before, _ := os.Stat(file("scribbled"))
			time.Sleep(300 * time.Millisecond)
			after, _ := os.Stat(file("scribbled"))
			if before == nil || after == nil || after.Size() != before.Size() {
				t.Errorf("the daemon thread kept writing after its program ended")
			}
		}},
		{name: "fork", source: fmt.Sprintf(`import os, time
def f():
    pid = os.fork()
    if pid == 0:
        side = "child"
        with open(%q, "w") as out:
            out.write(str(os.getpid()))
        time.sleep(300)
    else:
        side = "parent"
        while not os.path.exists(%q):
            time.sleep(0.01)
    return side
`, file("forked"), file("forked")), entry: "f()", after: func(t *testing.T) { tpGone(t, file("forked")) }},
		{name: "escaping subprocess", source: fmt.Sprintf(`import subprocess
p = subprocess.Popen(["sleep", "300"], start_new_session=True)
with open(%q, "w") as out:
    out.write(str(p.pid))
`, file("popen")), after: func(t *testing.T) { tpGone(t, file("popen")) }},
		{name: "double-fork daemon", source: fmt.Sprintf(`import os, time
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        with open(%q, "w") as out:
            out.write(str(os.getpid()))
        time.sleep(300)
    os._exit(0)
os.waitpid(pid, 0)
while not os.path.exists(%q):
    time.sleep(0.01)
`, file("daemon"), file("daemon")), after: func(t *testing.T) { tpGone(t, file("daemon")) }},
	}
	p := tpNew(t, trace.PoolOptions{Workers: 1, Grace: 30 * time.Second})
	for _, poison := range poisons {
		t.Run(poison.name, func(t *testing.T) {
			res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: poison.source, Entry: poison.entry, Limits: trace.Limits{WallSecs: 20}})
			if err != nil || res.Status != trace.StatusNormal {
				t.Fatalf("poison: %s %q %v\n%s", res.Status, res.Exception, err, res.Output)
			}
			if poison.name == "fork" && tpLast(res).Arg != "'parent'" {
				t.Errorf("the recording did not follow the parent: returned %q", tpLast(res).Arg)
			}
			// Neural mode parses in the pool too: the parse must not meet the poison.
			if _, err := p.Parse(tpCtx(t), trace.ParseRequest{Source: tpClean}); err != nil {
				t.Fatalf("parse after the poison: %v", err)
			}
			tpCheckClean(t, p)
			if poison.after != nil {
				poison.after(t)
			}
		})
	}
	if p.Restarts() != 0 {
		t.Errorf("Restarts = %d: a poison took the worker down", p.Restarts())
	}
}

// A program that disables SIGALRM cannot outlive its limit: the worker kills its
// process (well before the pool's 30 s grace) and serves on.
func TestSandboxIgnoredAlarmIsKilledAtTheLimit(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1, Grace: 30 * time.Second})
	src := "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nsignal.setitimer(signal.ITIMER_REAL, 0)\n" + tpBusy
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: src, Limits: trace.Limits{WallSecs: 0.5}})
	if !errors.Is(err, trace.ErrWorkerTimeout) {
		t.Fatalf("err = %v, want ErrWorkerTimeout", err)
	}
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) {
		t.Errorf("the pool's deadline stopped it, not the worker: %v", err)
	}
	if res.Status != trace.StatusNever || res.Exception != "time limit" {
		t.Errorf("result = %s %q, want never, time limit", res.Status, res.Exception)
	}
	tpCheckClean(t, p)
	if p.Restarts() != 0 {
		t.Errorf("Restarts = %d, want 0", p.Restarts())
	}
}

// Each run has a private, empty working directory, stdin from /dev/null and
// finite CPU, process and file-size limits.
func TestSandboxRunEnvironment(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	src := `import os, resource
def f():
    cwd = os.getcwd()
    files = sorted(os.listdir("."))
    with open("left-behind", "w") as out:
        out.write("x")
    stdin = os.read(0, 10)
    cpu = resource.getrlimit(resource.RLIMIT_CPU)[0] != resource.RLIM_INFINITY
    nproc = resource.getrlimit(resource.RLIMIT_NPROC)[0] != resource.RLIM_INFINITY
    fsize = resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY
    return cwd, files, stdin, cpu, nproc, fsize
`
	var cwds []string
	for range 2 {
		res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: src, Entry: "f()", Limits: trace.Limits{WallSecs: 20}})
		if err != nil || res.Status != trace.StatusNormal {
			t.Fatalf("%s %q %v", res.Status, res.Exception, err)
		}
		ret := tpLast(res).Arg
		if !strings.HasSuffix(ret, ", [], b'', True, True, True)") {
			t.Errorf("run environment: %s; want an empty directory, empty stdin, finite limits", ret)
		}
		cwd := strings.SplitN(ret, ",", 2)[0]
		cwds = append(cwds, cwd)
		if dir := strings.Trim(cwd, "('"); dir != "" {
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("the run's directory %s outlived it", dir)
			}
		}
	}
	if cwds[0] == cwds[1] {
		t.Errorf("two runs shared the working directory %s", cwds[0])
	}
}

// Where the kernel allows a user and network namespace, a program cannot connect
// out, not even to this machine.
func TestSandboxNoNetwork(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	if !p.Sandbox().NetNS {
		t.Skip("no unprivileged network namespace here (docs/sandbox.md)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	src := fmt.Sprintf(`import socket
def f():
    try:
        socket.create_connection(("127.0.0.1", %d), timeout=5).close()
        return "connected"
    except OSError as e:
        return type(e).__name__
`, ln.Addr().(*net.TCPAddr).Port)
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: src, Entry: "f()", Limits: trace.Limits{WallSecs: 20}})
	if err != nil || res.Status != trace.StatusNormal {
		t.Fatalf("%s %q %v", res.Status, res.Exception, err)
	}
	if got := tpLast(res).Arg; got == "'connected'" {
		t.Errorf("a traced program reached a listener on the host")
	}
}

// What a run leaves in its directory goes with it: nested directories, one it made
// unreadable, a read-only file; a link out of the directory is removed, not
// followed.
func TestSandboxRunDirectoryRemoved(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	outside := t.TempDir()
	keep := filepath.Join(outside, "keep")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf(`import os
def f():
    os.makedirs("a/b/c")
    with open("a/b/c/file", "w") as out:
        out.write("x")
    os.makedirs("locked/inner")
    with open("locked/inner/f", "w") as out:
        out.write("y")
    os.chmod("locked/inner", 0)
    os.chmod("locked", 0)
    with open("ro", "w") as out:
        out.write("z")
    os.chmod("ro", 0o400)
    os.symlink(%q, "out")
    os.symlink(%q, "a/out-file")
    cwd = os.getcwd()
    os.chmod(cwd, 0)
    return cwd
`, outside, keep)
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: src, Entry: "f()", Limits: trace.Limits{WallSecs: 20}})
	if err != nil || res.Status != trace.StatusNormal {
		t.Fatalf("%s %q %v", res.Status, res.Exception, err)
	}
	dir := strings.Trim(tpLast(res).Arg, "'")
	if !strings.Contains(dir, "ndb-run-") {
		t.Fatalf("the run's directory is %q", dir)
	}
	// The zygote removes the directory before it answers.
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run's directory %s outlived it: %v", dir, err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "mine" {
		t.Errorf("a file the run linked to, outside its directory: %q, %v; want it untouched", b, err)
	}
}

// A run cannot read or write the zygote's memory (which would reach every later
// run of the worker): with a user namespace of its own it has none of the
// capabilities the zygote holds, so the kernel refuses it /proc/PID/mem.
func TestSandboxRunCannotOpenTheZygotesMemory(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	if !p.Sandbox().NetNS {
		t.Skip("no unprivileged user namespace here (docs/sandbox.md)")
	}
	src := `import os
def f():
    try:
        open("/proc/%d/mem" % os.getppid(), "r+b").close()
        return "opened"
    except OSError as e:
        return type(e).__name__
`
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: src, Entry: "f()", Limits: trace.Limits{WallSecs: 20}})
	if err != nil || res.Status != trace.StatusNormal {
		t.Fatalf("%s %q %v", res.Status, res.Exception, err)
	}
	if got := tpLast(res).Arg; got != "'PermissionError'" {
		t.Errorf("a run opening the zygote's memory: %s; want PermissionError", got)
	}
}
