package train

import (
	"math/rand/v2"
	"testing"

	"github.com/ndb-project/ndb/train/corpus"
)

// With levels known, the function share sets the mix of the windows' first
// trajectories; without a share, windows are drawn over all trajectories.
func TestFunctionShareSetsTheMix(t *testing.T) {
	s := &tokenStream{}
	var levels []byte
	for i := 0; i < 40; i++ { // one function-level trajectory in four
		s.starts = append(s.starts, 10*i)
		l := corpus.LevelRepository
		if i%4 == 0 {
			l = corpus.LevelFunction
		}
		levels = append(levels, l)
	}
	if err := s.setLevels(levels); err != nil {
		t.Fatal(err)
	}
	share := func(functionShare float64) float64 {
		rng := rand.New(rand.NewPCG(1, 2))
		fn := 0
		const n = 4000
		for k := 0; k < n; k++ {
			if levels[s.pickStart(rng, functionShare)/10] == corpus.LevelFunction {
				fn++
			}
		}
		return float64(fn) / n
	}
	for _, c := range []struct{ ask, lo, hi float64 }{{0, 0.22, 0.28}, {0.9, 0.88, 0.92}, {1, 1, 1}, {0.5, 0.47, 0.53}} {
		if got := share(c.ask); got < c.lo || got > c.hi {
			t.Errorf("function share %v: %.3f of the windows start at a function-level trajectory, want %v..%v", c.ask, got, c.lo, c.hi)
		}
	}
	if err := s.setLevels(levels[:3]); err == nil {
		t.Error("levels of another length accepted")
	}
}
