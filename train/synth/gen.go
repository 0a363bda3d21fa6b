package synth

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Program is one generated program.
type Program struct {
	// Source defines f, and before it any helper functions and classes f uses. It ends
	// with a newline and has no top-level statement other than definitions.
	Source string
	// Entry is the call to evaluate after executing Source, e.g. "f([1, 2, 3], 'ab')".
	Entry string
	// Features are sorted tags naming the constructs and behaviours the program was
	// built with: "loop", "while", "recursion", "helper", "exception", "class",
	// "print", "never", "error"... They are for analysis and tests only.
	Features []string
}

// Options tunes the generator. A zero field takes its default; a negative share means
// none.
type Options struct {
	// NeverShare is the share of programs that never terminate (default 0.03).
	NeverShare float64
	// ErrorShare is the share of programs that end in an uncaught exception (default
	// 0.03).
	ErrorShare float64
	// PrintShare is the share of programs that print (default 0.2).
	PrintShare float64
	// HelperShare is the probability that a block of f becomes a helper function
	// (default 0.3).
	HelperShare float64
	// ClassShare is the share of programs built around a small class (default 0.04).
	ClassShare float64
	// RecursionShare is the share of programs given a recursive helper (default 0.07).
	RecursionShare float64
	// MaxBlocks bounds the number of blocks in f (default 4, at least 2).
	MaxBlocks int
}

func (o Options) withDefaults() Options {
	share := func(v *float64, def float64) {
		if *v == 0 {
			*v = def
		} else if *v < 0 {
			*v = 0
		}
	}
	share(&o.NeverShare, 0.03)
	share(&o.ErrorShare, 0.03)
	share(&o.PrintShare, 0.2)
	share(&o.HelperShare, 0.3)
	share(&o.ClassShare, 0.04)
	share(&o.RecursionShare, 0.07)
	if o.MaxBlocks == 0 {
		o.MaxBlocks = 4
	}
	if o.MaxBlocks < 2 {
		o.MaxBlocks = 2
	}
	return o
}

// Generator produces programs. It is deterministic given its seed and options, and not
// safe for concurrent use.
type Generator struct {
	r    *rand.Rand
	opts Options
}

// NewGenerator returns a generator seeded with seed.
func NewGenerator(seed int64, opts Options) *Generator {
	return &Generator{
		r:    rand.New(rand.NewPCG(uint64(seed), 0x6e64622d73796e74)),
		opts: opts.withDefaults(),
	}
}

func (g *Generator) chance(p float64) bool { return g.r.Float64() < p }
func (g *Generator) intn(n int) int        { return g.r.IntN(n) }

// between returns an int in [lo, hi].
func (g *Generator) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func pick[T any](g *Generator, xs []T) T { return xs[g.r.IntN(len(xs))] }

// mode is what a program's run should end in.
type mode uint8

const (
	modeNormal mode = iota
	modeNever
	modeError
)

// prog is a program under construction.
type prog struct {
	g        *Generator
	globals  []string   // names of helpers and classes
	locals   []string   // every local or parameter name used so far, in any function
	defs     [][]string // rendered helper and class definitions, callees first
	features []string
	helpers  int
	mode     mode
	printing bool // this program prints
	printed  bool
}

func (p *prog) isGlobal(name string) bool { return slices.Contains(p.globals, name) }

// useLocal records a local name, so no helper or class gets it later.
func (p *prog) useLocal(name string) {
	if !slices.Contains(p.locals, name) {
		p.locals = append(p.locals, name)
	}
}

func (p *prog) tag(tags ...string) {
	for _, t := range tags {
		if !slices.Contains(p.features, t) {
			p.features = append(p.features, t)
		}
	}
}

// globalName reserves a helper or class name: the first free one of names, else one
// with a numeric suffix.
func (p *prog) globalName(names ...string) string {
	start := p.g.intn(len(names))
	for i := range names {
		n := names[(start+i)%len(names)]
		if !p.isGlobal(n) && !isReserved(n) && !slices.Contains(p.locals, n) {
			p.globals = append(p.globals, n)
			return n
		}
	}
	for i := 2; ; i++ {
		n := names[start] + "_" + strconv.Itoa(i)
		if !p.isGlobal(n) && !slices.Contains(p.locals, n) {
			p.globals = append(p.globals, n)
			return n
		}
	}
}

// define adds a finished helper.
func (p *prog) define(h *fn) {
	lines := append([]string{h.header()}, h.w.lines...)
	if len(h.w.lines) == 0 {
		lines = append(lines, "    pass")
	}
	p.defs = append(p.defs, lines)
}

// maxEntry bounds the length of a program's entry call: a rare program whose inputs
// add up to more is drawn again, so the arguments never crowd a trajectory's context.
const maxEntry = 200

// Next returns the next program.
func (g *Generator) Next() Program {
	for {
		if p := g.draw(); len(p.Entry) <= maxEntry {
			return p
		}
	}
}

// draw builds one program.
func (g *Generator) draw() Program {
	p := &prog{g: g}
	m := modeNormal
	switch r := g.r.Float64(); {
	case r < g.opts.NeverShare:
		m = modeNever
	case r < g.opts.NeverShare+g.opts.ErrorShare:
		m = modeError
	}
	p.mode = m
	p.printing = m == modeNormal && g.chance(g.opts.PrintShare)
	f := newFn(p, "f", nil)

	n := 2 // mostly two or three blocks, rarely more
	for n < g.opts.MaxBlocks && g.chance(0.45) {
		n++
	}
	special := g.intn(n + 1) // where a failure goes
	classy := m == modeNormal && g.chance(g.opts.ClassShare)
	recursive := g.chance(g.opts.RecursionShare)
	for i := 0; i <= n; i++ {
		if i == special {
			switch m {
			case modeNever:
				f.never()
				p.tag("never")
			case modeError:
				f.fail()
				p.tag("error")
			}
		}
		if i == n {
			break
		}
		switch {
		case i == 0 && classy:
			f.classBlock()
		case i == 0 && recursive:
			f.recursionBlock()
		default:
			f.block()
		}
	}
	f.finish()

	var src strings.Builder
	for _, d := range p.defs {
		for _, l := range d {
			src.WriteString(l)
			src.WriteByte('\n')
		}
		src.WriteByte('\n')
	}
	src.WriteString(f.header())
	src.WriteByte('\n')
	for _, l := range f.w.lines {
		src.WriteString(l)
		src.WriteByte('\n')
	}
	args := make([]string, len(f.params))
	for i, v := range f.params {
		args[i] = literal(v.input)
	}
	if m == modeNormal {
		p.tag("normal")
	}
	features := slices.Clone(p.features)
	slices.Sort(features)
	return Program{Source: src.String(), Entry: "f(" + strings.Join(args, ", ") + ")", Features: features}
}
