package trace

import (
	"bytes"
	"sync"

	"github.com/rs/zerolog"
)

// maxLogLines bounds how many lines of one worker stream are logged, so a
// program that floods its real stdout (os.write(1, ...)) cannot flood the log.
const maxLogLines = 1000

// maxLogLine bounds one logged line.
const maxLogLine = 4096

// logWriter turns a worker's raw stdout or stderr into log lines. It is written
// by one goroutine (the os/exec copier) and flushed once that one has finished;
// its logger is set once more (setLog) while the copier may be writing.
type logWriter struct {
	mu     sync.Mutex // guards log
	log    zerolog.Logger
	level  zerolog.Level
	stream string
	buf    []byte
	lines  int
}

func newLogWriter(log zerolog.Logger, level zerolog.Level, stream string) *logWriter {
	return &logWriter{log: log, level: level, stream: stream}
}

// setLog replaces the logger (the worker's, with its pid, once it has started).
func (w *logWriter) setLog(l zerolog.Logger) {
	w.mu.Lock()
	w.log = l
	w.mu.Unlock()
}

func (w *logWriter) logger() zerolog.Logger {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.log
}

// Write implements io.Writer.
func (w *logWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.buf = append(w.buf, p...)
			if len(w.buf) > maxLogLine {
				w.emit()
			}
			break
		}
		w.buf = append(w.buf, p[:i]...)
		w.emit()
		p = p[i+1:]
	}
	return n, nil
}

// flush logs a last line that had no newline.
func (w *logWriter) flush() {
	if len(w.buf) > 0 {
		w.emit()
	}
}

func (w *logWriter) emit() {
	line := w.buf
	w.buf = w.buf[:0]
	w.lines++
	switch {
	case w.lines < maxLogLines:
	case w.lines == maxLogLines:
		log := w.logger()
		log.WithLevel(w.level).Str("stream", w.stream).Msg("further output of this worker is not logged")
		return
	default:
		return
	}
	if len(line) > maxLogLine {
		line = append(line[:maxLogLine:maxLogLine], "..."...)
	}
	log := w.logger()
	log.WithLevel(w.level).Str("stream", w.stream).Msg(string(bytes.TrimRight(line, "\r")))
}
