package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/nn"
	"github.com/sugarme/gotch/ts"

	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/train/corpus"
)

// State is a run's progress, saved beside its checkpoint so --resume can continue.
type State struct {
	Step      int     `json:"step"`       // optimizer steps done
	Tokens    int64   `json:"tokens"`     // input tokens seen
	TrainLoss float64 `json:"train_loss"` // smoothed training loss
	EvalLoss  float64 `json:"eval_loss"`  // last held-out loss
	Seconds   float64 `json:"seconds"`    // training time so far, over all sessions
	Params    int64   `json:"params"`
}

// The files of a run folder.
const (
	CheckpointDir = "checkpoint"
	StateFile     = "state.json"
)

// Progress is called after every step.
type Progress func(s State, tokensPerSecond float64)

// Run trains a model on a corpus. All model calls happen on the calling goroutine.
func Run(ctx context.Context, o Options, progress Progress) (State, error) {
	o = o.withDefaults()
	tok, err := tokenizer.LoadFile(filepath.Join(o.Corpus, corpus.TokenizerFile))
	if err != nil {
		return State{}, err
	}
	trainS, err := loadStream(filepath.Join(o.Corpus, corpus.TrainShard), tok)
	if err != nil {
		return State{}, err
	}
	evalS, err := loadStream(filepath.Join(o.Corpus, corpus.EvalShard), tok)
	if err != nil {
		return State{}, err
	}
	infer.SetThreads(0) // NDB_THREADS, else every core
	device, err := infer.ParseDevice(o.Device)
	if err != nil {
		return State{}, err
	}
	infer.Seed(o.Seed)
	cfg := o.Model
	cfg.VocabSize = tok.VocabSize()
	vs := nn.NewVarStore(device)
	m, err := infer.New(vs, cfg)
	if err != nil {
		return State{}, err
	}
	defer m.Close()
	var st State
	ckpt := filepath.Join(o.Out, CheckpointDir)
	if o.Resume {
		if st, err = loadState(o.Out); err != nil {
			return State{}, fmt.Errorf("resume: %w", err)
		}
		if err := m.LoadWeights(ckpt); err != nil {
			return State{}, fmt.Errorf("resume: %w", err)
		}
	}
	st.Params = m.Config.NumParams()
	opt, err := nn.NewAdamWConfig(0.9, 0.95, o.WeightDecay).Build(vs, o.LR)
	if err != nil {
		return State{}, err
	}
	save := func() error {
		if err := m.Save(ckpt, infer.SaveOptions{Tokenizer: filepath.Join(o.Corpus, corpus.TokenizerFile)}); err != nil {
			return err
		}
		return saveState(o.Out, st)
	}
	start := time.Now()
	base := st.Seconds
	runTokens := int64(0)
	for st.Step < o.Steps {
		if err := ctx.Err(); err != nil {
			return st, errors.Join(err, save())
		}
		opt.SetLR(LearningRate(st.Step, o.Warmup, o.Steps, o.LR))
		b := trainS.sample(rand.New(rand.NewPCG(uint64(o.Seed), uint64(st.Step))), o.Batch, o.SeqLen, o.ContextLoss)
		loss, err := trainStep(m, opt, b, device, o.Clip)
		if err != nil {
			return st, fmt.Errorf("step %d: %w", st.Step, err)
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return st, fmt.Errorf("step %d: the loss is %v (lower --lr, or check the corpus)", st.Step, loss)
		}
		st.Step++
		// gotch frees a tensor that nobody dropped (some of its own helpers leak
		// wrappers) only in a finalizer; without a collection per step the C memory
		// they hold grew by 10-300 MB a step and the run was killed for memory.
		runtime.GC()
		st.Tokens += int64(b.b * b.t)
		runTokens += int64(b.b * b.t)
		if st.TrainLoss == 0 {
			st.TrainLoss = loss
		}
		st.TrainLoss = 0.95*st.TrainLoss + 0.05*loss
		st.Seconds = base + time.Since(start).Seconds()
		last := st.Step == o.Steps
		if st.Step%o.EvalEvery == 0 || last {
			if st.EvalLoss, err = evalLoss(m, evalS, o, device); err != nil {
				return st, err
			}
		}
		timeUp := o.MaxDuration > 0 && time.Since(start) >= o.MaxDuration
		if st.Step%o.CheckpointEvery == 0 || last || timeUp {
			if err := save(); err != nil {
				return st, err
			}
		}
		if progress != nil {
			progress(st, float64(runTokens)/time.Since(start).Seconds())
		}
		if timeUp {
			break
		}
	}
	return st, nil
}

func loadStream(path string, tok *tokenizer.Tokenizer) (*tokenStream, error) {
	h, ids, err := corpus.ReadShard(path)
	if err != nil {
		return nil, err
	}
	if h.VocabSize != tok.VocabSize() {
		return nil, fmt.Errorf("%s: vocabulary of %d, the tokenizer has %d", path, h.VocabSize, tok.VocabSize())
	}
	return newTokenStream(ids, tok)
}

// tensors moves a batch to the device as [B, T] int64 tensors.
func tensors(b batch, device gotch.Device) (x, y *ts.Tensor) {
	shape := []int64{int64(b.b), int64(b.t)}
	x = ts.MustOfSlice(b.inputs).MustView(shape, true).MustTo(device, true)
	y = ts.MustOfSlice(b.targets).MustView(shape, true).MustTo(device, true)
	return x, y
}

// trainStep runs one optimizer step and returns the batch's loss.
func trainStep(m *infer.Model, opt *nn.Optimizer, b batch, device gotch.Device, clip float64) (float64, error) {
	x, y := tensors(b, device)
	defer x.MustDrop()
	defer y.MustDrop()
	logits, err := m.ForwardTrain(x)
	if err != nil {
		return 0, err
	}
	defer logits.MustDrop()
	loss, err := infer.Loss(logits, y)
	if err != nil {
		return 0, err
	}
	defer loss.MustDrop()
	if _, err := backwardStepClipNorm(opt, m.Params(), loss, clip); err != nil {
		return 0, err
	}
	return loss.Float64Values()[0], nil
}

// evalLoss is the mean loss over fixed held-out batches (the same every time).
func evalLoss(m *infer.Model, s *tokenStream, o Options, device gotch.Device) (float64, error) {
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0xe7a1))
	total := 0.0
	for k := 0; k < o.EvalBatches; k++ {
		b := s.sample(rng, o.Batch, o.SeqLen, o.ContextLoss)
		x, y := tensors(b, device)
		logits, err := m.ForwardEval(x)
		if err != nil {
			x.MustDrop()
			y.MustDrop()
			return 0, err
		}
		loss, err := infer.Loss(logits, y)
		if err == nil {
			total += loss.Float64Values()[0]
			loss.MustDrop()
		}
		logits.MustDrop()
		x.MustDrop()
		y.MustDrop()
		if err != nil {
			return 0, err
		}
	}
	return total / float64(o.EvalBatches), nil
}

func loadState(dir string) (State, error) {
	var st State
	data, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal(data, &st)
}

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
