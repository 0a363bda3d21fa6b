package trace

import "errors"

// Errors of the worker pool. They are wrapped with context (method, worker pid,
// exit status); test them with errors.Is.
var (
	// ErrWorkerDied means the Python worker exited or broke its pipe while it
	// served the request (os._exit, a crash, the memory limit). It was replaced.
	ErrWorkerDied = errors.New("python worker died")
	// ErrWorkerTimeout means the worker did not answer within the request's
	// wall-clock limit plus the pool's grace (e.g. a long call into C code that
	// the alarm cannot interrupt). It was killed and replaced.
	ErrWorkerTimeout = errors.New("python worker did not answer in time")
	// ErrPoolClosed is returned by requests made on, or cut off by, a closed pool.
	ErrPoolClosed = errors.New("trace pool is closed")
	// ErrNoPython means no usable Python interpreter was found.
	ErrNoPython = errors.New("no usable python interpreter")
)
