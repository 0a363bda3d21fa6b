package train

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ndb-project/ndb/infer"
)

// A run folder's checkpoint is written whole into checkpoint.next, then swapped in
// for checkpoint by two renames (the old one goes to checkpoint.prev, then away). A
// file inside checkpoint is never rewritten in place, so a copy of the folder taken
// while it stays the same folder is consistent (scripts/commit-run.sh), and a crash
// between the renames leaves checkpoint.prev, which resume falls back on.
const (
	nextSuffix = ".next"
	prevSuffix = ".prev"
)

// saveCheckpoint writes the weights, the optimizer's moments and the state as the
// run's new checkpoint, then copies the state to out/state.json.
func saveCheckpoint(out string, m *infer.Model, opt *AdamW, st State, tokenizer string) error {
	cur := filepath.Join(out, CheckpointDir)
	next, prev := cur+nextSuffix, cur+prevSuffix
	if err := os.RemoveAll(next); err != nil {
		return err
	}
	if err := m.Save(next, infer.SaveOptions{Tokenizer: tokenizer}); err != nil {
		return err
	}
	if err := opt.Save(filepath.Join(next, OptimizerFile)); err != nil {
		return err
	}
	if err := saveState(next, st); err != nil {
		return err
	}
	if err := os.RemoveAll(prev); err != nil {
		return err
	}
	if err := os.Rename(cur, prev); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(next, cur); err != nil {
		return err
	}
	if err := os.RemoveAll(prev); err != nil {
		return err
	}
	return saveState(out, st)
}

// checkpointToResume is the folder a resume reads: checkpoint, or checkpoint.prev
// when a save was interrupted between its two renames.
func checkpointToResume(out string) (string, error) {
	cur := filepath.Join(out, CheckpointDir)
	for _, dir := range []string{cur, cur + prevSuffix} {
		if _, err := os.Stat(filepath.Join(dir, StateFile)); err == nil {
			return dir, nil
		}
	}
	if _, err := os.Stat(filepath.Join(out, StateFile)); err == nil {
		return "", fmt.Errorf("%s predates resumable runs (no %s/%s, no optimizer state): start a new run with --init %s",
			out, CheckpointDir, StateFile, cur)
	}
	return "", fmt.Errorf("no checkpoint to resume in %s", out)
}

// loadCheckpoint restores the weights and the optimizer's moments of the checkpoint
// folder dir, and returns its state.
func loadCheckpoint(dir string, m *infer.Model, opt *AdamW) (State, error) {
	st, err := loadState(dir)
	if err != nil {
		return st, err
	}
	if err := m.LoadWeights(dir); err != nil {
		return st, err
	}
	if err := opt.Load(filepath.Join(dir, OptimizerFile), st.Step); err != nil {
		return st, err
	}
	return st, nil
}
