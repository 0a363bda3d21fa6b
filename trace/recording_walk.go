package trace

import "github.com/ndb-project/ndb/grammar"

// Walk follows actions on the recording from its entry state (forward) or its last
// state (inverse), or samples them from seed with the paper's policy when actions is
// nil. The actions must all go in the walk's direction (grammar.CheckDirection).
func (r *Recording) Walk(inverse bool, actions []grammar.Action, seed uint64) grammar.Trajectory {
	tree := r.Forward
	if inverse {
		tree = tree.Inverse()
	}
	s := NewSampler(seed, SampleOptions{Lines: r.Lines()})
	var tr grammar.Trajectory
	if actions == nil {
		tr = s.Sample(tree)
	} else {
		tr = s.Walk(tree, 0, actions)
	}
	tr.Context = r.Context
	return tr
}

// SampleActions draws actions from the entry state with the paper's policy, from
// seed: the actions of a forward walk of the recording.
func (r *Recording) SampleActions(seed uint64) []grammar.Action {
	var actions []grammar.Action
	for _, st := range NewSampler(seed, SampleOptions{Lines: r.Lines()}).Walk(r.Forward, 0, nil).Steps {
		actions = append(actions, st.Action)
	}
	return actions
}
