package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/sourcegraph/jsonrpc2"
)

// workerConfig is how to start one Python worker.
type workerConfig struct {
	python    string // resolved interpreter path
	memoryMiB int    // address-space limit of the worker process
	// killGrace is how long past a request's wall-clock limit the worker waits
	// before it kills the request's process (default one second).
	killGrace time.Duration
	hashSeed  string // PoolOptions.HashSeed
	log       zerolog.Logger
}

// Codes of the errors the worker answers when a request's process (the sandbox's
// child, trace/tracer.py) failed rather than the request: the worker itself is
// fine and serves the next request.
const (
	codeRunTimeout = -32001 // ran past its limit plus the kill grace: killed
	codeRunDied    = -32002 // ended without an answer (os._exit, a crash, memory)
	codeRunGarbled = -32003 // its answer was not one JSON object
)

// worker is one persistent Python tracer process (a zygote: it forks a fresh
// child for every request, see docs/sandbox.md) and its JSON-RPC connection. It
// serves one request at a time; the pool guarantees that.
type worker struct {
	pid    int
	cmd    *exec.Cmd
	conn   *jsonrpc2.Conn
	log    zerolog.Logger
	exited chan struct{} // closed once the process has been reaped
	status string        // how the process ended; valid after exited is closed
	info   pingResult    // the worker's first ping: its interpreter and sandbox

	killOnce sync.Once
}

// startWorker starts a worker process. ctx bounds the start only; the worker
// lives until kill or close.
func startWorker(ctx context.Context, cfg workerConfig) (*worker, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Requests go Go -> child fd 3, responses child fd 4 -> Go. The program's
	// stdout and stderr (fds 1 and 2) are never read as protocol.
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("trace: worker pipe: %w", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("trace: worker pipe: %w", err)
	}
	killGrace := cfg.killGrace
	if killGrace <= 0 {
		killGrace = time.Second
	}
	args := append(append([]string(nil), interpreterArgs(cfg.hashSeed)...), "--memory-mib", strconv.Itoa(cfg.memoryMiB),
		"--kill-grace", strconv.FormatFloat(killGrace.Seconds(), 'f', 3, 64))
	if prefix := codeCachePrefix(); prefix != "" {
		args = append(args, "--code-cache", prefix)
	}
	cmd := exec.Command(cfg.python, args...)
	cmd.Env = workerEnv(os.Environ(), cfg.hashSeed)
	cmd.Stdin = strings.NewReader(tracerSource)
	stdout := newLogWriter(cfg.log, zerolog.InfoLevel, "stdout")
	stderr := newLogWriter(cfg.log, zerolog.WarnLevel, "stderr")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.ExtraFiles = []*os.File{reqR, respW}
	cmd.WaitDelay = time.Second // do not wait forever on grandchildren holding fd 1/2
	cmd.Dir = os.TempDir()
	isolate(cmd)
	if err := startProcess(cmd); err != nil {
		for _, f := range []*os.File{reqR, reqW, respR, respW} {
			f.Close()
		}
		return nil, fmt.Errorf("trace: start %s: %w", cfg.python, err)
	}
	reqR.Close()
	respW.Close()

	w := &worker{
		pid:    cmd.Process.Pid,
		cmd:    cmd,
		log:    cfg.log.With().Int("worker_pid", cmd.Process.Pid).Logger(),
		exited: make(chan struct{}),
	}
	stdout.setLog(w.log)
	stderr.setLog(w.log)
	go func() {
		err := cmd.Wait()
		stdout.flush()
		stderr.flush()
		if err != nil {
			w.status = err.Error()
		} else {
			w.status = "exit status 0"
		}
		close(w.exited)
	}()
	stream := jsonrpc2.NewPlainObjectStream(pipeConn{r: respR, w: reqW})
	w.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(refuseCalls))

	// The first answer proves the tracer is up; it also bounds the start.
	var info pingResult
	if err := w.call(ctx, "ping", struct{}{}, &info, 30*time.Second); err != nil {
		w.kill()
		return nil, fmt.Errorf("trace: worker did not start: %w", err)
	}
	w.info = info
	w.log.Debug().Str("python", info.Version).Bool("subreaper", info.Sandbox.Subreaper).
		Bool("netns", info.Sandbox.NetNS).Msg("trace worker started")
	return w, nil
}

// pingResult is the answer to the ping method.
type pingResult struct {
	Version    string  `json:"version"`
	Executable string  `json:"executable"`
	PID        int     `json:"pid"`
	Sandbox    Sandbox `json:"sandbox"`
}

// Sandbox says what the worker could set up for the process of every request
// beyond what it always does (a fresh forked process in its own session, resource
// limits, a private working directory; docs/sandbox.md).
type Sandbox struct {
	// Subreaper: the worker is a child subreaper, so that daemonised descendants
	// of a run are found and killed.
	Subreaper bool `json:"subreaper"`
	// NetNS: runs get a user and a network namespace of their own (no network,
	// no capability outside the namespace).
	NetNS bool `json:"netns"`
}

// refuseCalls answers requests from the worker, which never sends any.
func refuseCalls(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) {
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "the Go side serves no methods"}
}

// pipeConn joins the two pipes of a worker into one stream.
type pipeConn struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p pipeConn) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeConn) Write(b []byte) (int, error) { return p.w.Write(b) }

func (p pipeConn) Close() error {
	werr := p.w.Close()
	rerr := p.r.Close()
	if werr != nil {
		return werr
	}
	return rerr
}

// call sends one request and waits at most `hard` for the answer. An error
// that wraps a *jsonrpc2.Error is the worker's own report (the worker is fine:
// it wraps ErrWorkerTimeout or ErrWorkerDied when the request's process was
// killed or died). Any other error means the worker is gone or no longer
// trustworthy: it has been killed, and the error wraps ErrWorkerDied,
// ErrWorkerTimeout or the caller's context error.
func (w *worker) call(ctx context.Context, method string, params, result any, hard time.Duration) error {
	hctx, cancel := context.WithTimeout(ctx, hard)
	defer cancel()
	err := w.conn.Call(hctx, method, params, result)
	if err == nil {
		return nil
	}
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		switch rpcErr.Code {
		case codeRunTimeout:
			return fmt.Errorf("trace: %s request: %w (worker %d: %w)", method, ErrWorkerTimeout, w.pid, err)
		case codeRunDied, codeRunGarbled:
			return fmt.Errorf("trace: %s request: %w (worker %d: %w)", method, ErrWorkerDied, w.pid, err)
		}
		return fmt.Errorf("trace: %s request: worker %d reported: %w", method, w.pid, err)
	}
	if !w.alive() {
		return w.died(method)
	}
	switch {
	case ctx.Err() != nil:
		w.kill()
		return fmt.Errorf("trace: %s request: abandoned, worker %d killed: %w", method, w.pid, ctx.Err())
	case hctx.Err() != nil:
		w.kill()
		return fmt.Errorf("trace: %s request: %w (no answer within %s; worker %d killed)", method, ErrWorkerTimeout, hard, w.pid)
	}
	// The connection broke: usually the process is exiting right now.
	select {
	case <-w.exited:
	case <-time.After(2 * time.Second):
		w.kill()
		return fmt.Errorf("trace: %s request: %w (connection lost: %v; worker %d killed)", method, ErrWorkerDied, err, w.pid)
	}
	return w.died(method)
}

// died waits for the dead process and describes how it ended.
func (w *worker) died(method string) error {
	<-w.exited
	return fmt.Errorf("trace: %s request: %w (worker %d: %s)", method, ErrWorkerDied, w.pid, w.status)
}

// alive reports whether the process has not been reaped yet.
func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// kill ends the worker (with anything it started) and waits for it: a
// SIGTERM first, on which the worker kills its request's process and whatever
// that left behind, and after a second SIGKILL to its process group.
func (w *worker) kill() {
	w.killOnce.Do(func() {
		if w.alive() {
			terminate(w.cmd)
			select {
			case <-w.exited:
			case <-time.After(time.Second):
			}
		}
		if w.alive() {
			killTree(w.cmd)
		}
		<-w.exited
		// Closed only once the reader has drained the pipe (it ends at EOF now
		// that the process is gone), so that an answer already written is
		// taken by its call rather than reported as unexpected by jsonrpc2.
		select {
		case <-w.conn.DisconnectNotify():
		case <-time.After(time.Second):
		}
		w.conn.Close()
	})
	<-w.exited
}

// close ends the worker politely: its request pipe closes, the tracer's loop
// ends and Python exits; after `grace` it is killed.
func (w *worker) close(grace time.Duration) {
	w.conn.Close()
	select {
	case <-w.exited:
	case <-time.After(grace):
	}
	w.kill()
}
