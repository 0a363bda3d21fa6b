package trace

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"
)

// TraceOnce traces one request in a fresh Python process that ends with it: no
// pool, nothing kept. python is a resolved interpreter path or a command on
// PATH (empty: DefaultPython()). It is the baseline the pool is measured
// against and suits one-shot command-line use.
func TraceOnce(ctx context.Context, python string, req TraceRequest) (TraceResult, error) {
	if python == "" {
		python = DefaultPython()
	}
	req.Limits = req.Limits.WithDefaults()
	w, err := startWorker(ctx, workerConfig{python: python, memoryMiB: req.Limits.MemoryMiB, log: zerolog.Nop()})
	if err != nil {
		return TraceResult{}, fmt.Errorf("trace: once: %w", err)
	}
	defer w.close(time.Second)
	var res TraceResult
	err = w.call(ctx, "trace", req, &res, req.Limits.wall()+DefaultGrace)
	if errors.Is(err, ErrWorkerTimeout) {
		return TraceResult{Status: StatusNever, Exception: "time limit"}, err
	}
	return res, err
}
