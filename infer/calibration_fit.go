package infer

import (
	"math"

	"github.com/ndb-project/ndb/grammar"
)

// fitGrid is the temperatures a fit chooses among: 0.25 to 8, evenly spaced in log.
var fitGrid = func() []float64 {
	const n = 61
	g := make([]float64, n)
	for i := range g {
		g[i] = math.Exp(math.Log(0.25) + float64(i)*(math.Log(8)-math.Log(0.25))/float64(n-1))
	}
	return g
}()

// FitTemperatures chooses one temperature per token kind for the recorded
// generations gens (Generator.Record) that minimizes loss, the sum over gens of
// loss(i, confidence of gens[i] at those temperatures) (say, the cross-entropy of each
// part's confidence against whether that part was right). Coordinate descent over a
// grid of temperatures from 1/4 to 8; each token's probability at every grid
// temperature is computed once. Generations without recorded distributions are
// skipped.
func FitTemperatures(gens []*Generated, loss func(i int, c *grammar.Confidence) float64) *Calibration {
	type prepared struct {
		i    int
		g    *Generated
		logp [][]float64 // [score][grid]
	}
	var ps []prepared
	for i, g := range gens {
		if g == nil || g.plan == nil {
			continue
		}
		p := prepared{i: i, g: g, logp: make([][]float64, len(g.Scores))}
		ok := true
		for j, s := range g.Scores {
			if s.Dist == nil {
				ok = false
				break
			}
			p.logp[j] = make([]float64, len(fitGrid))
			for k, t := range fitGrid {
				p.logp[j][k] = s.Dist.LogP(t)
			}
		}
		if ok {
			ps = append(ps, p)
		}
	}
	one := 0
	for k, t := range fitGrid {
		if math.Abs(t-1) < math.Abs(fitGrid[one]-1) {
			one = k
		}
	}
	var at [NumKinds]int
	for k := range at {
		at[k] = one
	}
	total := func() float64 {
		var sum float64
		for _, p := range ps {
			c := p.g.plan.confidence(p.g.Scores, func(j int) float64 { return p.logp[j][at[p.g.Scores[j].Kind]] }, p.g.State.Locals)
			if p.g.Forced {
				zero(c)
			}
			sum += loss(p.i, c)
		}
		return sum
	}
	best := total()
	for pass := 0; pass < 3; pass++ {
		moved := false
		for k := range at {
			keep := at[k]
			for j := range fitGrid {
				at[k] = j
				if l := total(); l < best-1e-9 {
					best, keep, moved = l, j, true
				}
			}
			at[k] = keep
		}
		if !moved {
			break
		}
	}
	cal := &Calibration{Temperatures: map[string]float64{}}
	for k, j := range at {
		cal.Temperatures[TokenKind(k).String()] = math.Round(fitGrid[j]*1000) / 1000
	}
	return cal
}
