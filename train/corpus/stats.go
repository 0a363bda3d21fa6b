package corpus

import (
	"fmt"
	"sort"
	"strings"
)

// Stats count what a build kept and dropped, and why.
type Stats struct {
	Generated        int            `json:"generated"`
	Duplicates       int            `json:"duplicates"`       // same normalized source as an earlier program
	Contaminated     int            `json:"contaminated"`     // matches a CruxEval problem
	ProgramErrors    int            `json:"program_errors"`   // syntax or setup errors
	OverLimits       int            `json:"over_limits"`      // cut off although not meant to loop forever
	OutputOverflow   int            `json:"output_overflow"`  // printed more than the output limit
	Nondeterministic int            `json:"nondeterministic"` // two runs differed
	WorkerErrors     int            `json:"worker_errors"`    // the tracer worker died or timed out
	Kept             int            `json:"kept"`             // programs in the corpus
	KeptHeldOut      int            `json:"kept_held_out"`    // of which held out
	Trajectories     int            `json:"trajectories"`     // trajectories written
	TooLong          int            `json:"too_long"`         // trajectories dropped for length
	Bytes            int64          `json:"bytes"`            // text bytes written
	Exits            map[string]int `json:"exits"`            // programs by exit state
	Events           map[string]int `json:"events"`           // states by event, over all trajectories
	Actions          int            `json:"actions"`          // actions over all trajectories
}

func (s *Stats) count(m *map[string]int, k string, n int) {
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[k] += n
}

// String renders the counts as a short report.
func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "programs: %d generated, %d kept (%d held out)\n", s.Generated, s.Kept, s.KeptHeldOut)
	fmt.Fprintf(&b, "dropped: %d duplicates, %d CruxEval matches, %d program errors, %d over limits, %d output overflow, %d nondeterministic, %d worker errors\n",
		s.Duplicates, s.Contaminated, s.ProgramErrors, s.OverLimits, s.OutputOverflow, s.Nondeterministic, s.WorkerErrors)
	fmt.Fprintf(&b, "trajectories: %d written (%d dropped as too long), %.1f MB of text, %.2f actions each\n",
		s.Trajectories, s.TooLong, float64(s.Bytes)/1e6, float64(s.Actions)/float64(max(s.Trajectories, 1)))
	fmt.Fprintf(&b, "exits: %s\nevents: %s\n", fmtCounts(s.Exits), fmtCounts(s.Events))
	return b.String()
}

func fmtCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}
