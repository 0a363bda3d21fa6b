package train

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
)

// State is a run's progress and recipe, saved in its checkpoint folder (and copied to
// the run folder) so that --resume continues exactly where the run stopped. The data
// position is the step: the batch of step s is drawn from a generator seeded with
// (Recipe.Seed, s), so nothing else of the random state needs saving.
type State struct {
	Step      int     `json:"step"`       // optimizer steps done
	Tokens    int64   `json:"tokens"`     // input tokens seen
	Loss      float64 `json:"loss"`       // the last step's training loss
	TrainLoss float64 `json:"train_loss"` // smoothed training loss
	EvalLoss  float64 `json:"eval_loss"`  // last held-out loss (both levels)
	// EvalLossFunction is the last held-out loss on function-level windows only (0
	// when the corpus has no eval.levels).
	EvalLossFunction float64 `json:"eval_loss_function,omitempty"`
	Seconds          float64 `json:"seconds"`  // training time so far, over all sittings
	Sittings         int     `json:"sittings"` // sittings that trained at least one step
	Params           int64   `json:"params"`
	Recipe           Recipe  `json:"recipe"`
	// CorpusSHA256 is the SHA-256 of the training shard the run trains on: a resume on
	// another corpus is warned about (the data position would mean other batches).
	CorpusSHA256 string `json:"corpus_sha256"`
}

// The files of a run folder.
const (
	CheckpointDir = "checkpoint"
	StateFile     = "state.json"
)

func loadState(dir string) (State, error) {
	var st State
	data, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal(data, &st)
}

// saveState writes dir/state.json atomically.
func saveState(dir string, st State) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, StateFile+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, StateFile))
}

// fileSHA256 is the hex SHA-256 of a file's bytes.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
