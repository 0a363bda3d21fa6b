package main

import (
	"context"
	"strings"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// programCache gives the program facts of an evaluation prompt's context: the
// context's source is parsed once by the tracer (never run) and its facts kept. A
// context of several files, or a program whose analysis fails, has none (nil): its
// predictions are then left to the grammar, and none counts as invented.
type programCache struct {
	pool *trace.Pool
	byCt map[string]*grammar.Program
}

func newProgramCache(pool *trace.Pool) *programCache {
	return &programCache{pool: pool, byCt: map[string]*grammar.Program{}}
}

// get returns the facts of ctx's program (nil when it has none).
func (c *programCache) get(ctx context.Context, gctx grammar.Context) *grammar.Program {
	key := gctx.Text()
	if p, ok := c.byCt[key]; ok {
		return p
	}
	var p *grammar.Program
	if len(gctx.Files) == 1 {
		parsed, err := c.pool.Parse(ctx, trace.ParseRequest{Source: contextSource(gctx)})
		switch {
		case err != nil:
			log.Warn().Err(err).Msg("parsing a prompt's program")
		case parsed.Facts != nil:
			if p, err = grammar.NewProgram(gctx, parsed.Facts); err != nil {
				log.Debug().Err(err).Msg("program facts do not fit the context")
			}
		}
	}
	c.byCt[key] = p
	return p
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
