package train

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ndb-project/ndb/infer"
)

// Recipe is what defines a training run, as opposed to one sitting of it. It is saved
// in the run's state.json, and a resumed run keeps it: the schedule is planned from
// Tokens, so a run done in several sittings is the same run as one done at once.
type Recipe struct {
	// Model is the architecture; VocabSize is taken from the tokenizer.
	Model infer.Config `json:"model"`
	// SeqLen is the packed sequence length (default 512) and Batch the sequences per
	// step (default 4: on two cores batch 8 ran at half the tokens per second).
	SeqLen int `json:"seq_len"`
	Batch  int `json:"batch"`
	// Tokens is the planned number of training tokens, which fixes the number of
	// steps and so the learning-rate schedule (default 6,144,000: 3,000 steps, the
	// first shipped model's run).
	Tokens int64 `json:"tokens"`
	// Warmup is the linear warmup in steps (default 5% of the steps).
	Warmup int `json:"warmup_steps"`
	// LR is the peak learning rate (default 1.5e-3; the paper's pre-training peak is
	// 1e-3, for far larger models and runs).
	LR float64 `json:"lr"`
	// WeightDecay of AdamW (default 0.1) and the gradient-norm clip (default 1.0).
	WeightDecay float64 `json:"weight_decay"`
	Clip        float64 `json:"clip"`
	// ContextLoss also trains on the source context tokens (by default the loss is on
	// the trajectory after the context, as the model never has to write source).
	ContextLoss bool `json:"context_loss"`
	// FunctionShare is the share of batch windows that start at a function-level
	// trajectory, the rest at a repository-level one; 0 draws windows uniformly over
	// all trajectories, whatever their level (the corpus's own mix).
	FunctionShare float64 `json:"function_share"`
	// Seed fixes the initialisation and the batches (default 1).
	Seed int64 `json:"seed"`
	// Init is a checkpoint folder the weights start from (with fresh optimizer
	// state), "" for a random initialisation.
	Init string `json:"init,omitempty"`
}

// Steps is the planned number of optimizer steps: Tokens in batches of Batch×SeqLen.
func (r Recipe) Steps() int {
	per := int64(r.Batch * r.SeqLen)
	return int((r.Tokens + per - 1) / per)
}

func (r Recipe) withDefaults() Recipe {
	if r.Model.Dim == 0 {
		shape := DefaultModel
		shape.VocabSize = r.Model.VocabSize
		r.Model = shape
	}
	if r.SeqLen <= 0 {
		r.SeqLen = 512
	}
	if r.Batch <= 0 {
		r.Batch = 4
	}
	if r.Tokens <= 0 {
		r.Tokens = 3000 * int64(r.Batch*r.SeqLen)
	}
	if r.Warmup <= 0 {
		r.Warmup = max(1, r.Steps()/20)
	}
	if r.LR <= 0 {
		r.LR = 1.5e-3
	}
	if r.WeightDecay == 0 {
		r.WeightDecay = 0.1
	}
	if r.Clip == 0 {
		r.Clip = 1.0
	}
	if r.Seed == 0 {
		r.Seed = 1
	}
	if r.Model.MaxSeqLen < r.SeqLen {
		r.Model.MaxSeqLen = r.SeqLen
	}
	return r
}

func (r Recipe) validate() error {
	if r.FunctionShare < 0 || r.FunctionShare > 1 {
		return fmt.Errorf("function share %v: want a share between 0 and 1", r.FunctionShare)
	}
	return nil
}

// recipeField is one recipe field under the name of its `ndb train` flag.
type recipeField struct {
	flag  string
	value any
}

func (r Recipe) fields() []recipeField {
	return []recipeField{
		{"dim", r.Model.Dim}, {"layers", r.Model.Layers}, {"heads", r.Model.Heads}, {"hidden", r.Model.Hidden},
		{"seq", r.SeqLen}, {"batch", r.Batch}, {"tokens", r.Tokens}, {"warmup", r.Warmup},
		{"lr", r.LR}, {"weight-decay", r.WeightDecay}, {"clip", r.Clip},
		{"context-loss", r.ContextLoss}, {"function-share", r.FunctionShare},
		{"seed", r.Seed}, {"init", r.Init},
	}
}

// RecipeFlags are the names of the `ndb train` flags that set a recipe field (the
// names Options.Explicit uses).
func RecipeFlags() []string {
	var names []string
	for _, f := range (Recipe{}).fields() {
		names = append(names, f.flag)
	}
	return names
}

// conflicts lists the explicit fields of asked that differ from have, as
// "--flag asked (the run's: have)".
func conflicts(asked, have Recipe, explicit map[string]bool, only map[string]bool) []string {
	a, h := asked.fields(), have.fields()
	var out []string
	for i := range a {
		if !explicit[a[i].flag] || only != nil && !only[a[i].flag] {
			continue
		}
		if av, hv := fmt.Sprint(a[i].value), fmt.Sprint(h[i].value); av != hv {
			out = append(out, fmt.Sprintf("--%s %s (the run's: %s)", a[i].flag, av, hv))
		}
	}
	return out
}

// resumedRecipe is the recipe of a resumed run: the saved one. A flag that asks for
// another value is refused, since the run would no longer be the run it started as.
func resumedRecipe(o Options, saved Recipe) (Recipe, error) {
	asked := o.Recipe
	if asked.Init != "" && o.Explicit["init"] {
		return Recipe{}, fmt.Errorf("--init starts a new run; --resume continues %s, whose weights started from %q", o.Out, saved.Init)
	}
	if c := conflicts(asked, saved, o.Explicit, nil); len(c) > 0 {
		return Recipe{}, fmt.Errorf("a resumed run keeps its recipe (state.json), but the flags ask for %s; drop them, or start a new run in another --out (--init %s continues from its weights)",
			strings.Join(c, ", "), filepath.Join(o.Out, CheckpointDir))
	}
	return saved, nil
}

// shapeFlags are the recipe fields a warm start takes from its checkpoint.
var shapeFlags = map[string]bool{"dim": true, "layers": true, "heads": true, "hidden": true}

// initRecipe is the recipe of a new run warm-started from the checkpoint r.Init: the
// model's shape is the checkpoint's (flags that ask for another are refused), and
// the vocabulary must be the corpus's.
func initRecipe(r Recipe, explicit map[string]bool, vocab int) (Recipe, error) {
	cfg, err := infer.LoadConfig(filepath.Join(r.Init, infer.ConfigFile))
	if err != nil {
		return Recipe{}, fmt.Errorf("--init: %w", err)
	}
	if cfg.VocabSize != vocab {
		return Recipe{}, fmt.Errorf("--init %s: a vocabulary of %d, the corpus's tokenizer has %d", r.Init, cfg.VocabSize, vocab)
	}
	asked := r
	r.Model = cfg
	if c := conflicts(asked, r, explicit, shapeFlags); len(c) > 0 {
		return Recipe{}, fmt.Errorf("--init %s: the model's shape is the checkpoint's, but the flags ask for %s", r.Init, strings.Join(c, ", "))
	}
	if r.Model.MaxSeqLen < r.SeqLen {
		return Recipe{}, fmt.Errorf("--init %s: context of %d positions, --seq %d", r.Init, r.Model.MaxSeqLen, r.SeqLen)
	}
	return r, nil
}
