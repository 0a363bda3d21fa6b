package trace

import "errors"

// Errors of the worker pool. They are wrapped with context (method, worker pid,
// exit status); test them with errors.Is.
var (
	// ErrWorkerDied means the process that served the request died without an
	// answer: usually the program's own process (os._exit, a crash, the memory
	// limit; the worker forked it for this request and serves on, see
	// docs/sandbox.md), rarely the worker itself (it was replaced).
	ErrWorkerDied = errors.New("python worker died")
	// ErrWorkerTimeout means the program ran past its wall-clock limit in a way
	// the tracer's alarm could not stop (a long call into C code, SIGALRM
	// ignored): the worker killed the program's process at the limit plus its
	// kill grace and serves on; or, as a last resort, the worker itself did not
	// answer within the limit plus the pool's grace and was killed and replaced.
	ErrWorkerTimeout = errors.New("python worker did not answer in time")
	// ErrPoolClosed is returned by requests made on, or cut off by, a closed pool.
	ErrPoolClosed = errors.New("trace pool is closed")
	// ErrNoPython means no usable Python interpreter was found.
	ErrNoPython = errors.New("no usable python interpreter")
)
