// Package corpusstats measures a training corpus the way the paper's Figure 5 does:
// for each level (function, repository) and direction (forward, inverse), the
// distribution of tokens per trajectory, of actions per trajectory, and the mix of
// events among the trajectories' states. Collect reads a corpus folder written by
// package corpus; Report prints the numbers beside the paper's; Plot draws them as PNG.
package corpusstats

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/train/corpus"
)

// TokenizerFile is the name of the tokenizer a corpus build trains, in its folder.
const TokenizerFile = "tokenizer.json"

// The levels and directions of a corpus, in report order.
var (
	Levels     = []string{"function", "repository"}
	Directions = []string{"forward", "inverse"}
)

// All is the Direction of a Group that merges both directions of a level.
const All = "all"

// EventKinds are the kinds of state counted in the event mix, in report order:
// grammar's events and "exit" for an exit state.
var EventKinds = []string{"call", "line", "return", "exception", "inv_line_call", "exit"}

// Reference is what the paper reports for one level.
type Reference struct {
	Tokens  float64 // mean tokens per trajectory
	Actions float64 // mean actions per trajectory
}

// Paper holds the paper's means by level (section 4.3, Figure 5).
var Paper = map[string]Reference{
	"function":   {Tokens: 368.72, Actions: 8.40},
	"repository": {Tokens: 3049.30, Actions: 8.79},
}

// Options configures Collect.
type Options struct {
	// Corpus is the corpus folder: train.jsonl and eval.jsonl are read (a missing one
	// is skipped, but not both).
	Corpus string
	// Limit stops after this many trajectories (train.jsonl first); zero reads all.
	Limit int
	// Tokenizer counts tokens; nil counts len(text)/4, rounded up, as an estimate.
	Tokenizer *tokenizer.Tokenizer
	// Workers decode and tokenize in parallel; zero means runtime.NumCPU().
	Workers int
}

// Group holds the per-trajectory numbers of one level and direction.
type Group struct {
	Level     string `json:"level"`
	Direction string `json:"direction"` // forward, inverse, or All
	// Tokens, ContextTokens and Actions have one entry per trajectory: tokens of
	// the whole text, tokens of its header (program context and direction token, a
	// part of Tokens), and actions.
	Tokens        []int `json:"-"`
	ContextTokens []int `json:"-"`
	Actions       []int `json:"-"`
	// Events counts states by kind, indexed like EventKinds: the start state and
	// the state (or exit state) after each action.
	Events [6]int64 `json:"-"`
}

// N is the number of trajectories in the group.
func (g *Group) N() int { return len(g.Tokens) }

// EventShare returns the share of states of kind EventKinds[i], in [0, 1].
func (g *Group) EventShare(i int) float64 {
	var total int64
	for _, n := range g.Events {
		total += n
	}
	if total == 0 {
		return 0
	}
	return float64(g.Events[i]) / float64(total)
}

// merge adds o's trajectories to g.
func (g *Group) merge(o *Group) {
	g.Tokens = append(g.Tokens, o.Tokens...)
	g.ContextTokens = append(g.ContextTokens, o.ContextTokens...)
	g.Actions = append(g.Actions, o.Actions...)
	for i, n := range o.Events {
		g.Events[i] += n
	}
}

// Stats is what Collect measured.
type Stats struct {
	Corpus string `json:"corpus"`
	// Files counts the lines read from each file, in reading order (a line that
	// does not decode is read but not measured).
	Files []FileCount `json:"files"`
	// TokensBy says how tokens were counted: the tokenizer, or the bytes/4 estimate.
	TokensBy string `json:"tokens_by"`
	// Estimated is true when tokens are the bytes/4 estimate.
	Estimated bool `json:"estimated"`
	// Limited is true when Options.Limit stopped reading before the end.
	Limited bool `json:"limited"`
	// DecodeErrors counts lines whose text does not decode as a trajectory; they
	// count nowhere else. FirstError describes the first.
	DecodeErrors int    `json:"decode_errors"`
	FirstError   string `json:"first_error,omitempty"`
	// ActionMismatches counts lines whose "actions" field differs from the number
	// of actions in their text (the text's count is used).
	ActionMismatches int `json:"action_mismatches"`
	// Groups has one entry per level and direction met, in Levels and Directions
	// order (levels not in Levels follow, sorted).
	Groups []*Group `json:"-"`
}

// FileCount is the number of lines read from one file.
type FileCount struct {
	Name  string `json:"name"`
	Lines int    `json:"lines"`
}

// Trajectories is the number of trajectories measured.
func (s *Stats) Trajectories() int {
	n := 0
	for _, g := range s.Groups {
		n += g.N()
	}
	return n
}

// Group returns the group of a level and direction; direction All merges both
// directions. It returns an empty group when there is no such trajectory.
func (s *Stats) Group(level, direction string) *Group {
	out := &Group{Level: level, Direction: direction}
	for _, g := range s.Groups {
		if g.Level == level && (direction == All || g.Direction == direction) {
			out.merge(g)
		}
	}
	return out
}

// LevelNames returns the levels to report: Levels, then any other level met.
func (s *Stats) LevelNames() []string {
	names := slices.Clone(Levels)
	for _, g := range s.Groups {
		if !slices.Contains(names, g.Level) {
			names = append(names, g.Level)
		}
	}
	return names
}

// LoadTokenizer reads DIR/tokenizer.json; it returns nil and no error when the file
// does not exist.
func LoadTokenizer(dir string) (*tokenizer.Tokenizer, error) {
	t, err := tokenizer.LoadFile(filepath.Join(dir, TokenizerFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return t, err
}

// sample is what one line of a corpus file measures.
type sample struct {
	level, direction string
	tokens, context  int
	actions          int
	claimed          int // the line's "actions" field
	events           [6]int64
	err              error
}

// measure decodes and tokenizes one trajectory.
func measure(tr corpus.Trajectory, tok *tokenizer.Tokenizer) sample {
	s := sample{level: tr.Level, direction: tr.Direction, claimed: tr.Actions}
	t, err := grammar.DecodeTrajectory(tr.Text)
	if err != nil {
		s.err = fmt.Errorf("program %s (%s, %s): %w", tr.Program, tr.Level, tr.Direction, err)
		return s
	}
	_, _, header, err := grammar.DecodeHeader(tr.Text)
	if err != nil { // cannot happen after DecodeTrajectory succeeded
		s.err = err
		return s
	}
	if s.direction == "" {
		s.direction = t.Direction.String()
	}
	// The header ends with the direction token, a special token, so the tokens of
	// the text are those of the header followed by those of the rest.
	s.context, s.tokens = countTokens(tok, tr.Text[:header]), countTokens(tok, tr.Text)
	s.actions = len(t.Steps)
	s.events[eventIndex(t.Start.Event)]++
	for _, st := range t.Steps {
		if st.Exit != "" {
			s.events[len(EventKinds)-1]++
		} else {
			s.events[eventIndex(st.State.Event)]++
		}
	}
	return s
}

// countTokens counts the tokens of text, or estimates them as bytes/4 without a
// tokenizer.
func countTokens(tok *tokenizer.Tokenizer, text string) int {
	if tok == nil {
		return (len(text) + 3) / 4
	}
	return len(tok.Encode(text))
}

// eventIndex maps an event to its index in EventKinds.
func eventIndex(e grammar.Event) int {
	if i := slices.Index(EventKinds, e.String()); i >= 0 {
		return i
	}
	return 0 // unreachable: DecodeTrajectory only returns valid events
}

// Collect reads the corpus folder and measures every trajectory.
func Collect(ctx context.Context, opts Options) (*Stats, error) {
	st := &Stats{Corpus: opts.Corpus, TokensBy: "bytes/4 estimate (no " + TokenizerFile + ")", Estimated: opts.Tokenizer == nil}
	if opts.Tokenizer != nil {
		st.TokensBy = fmt.Sprintf("%s (vocabulary %d)", TokenizerFile, opts.Tokenizer.VocabSize())
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var files []string
	for _, name := range []string{corpus.TrainText, corpus.EvalText} {
		path := filepath.Join(opts.Corpus, name)
		if _, err := os.Stat(path); err == nil {
			files = append(files, path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no %s or %s: not a corpus folder", opts.Corpus, corpus.TrainText, corpus.EvalText)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan corpus.Trajectory, 4*workers)
	samples := make(chan sample, 4*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for tr := range lines {
				samples <- measure(tr, opts.Tokenizer)
			}
		})
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(lines)
		readErr <- readFiles(ctx, files, opts.Limit, lines, st)
	}()
	go func() {
		wg.Wait()
		close(samples)
	}()
	groups := map[[2]string]*Group{}
	for s := range samples {
		st.add(groups, s)
	}
	if err := <-readErr; err != nil {
		return nil, err
	}
	st.sortGroups(groups)
	return st, nil
}

// readFiles sends the trajectories of files to out, at most limit of them (zero: no
// limit), and records per-file counts in st.
func readFiles(ctx context.Context, files []string, limit int, out chan<- corpus.Trajectory, st *Stats) error {
	total := 0
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		fc := FileCount{Name: filepath.Base(path)}
		r := bufio.NewReaderSize(f, 1<<20)
		for lineNo := 1; ; lineNo++ {
			if limit > 0 && total >= limit {
				st.Limited = true
				break
			}
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				var tr corpus.Trajectory
				if jerr := json.Unmarshal(line, &tr); jerr != nil {
					f.Close()
					return fmt.Errorf("%s:%d: %w", path, lineNo, jerr)
				}
				select {
				case out <- tr:
				case <-ctx.Done():
					f.Close()
					return ctx.Err()
				}
				fc.Lines++
				total++
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return fmt.Errorf("%s: %w", path, err)
			}
		}
		f.Close()
		st.Files = append(st.Files, fc)
		if st.Limited {
			break
		}
	}
	return nil
}

// add counts one sample into its group.
func (st *Stats) add(groups map[[2]string]*Group, s sample) {
	if s.err != nil {
		if st.DecodeErrors == 0 {
			st.FirstError = s.err.Error()
		}
		st.DecodeErrors++
		return
	}
	if s.claimed != s.actions {
		st.ActionMismatches++
	}
	key := [2]string{s.level, s.direction}
	g := groups[key]
	if g == nil {
		g = &Group{Level: s.level, Direction: s.direction}
		groups[key] = g
	}
	g.Tokens = append(g.Tokens, s.tokens)
	g.ContextTokens = append(g.ContextTokens, s.context)
	g.Actions = append(g.Actions, s.actions)
	for i, n := range s.events {
		g.Events[i] += n
	}
}

// sortGroups puts the groups in report order into st.Groups, each one's numbers
// sorted so that the result does not depend on the order the workers finished.
func (st *Stats) sortGroups(groups map[[2]string]*Group) {
	rank := func(list []string, v string) int {
		if i := slices.Index(list, v); i >= 0 {
			return i
		}
		return len(list)
	}
	st.Groups = st.Groups[:0]
	for _, g := range groups {
		slices.Sort(g.Tokens)
		slices.Sort(g.ContextTokens)
		slices.Sort(g.Actions)
		st.Groups = append(st.Groups, g)
	}
	slices.SortFunc(st.Groups, func(a, b *Group) int {
		return cmp.Or(
			cmp.Compare(rank(Levels, a.Level), rank(Levels, b.Level)),
			cmp.Compare(a.Level, b.Level),
			cmp.Compare(rank(Directions, a.Direction), rank(Directions, b.Direction)),
			cmp.Compare(a.Direction, b.Direction))
	})
}

// Dist summarizes a distribution of per-trajectory counts.
type Dist struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Min    int     `json:"min"`
	Max    int     `json:"max"`
}

// Summarize returns the count, mean, median, 90th percentile, minimum and maximum
// of values (which it does not modify). Percentiles interpolate linearly between
// the order statistics (numpy's default): the median of 1, 2, 3, 4 is 2.5.
func Summarize(values []int) Dist {
	if len(values) == 0 {
		return Dist{}
	}
	v := slices.Clone(values)
	slices.Sort(v)
	var sum float64
	for _, x := range v {
		sum += float64(x)
	}
	return Dist{
		N:      len(v),
		Mean:   sum / float64(len(v)),
		Median: Quantile(v, 0.5),
		P90:    Quantile(v, 0.9),
		Min:    v[0],
		Max:    v[len(v)-1],
	}
}

// Quantile returns the q-quantile (q in [0, 1]) of sorted values, interpolating
// linearly between order statistics; NaN for no values.
func Quantile(sorted []int, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(sorted)-1)
	frac := pos - float64(lo)
	return float64(sorted[lo]) + frac*float64(sorted[hi]-sorted[lo])
}
