package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestBarShowsCountRateAndETA(t *testing.T) {
	var out bytes.Buffer
	b := New(&out, "gen", 100, "programs")
	clock := b.start
	b.now = func() time.Time { return clock }
	clock = clock.Add(10 * time.Second)
	b.Add(25)
	line := b.Line()
	for _, want := range []string{"gen [======", "25/100 programs", "2.5/s", "ETA 0m30s"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	b.SetExtra(func() string { return "tokens=7" })
	b.Done()
	if !strings.Contains(out.String(), "tokens=7") || !strings.HasSuffix(out.String(), "\n") {
		t.Errorf("final draw %q", out.String())
	}
}
