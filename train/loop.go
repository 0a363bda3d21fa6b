package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/nn"

	"github.com/ndb-project/ndb/infer"
)

// Progress is called after every step.
type Progress func(s State, tokensPerSecond float64)

// AdamW's betas and epsilon (the weight decay is the recipe's).
const (
	adamBeta1 = 0.9
	adamBeta2 = 0.95
	adamEps   = 1e-8
)

// Run trains one sitting of a run: a new run, or with Resume the continuation of the
// run in o.Out. The sitting ends when the recipe's tokens are done, at UntilTokens,
// after MaxDuration, or when ctx is cancelled (SIGINT, SIGTERM); every end writes a
// checkpoint first, and a cancelled sitting returns ctx's error with the state. All
// model calls happen on the calling goroutine.
func Run(ctx context.Context, o Options, progress Progress) (State, error) {
	o = o.withDefaults()
	r := o.Recipe
	var prior *State
	var resumeDir string
	if o.Resume {
		dir, err := checkpointToResume(o.Out)
		if err != nil {
			return State{}, fmt.Errorf("resume: %w", err)
		}
		st, err := loadState(dir)
		if err != nil {
			return State{}, fmt.Errorf("resume: %w", err)
		}
		if r, err = resumedRecipe(o, st.Recipe); err != nil {
			return State{}, err
		}
		prior, resumeDir = &st, dir
	} else if _, err := os.Stat(filepath.Join(o.Out, CheckpointDir)); err == nil {
		return State{}, fmt.Errorf("%s already holds a run: --resume continues it, or choose another --out", o.Out)
	}
	data, err := loadData(o.Corpus, r.FunctionShare)
	if err != nil {
		return State{}, err
	}
	r.Model.VocabSize = data.tok.VocabSize()
	if prior == nil {
		if r.Init != "" {
			if r, err = initRecipe(r, o.Explicit, r.Model.VocabSize); err != nil {
				return State{}, err
			}
		}
		r = r.withDefaults()
	}
	if err := r.validate(); err != nil {
		return State{}, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return State{}, err
	}
	infer.SetThreads(0) // NDB_THREADS, else every core
	device, err := infer.ParseDevice(o.Device)
	if err != nil {
		return State{}, err
	}
	infer.Seed(r.Seed)
	m, err := infer.New(nn.NewVarStore(device), r.Model)
	if err != nil {
		return State{}, err
	}
	defer m.Close()
	opt, err := NewAdamW(m.Params(), adamBeta1, adamBeta2, adamEps, r.WeightDecay)
	if err != nil {
		return State{}, err
	}
	defer opt.Close()
	st := State{Recipe: r, CorpusSHA256: data.trainSHA256}
	switch {
	case prior != nil:
		if st, err = loadCheckpoint(resumeDir, m, opt); err != nil {
			return State{}, fmt.Errorf("resume: %w", err)
		}
		if st.CorpusSHA256 != data.trainSHA256 {
			o.Log.Warn().Str("run", st.CorpusSHA256).Str("corpus", data.trainSHA256).
				Msgf("resuming on another training shard than the run's: the same steps now draw other batches")
			st.CorpusSHA256 = data.trainSHA256
		}
	case r.Init != "":
		if err := m.LoadWeights(r.Init); err != nil {
			return State{}, fmt.Errorf("--init: %w", err)
		}
	}
	st.Params = m.Config.NumParams()
	s := sitting{o: o, r: r, data: data, m: m, opt: opt, device: device, progress: progress}
	return s.run(ctx, st)
}

// sitting is one Run's loop.
type sitting struct {
	o        Options
	r        Recipe
	data     *trainingData
	m        *infer.Model
	opt      *AdamW
	device   gotch.Device
	progress Progress
}

func (s *sitting) run(ctx context.Context, st State) (State, error) {
	steps := s.r.Steps()
	start := time.Now()
	base := st.Seconds
	var runTokens int64
	dirty := false // steps done since the last checkpoint
	save := func() error {
		if !dirty {
			return nil
		}
		dirty = false
		return saveCheckpoint(s.o.Out, s.m, s.opt, st, s.data.tokenizer)
	}
	for st.Step < steps {
		if err := ctx.Err(); err != nil {
			return st, errors.Join(err, save())
		}
		if s.o.UntilTokens > 0 && st.Tokens >= s.o.UntilTokens ||
			s.o.MaxDuration > 0 && time.Since(start) >= s.o.MaxDuration {
			break
		}
		lr := LearningRate(st.Step, s.r.Warmup, steps, s.r.LR)
		b := s.data.train.sample(batchRNG(s.r.Seed, st.Step), s.r.Batch, s.r.SeqLen, s.r.ContextLoss, s.r.FunctionShare)
		loss, err := trainStep(s.m, s.opt, b, s.device, lr, s.r.Clip)
		if err != nil {
			return st, fmt.Errorf("step %d: %w", st.Step, err)
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return st, fmt.Errorf("step %d: the loss is %v (lower --lr, or check the corpus)", st.Step, loss)
		}
		if runTokens == 0 {
			st.Sittings++ // the sitting's first step
		}
		st.Step++
		dirty = true
		// gotch frees a tensor that nobody dropped (some of its own helpers leak
		// wrappers) only in a finalizer; without a collection per step the C memory
		// they hold grew by 10-300 MB a step and the run was killed for memory.
		runtime.GC()
		st.Tokens += int64(b.b * b.t)
		runTokens += int64(b.b * b.t)
		st.Loss = loss
		if st.TrainLoss == 0 {
			st.TrainLoss = loss
		}
		st.TrainLoss = 0.95*st.TrainLoss + 0.05*loss
		st.Seconds = base + time.Since(start).Seconds()
		if st.Step%s.o.EvalEvery == 0 || st.Step == steps {
			if err := s.evaluate(&st); err != nil {
				return st, err
			}
		}
		if st.Step%s.o.CheckpointEvery == 0 || st.Step == steps {
			if err := save(); err != nil {
				return st, err
			}
		}
		if s.progress != nil {
			s.progress(st, float64(runTokens)/time.Since(start).Seconds())
		}
	}
	return st, save()
}

// evaluate measures the held-out losses into st.
func (s *sitting) evaluate(st *State) (err error) {
	if st.EvalLoss, err = evalLoss(s.m, s.data.eval, s.r, s.o.EvalBatches, 0, s.device); err != nil {
		return err
	}
	if s.data.functionEval {
		st.EvalLossFunction, err = evalLoss(s.m, s.data.eval, s.r, s.o.EvalBatches, 1, s.device)
	}
	return err
}
