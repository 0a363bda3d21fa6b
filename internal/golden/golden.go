// Package golden reads the golden trajectories of testdata/golden, which the trace
// package's tests write: one file per test program, each a run of sections that start
// with a "### title" line and hold one encoded trajectory.
package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ndb-project/ndb/grammar"
)

// Trajectories decodes every trajectory of the golden files in dir, in file order.
func Trajectories(dir string) ([]grammar.Trajectory, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("golden: no golden files in %s", dir)
	}
	var out []grammar.Trajectory
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, part := range strings.Split(string(b), "### ")[1:] {
			_, text, _ := strings.Cut(part, "\n")
			tr, err := grammar.DecodeTrajectory(strings.TrimRight(text, "\n"))
			if err != nil {
				return nil, fmt.Errorf("golden: %s: %w", f, err)
			}
			out = append(out, tr)
		}
	}
	return out, nil
}
