// Package progress draws a one-line progress bar with counters, rate and ETA on a
// terminal (stderr), for long jobs such as corpus generation and training.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Bar is a progress bar over a known total. It redraws at most every Interval, and is
// safe for concurrent use.
type Bar struct {
	mu       sync.Mutex
	w        io.Writer
	label    string
	unit     string
	total    int64
	done     int64
	start    time.Time
	last     time.Time
	interval time.Duration
	extra    func() string
	now      func() time.Time
}

// New returns a bar that counts up to total units (e.g. "programs"), drawn on w.
func New(w io.Writer, label string, total int64, unit string) *Bar {
	b := &Bar{w: w, label: label, unit: unit, total: total, interval: 250 * time.Millisecond, now: time.Now}
	b.start = b.now()
	return b
}

// SetExtra sets a function whose text is appended to the line (e.g. other counters).
func (b *Bar) SetExtra(f func() string) {
	b.mu.Lock()
	b.extra = f
	b.mu.Unlock()
}

// Add counts n more units done and redraws if it is time.
func (b *Bar) Add(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done += n
	if t := b.now(); t.Sub(b.last) >= b.interval || b.done >= b.total {
		b.last = t
		b.draw(t)
	}
}

// Done draws the final line and ends it.
func (b *Bar) Done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.draw(b.now())
	fmt.Fprintln(b.w)
}

// Line renders the bar as text without drawing it.
func (b *Bar) Line() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.line(b.now())
}

func (b *Bar) draw(t time.Time) { fmt.Fprintf(b.w, "\r%s\x1b[K", b.line(t)) }

func (b *Bar) line(t time.Time) string {
	const width = 24
	frac := 0.0
	if b.total > 0 {
		frac = min(float64(b.done)/float64(b.total), 1)
	}
	filled := int(frac * width)
	elapsed := t.Sub(b.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(b.done) / elapsed
	}
	eta := "?"
	if rate > 0 && b.total > 0 {
		eta = fmtDuration(time.Duration(float64(b.total-b.done) / rate * float64(time.Second)))
	}
	s := fmt.Sprintf("%s [%s%s] %d/%d %s %.1f/s ETA %s", b.label, strings.Repeat("=", filled), strings.Repeat(" ", width-filled),
		b.done, b.total, b.unit, rate, eta)
	if b.extra != nil {
		s += " " + b.extra()
	}
	return s
}

func fmtDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%dh%02dm", h, m)
	}
	return fmt.Sprintf("%dm%02ds", m, s)
}
