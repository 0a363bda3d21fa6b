package trace

import (
	"math/rand/v2"
	"slices"

	"github.com/ndb-project/ndb/grammar"
)

// Policy is a categorical distribution over actions.
type Policy map[grammar.ActionKind]float64

// The action policies of the paper's Table A.1: each trajectory draws policy A or B
// with probability one half. A's weights sum to 0.8 in the paper; they are normalised.
var (
	ForwardPolicyA = Policy{grammar.StepInto: 0.35, grammar.StepOver: 0.1, grammar.StepReturn: 0.2, grammar.Breakpoint: 0.1, grammar.Continue: 0.05}
	ForwardPolicyB = Policy{grammar.StepInto: 0.5, grammar.StepOver: 0.5}
	// Decision: the inverse mixture mirrors the forward one, inv_step_call taking
	// step_return's weight (there is no inverse breakpoint or continue).
	InversePolicyA = Policy{grammar.InvStepInto: 0.35, grammar.InvStepOver: 0.1, grammar.InvStepCall: 0.2}
	InversePolicyB = Policy{grammar.InvStepInto: 0.5, grammar.InvStepOver: 0.5}
)

// SampleOptions shape the trajectories a Sampler draws.
type SampleOptions struct {
	// MaxActions bounds a trajectory's actions; each trajectory draws its length
	// uniformly from 1..MaxActions (default 24: with the walks that end early at an
	// exit, the mean comes near the paper's 8.4 actions).
	MaxActions int
	// MidStart is the probability that a trajectory starts at a random state rather
	// than the entry call (forward) or the last state (inverse); default 0.3. Sessions
	// switch direction mid-run, so the model must know trajectories that start there.
	MidStart float64
	// UnreachedBreakpoint is the probability that a breakpoint line is drawn from lines
	// the walk will not reach, so that the model learns the exit state; default 0.15.
	UnreachedBreakpoint float64
	// Lines are the program's executable lines (from Parse), the pool for breakpoints
	// that are never reached. Without them only visited lines are used.
	Lines []grammar.Loc
}

func (o SampleOptions) withDefaults() SampleOptions {
	if o.MaxActions <= 0 {
		o.MaxActions = 24
	}
	if o.MidStart == 0 {
		o.MidStart = 0.3
	}
	if o.UnreachedBreakpoint == 0 {
		o.UnreachedBreakpoint = 0.15
	}
	return o
}

// Sampler draws debugger trajectories from state trees with the paper's action policy.
// It is deterministic given its random source.
type Sampler struct {
	rng  *rand.Rand
	opts SampleOptions
}

// NewSampler returns a sampler seeded with seed.
func NewSampler(seed uint64, opts SampleOptions) *Sampler {
	return &Sampler{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), opts: opts.withDefaults()}
}

// Sample draws one trajectory (without its context) from the tree: forward trees give
// forward trajectories, inverse trees inverse ones.
func (s *Sampler) Sample(t *Tree) grammar.Trajectory {
	start := s.startNode(t)
	return s.Walk(t, start, nil)
}

// Walk draws a trajectory from node start. When actions is non-nil it is followed
// instead of the policy (and the trajectory ends where it ends).
func (s *Sampler) Walk(t *Tree, start int, actions []grammar.Action) grammar.Trajectory {
	tr := grammar.Trajectory{Direction: t.Dir, Start: t.Nodes[start].State()}
	n := len(actions)
	var policy Policy
	if actions == nil {
		n = 1 + s.rng.IntN(s.opts.MaxActions)
		policy = s.pickPolicy(t.Dir)
	}
	cur := start
	for k := 0; k < n; k++ {
		var a grammar.Action
		if actions != nil {
			a = actions[k]
		} else {
			a = s.drawAction(t, cur, policy)
		}
		j, exit, err := t.Do(cur, a)
		if err != nil {
			// ErrAtStart: an inverse walk reached the first state.
			break
		}
		if exit {
			tr.Steps = append(tr.Steps, grammar.Step{Action: a, Exit: t.Exit})
			break
		}
		tr.Steps = append(tr.Steps, grammar.Step{Action: a, State: t.Nodes[j].State()})
		cur = j
	}
	return tr
}

func (s *Sampler) startNode(t *Tree) int {
	if len(t.Nodes) < 2 || s.rng.Float64() >= s.opts.MidStart {
		return 0
	}
	return s.rng.IntN(len(t.Nodes))
}

func (s *Sampler) pickPolicy(dir grammar.Direction) Policy {
	a := s.rng.IntN(2) == 0
	switch {
	case dir == grammar.Inverse && a:
		return InversePolicyA
	case dir == grammar.Inverse:
		return InversePolicyB
	case a:
		return ForwardPolicyA
	default:
		return ForwardPolicyB
	}
}

func (s *Sampler) drawAction(t *Tree, cur int, p Policy) grammar.Action {
	kind := s.drawKind(p)
	if kind != grammar.Breakpoint {
		return grammar.Action{Kind: kind}
	}
	return grammar.Action{Kind: kind, Lines: s.breakpointLines(t, cur)}
}

// drawKind draws from p in the fixed order of grammar.AllActions, so that the draw does
// not depend on map iteration order.
func (s *Sampler) drawKind(p Policy) grammar.ActionKind {
	total := 0.0
	for _, k := range grammar.AllActions {
		total += p[k]
	}
	x := s.rng.Float64() * total
	var last grammar.ActionKind
	for _, k := range grammar.AllActions {
		if p[k] == 0 {
			continue
		}
		last = k
		if x < p[k] {
			return k
		}
		x -= p[k]
	}
	return last
}

// breakpointLines draws one line (usually) or a few, mostly among the lines the walk
// will still reach from cur.
func (s *Sampler) breakpointLines(t *Tree, cur int) []grammar.Loc {
	count := 1
	if r := s.rng.Float64(); r < 0.15 {
		count = 2
	} else if r < 0.2 {
		count = 3
	}
	future := make([]grammar.Loc, 0, 16)
	seen := map[grammar.Loc]bool{}
	for j := cur + 1; j < len(t.Nodes); j++ {
		if l := t.Nodes[j].Loc; t.Nodes[j].Event == grammar.EventLine && !seen[l] {
			seen[l] = true
			future = append(future, l)
		}
	}
	var unreached []grammar.Loc
	for _, l := range s.opts.Lines {
		if !seen[l] {
			unreached = append(unreached, l)
		}
	}
	var lines []grammar.Loc
	for k := 0; k < count; k++ {
		pool := future
		if len(unreached) > 0 && (len(future) == 0 || s.rng.Float64() < s.opts.UnreachedBreakpoint) {
			pool = unreached
		}
		if len(pool) == 0 {
			pool = []grammar.Loc{t.Nodes[cur].Loc}
		}
		l := pool[s.rng.IntN(len(pool))]
		if !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return lines
}
