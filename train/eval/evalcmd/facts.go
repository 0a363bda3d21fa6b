package evalcmd

import (
	"context"
	"strings"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/eval"
)

// Constrainable is a model predictor that the program facts can constrain
// (evalmodel.Predictor).
type Constrainable interface {
	eval.Predictor
	// Constrained returns a predictor sharing this one's model, named name, that
	// looks up each prompt's program facts with facts (nil: none), counts the
	// predictions they rule out (eval.Prediction.Invented) and, unless grammarOnly,
	// constrains its predictions by them. Only the main one keeps recording what this
	// one records (the generated states, for --calibrate).
	Constrained(name string, facts eval.FactsFunc, grammarOnly, main bool) eval.Predictor
}

// programCache gives the program facts of an evaluation prompt's context: the
// context's source is parsed once by the tracer (never run) and its facts kept. A
// context of several files, a file of a repository (a context whose file has a path:
// the corpus's repository-level contexts are excerpts of modules, and facts of an
// excerpt would rule out what the whole module does), or a program whose analysis
// fails, has none (nil): its predictions are then left to the grammar, and none
// counts as invented.
type programCache struct {
	pool *trace.Pool
	log  zerolog.Logger
	byCt map[string]*grammar.Program
}

func newProgramCache(pool *trace.Pool, log zerolog.Logger) *programCache {
	return &programCache{pool: pool, log: log, byCt: map[string]*grammar.Program{}}
}

// get returns the facts of ctx's program (nil when it has none).
func (c *programCache) get(ctx context.Context, pr eval.Prompt) *grammar.Program {
	gctx := pr.Context
	key := gctx.Text() + "\x00" + pr.Entry
	if p, ok := c.byCt[key]; ok {
		return p
	}
	var p *grammar.Program
	if wholeProgram(gctx) {
		parsed, err := c.pool.Parse(ctx, trace.ParseRequest{Source: contextSource(gctx), Entry: pr.Entry})
		switch {
		case err != nil:
			c.log.Warn().Err(err).Msg("parsing a prompt's program")
		case parsed.Facts != nil:
			if p, err = grammar.NewProgram(gctx, parsed.Facts); err != nil {
				c.log.Debug().Err(err).Msg("program facts do not fit the context")
			}
		}
	}
	c.byCt[key] = p
	return p
}

// wholeProgram reports whether ctx is a whole program's source: one file with no
// path (a function-level context), not an excerpt of a repository's module.
func wholeProgram(gctx grammar.Context) bool {
	return len(gctx.Files) == 1 && gctx.Files[0].Path == ""
}

// contextSource rebuilds a single-file context's source, every line at its number
// (lines the context leaves out are blank).
func contextSource(gctx grammar.Context) string {
	var b strings.Builder
	n := 1
	for _, l := range gctx.Files[0].Lines {
		for ; n < l.N; n++ {
			b.WriteByte('\n')
		}
		b.WriteString(l.Text)
		b.WriteByte('\n')
		n++
	}
	return b.String()
}

// greedyModels are the loaded model as greedy predictors: under the program facts and
// under the grammar alone (the default), the program facts alone (NoGrammarRow), or
// the grammar alone (GrammarOnly). All count invented predictions by the facts. A
// model that is not Constrainable is itself.
func (cfg Config) greedyModels(model eval.Predictor, facts *programCache) []eval.Predictor {
	c, ok := model.(Constrainable)
	if !ok {
		return []eval.Predictor{model}
	}
	if cfg.GrammarOnly {
		return []eval.Predictor{c.Constrained(c.Name()+" [grammar]", facts.get, true, true)}
	}
	if cfg.NoGrammarRow {
		return []eval.Predictor{c.Constrained(c.Name()+" [program]", facts.get, false, true)}
	}
	return []eval.Predictor{
		c.Constrained(c.Name()+" [program]", facts.get, false, true),
		c.Constrained(c.Name()+" [grammar]", facts.get, true, false),
	}
}
