package corpus

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"iter"
	"os"
	"path/filepath"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
)

// The token files of a corpus folder.
const (
	TokenizerFile = "tokenizer.json"
	TrainShard    = "train.bin"
	EvalShard     = "eval.bin"
)

// TokenStats count what tokenizing a corpus wrote.
type TokenStats struct {
	TrainTokens, EvalTokens int64
	TrainTrajectories       int
	EvalTrajectories        int
	// SpecialInText counts trajectories dropped because their source or values hold
	// the text of a special token, which the tokenizer would read as the token itself.
	SpecialInText int
}

// readTrajectories yields the trajectories of a corpus text file.
func readTrajectories(path string) iter.Seq2[Trajectory, error] { return readJSONL[Trajectory](path) }

// readJSONL yields the values of a file of JSON lines (a corpus text file, a program
// list), stopping at the first error.
func readJSONL[T any](path string) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		f, err := os.Open(path)
		if err != nil {
			yield(zero, err)
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			var t T
			if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
				yield(zero, fmt.Errorf("%s: %w", path, err))
				return
			}
			if !yield(t, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(zero, err)
		}
	}
}

// TrainTokenizer trains the byte-level BPE tokenizer on about sampleBytes of the
// training split (a deterministic sample spread over the whole file, so both levels
// are in it) and saves it in dir.
func TrainTokenizer(dir string, vocabSize int, sampleBytes int64) (*tokenizer.Tokenizer, error) {
	path := filepath.Join(dir, TrainText)
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	keep := 1.0
	if st.Size() > sampleBytes {
		keep = float64(sampleBytes) / float64(st.Size())
	}
	var readErr error
	texts := func(yield func(string) bool) {
		n := 0
		for t, err := range readTrajectories(path) {
			if err != nil {
				readErr = err
				return
			}
			n++
			if keep < 1 && sampleHash(n) >= keep {
				continue
			}
			if !yield(t.Text) {
				return
			}
		}
	}
	tok, err := tokenizer.Train(texts, tokenizer.TrainOptions{VocabSize: vocabSize, Special: grammar.SpecialTokens})
	if err == nil {
		err = readErr
	}
	if err != nil {
		return nil, err
	}
	return tok, tok.SaveFile(filepath.Join(dir, TokenizerFile))
}

func sampleHash(n int) float64 {
	h := fnv.New64a()
	fmt.Fprint(h, n)
	return float64(h.Sum64()>>11) / float64(1<<53)
}

// Tokenize writes the token shards of both splits.
func Tokenize(dir string, tok *tokenizer.Tokenizer) (TokenStats, error) {
	var st TokenStats
	for _, split := range []struct {
		text, shard, levels string
		tokens              *int64
		trajectories        *int
	}{
		{TrainText, TrainShard, TrainLevels, &st.TrainTokens, &st.TrainTrajectories},
		{EvalText, EvalShard, EvalLevels, &st.EvalTokens, &st.EvalTrajectories},
	} {
		if err := tokenizeSplit(dir, split.text, split.shard, split.levels, tok, &st, split.tokens, split.trajectories); err != nil {
			return st, err
		}
	}
	return st, nil
}

// tokenizeSplit writes the token shard of one split and its levels file.
func tokenizeSplit(dir, text, shard, levels string, tok *tokenizer.Tokenizer, st *TokenStats, tokens *int64, trajectories *int) (err error) {
	sw, err := CreateShard(filepath.Join(dir, shard), tok.VocabSize())
	if err != nil {
		return err
	}
	lw, err := createLevels(filepath.Join(dir, levels))
	if err != nil {
		sw.Close()
		return err
	}
	defer func() {
		err = errors.Join(err, sw.Close(), lw.Close())
	}()
	var ids []int
	for t, err := range readTrajectories(filepath.Join(dir, text)) {
		if err != nil {
			return err
		}
		if specialInContent(t.Text) {
			st.SpecialInText++
			continue
		}
		ids = tok.AppendEncode(ids[:0], t.Text)
		if err := sw.Append(ids); err != nil {
			return err
		}
		if err := lw.append(t.Level); err != nil {
			return fmt.Errorf("%s: %w", text, err)
		}
		*tokens += int64(len(ids))
		*trajectories++
	}
	return nil
}

// specialInContent reports whether a trajectory's source or values contain the text
// of a special token (only then is a full decode needed to tell).
func specialInContent(text string) bool {
	tr, err := grammar.DecodeTrajectory(text)
	if err != nil {
		return true
	}
	for _, f := range tr.Context.Files {
		for _, l := range f.Lines {
			if grammar.ContainsSpecialToken(l.Text) {
				return true
			}
		}
	}
	states := []grammar.State{tr.Start}
	for _, s := range tr.Steps {
		states = append(states, s.State)
	}
	for _, s := range states {
		if grammar.ContainsSpecialToken(s.Value) {
			return true
		}
		for _, v := range s.Locals {
			if grammar.ContainsSpecialToken(v.Name) || grammar.ContainsSpecialToken(v.Repr) {
				return true
			}
		}
	}
	return false
}
