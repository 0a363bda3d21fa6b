package neural

import (
	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// Constraint modes of --constraints (session.Options.GrammarOnly).
const (
	ConstraintsProgram = session.ConstraintsProgram // the grammar and the program facts (the default)
	ConstraintsGrammar = session.ConstraintsGrammar // the grammar alone: the raw model
)

// ProgramOf returns the program facts of a parse over gctx, ready for constrained
// decoding, or nil (the grammar alone) when the analysis gave none or they do not
// fit the context (several files, too many code objects): a warning in the log,
// never an error.
func ProgramOf(gctx grammar.Context, parsed trace.ParseResult) *grammar.Program {
	if parsed.Facts == nil {
		if parsed.FactsError != "" {
			log.Warn().Str("error", parsed.FactsError).Msg("program analysis failed: predictions are constrained by the grammar alone")
		} else {
			log.Warn().Msg("no program facts for this interpreter: predictions are constrained by the grammar alone")
		}
		return nil
	}
	p, err := grammar.NewProgram(gctx, parsed.Facts)
	if err != nil {
		log.Warn().Err(err).Msg("program facts unusable: predictions are constrained by the grammar alone")
		return nil
	}
	return p
}
