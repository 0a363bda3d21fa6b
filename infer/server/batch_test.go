package server

import (
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
)

// playAll plays actions on every session at the same time, one goroutine each.
func playAll(t *testing.T, ss []*session.Session) [][]string {
	got := make([][]string, len(ss))
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = play(t, s, actions)
		}()
	}
	wg.Wait()
	return got
}

// Four sessions acting at the same time on one server share its forward passes and
// get exactly the states each gets alone in process (greedy).
func TestFourConcurrentSessionsMatchAlone(t *testing.T) {
	var want [][]string
	for _, e := range entries {
		s := open(t, neural.Open, "", e)
		want = append(want, play(t, s, actions))
		s.Close()
	}
	addr, srv := listenWith(t, Options{Log: zerolog.Nop(), MaxSessions: 4})
	var ss []*session.Session
	for _, e := range entries {
		s := open(t, modelserver.Default.Open, addr, e)
		defer s.Close()
		ss = append(ss, s)
	}
	got := playAll(t, ss)
	for i := range entries {
		equal(t, "session "+entries[i]+" beside three others", got[i], want[i])
	}
	st := srv.CacheStats()
	t.Logf("%+v", st)
	if st.Batches == 0 {
		t.Errorf("four sessions acting at once never shared a forward pass: %+v", st)
	}
}

// A server whose caches hold two of three sessions (a total bound of 2 MB; these
// sessions' caches stay within 128 positions, 1 MB each) frees the idle sessions' caches, and the sessions still get the states they get alone: their
// prompts run again from the first token.
func TestEvictedSessionsGetTheSameStates(t *testing.T) {
	var want [][]string
	for _, e := range entries[:3] {
		s := open(t, neural.Open, "", e)
		want = append(want, play(t, s, actions))
		s.Close()
	}
	addr, srv := listenWith(t, Options{Log: zerolog.Nop(), MaxSessions: 3, MaxCacheTotalMB: 2})
	var ss []*session.Session
	for _, e := range entries[:3] {
		s := open(t, modelserver.Default.Open, addr, e)
		defer s.Close()
		ss = append(ss, s)
	}
	got := make([][]string, len(ss))
	for i := range actions { // in turn: the next session's cache is the oldest
		for j, s := range ss {
			got[j] = append(got[j], play(t, s, actions[i:i+1])...)
		}
	}
	for j := range ss {
		equal(t, "session "+entries[j]+" evicted between its actions", got[j], want[j])
	}
	st := srv.CacheStats()
	t.Logf("%+v", st)
	if st.Evictions == 0 || st.CacheBytes > 2<<20 {
		t.Errorf("2 MB for three sessions: %+v", st)
	}
}

// A prediction past the per-session cache limit is refused with an error naming the
// limit; the session stays usable, and the server keeps serving the others.
func TestCacheLimitRefusesAndKeepsServing(t *testing.T) {
	addr, _ := listenWith(t, Options{Log: zerolog.Nop(), MaxSessions: 3, MaxCacheMB: 1})
	small := open(t, modelserver.Default.Open, addr, entries[3])
	defer small.Close()
	big := openFile(t, modelserver.Default.Open, addr, "classes.py", "run_account([50, -20, -100])", false)
	defer big.Close()
	got := play(t, big, actions[:1])
	if !strings.Contains(got[0], "the model server's cache limit of 1 MB per session") {
		t.Fatalf("a prompt longer than the limit: %s", got[0])
	}
	t.Log(got[0])
	for _, line := range play(t, small, actions) {
		if strings.Contains(line, "limit") || strings.Contains(line, "model server") {
			t.Errorf("a session within the limit: %s", line)
		}
	}
	if again := play(t, big, actions[:1]); again[0] != got[0] {
		t.Errorf("the refused session again: %s", again[0])
	}
}

// A prediction whose cache would not fit the total bound even with every idle cache
// freed is refused with an error naming that bound; the server keeps serving.
func TestTotalCacheLimitRefusesAndKeepsServing(t *testing.T) {
	addr, srv := listenWith(t, Options{Log: zerolog.Nop(), MaxSessions: 3, MaxCacheTotalMB: 1})
	big := openFile(t, modelserver.Default.Open, addr, "classes.py", "run_account([50, -20, -100])", false)
	defer big.Close()
	got := play(t, big, actions[:1])
	if !strings.Contains(got[0], "the model server's cache limit for all sessions (--max-cache-total-mb 1) is reached") {
		t.Fatalf("a prompt of more than 1 MB of cache: %s", got[0])
	}
	t.Log(got[0])
	small := open(t, modelserver.Default.Open, addr, entries[3])
	defer small.Close()
	if line := play(t, small, actions[:1])[0]; strings.Contains(line, "limit") {
		t.Errorf("a session within the bound: %s", line)
	}
	if st := srv.CacheStats(); st.CacheBytes > 1<<20 {
		t.Errorf("caches past the bound: %+v", st)
	}
}
