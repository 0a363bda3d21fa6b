package tokenizer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// benchTrainMB is the size of BenchmarkTrain's corpus in MB: NDB_TOKENIZER_BENCH_MB, or
// 8 when unset.
func benchTrainMB() int {
	if n, err := strconv.Atoi(os.Getenv("NDB_TOKENIZER_BENCH_MB")); err == nil && n > 0 {
		return n
	}
	return 8
}

// BenchmarkTrain trains a 4096-token vocabulary; MB/s is the training text's size over
// the time. "synthetic" is synthetic trajectories (few distinct pre-tokens), "diverse"
// the same amount of them plus as much text of random words and hex numbers (millions
// of distinct pre-tokens at 50 MB), a harder case for the counting and the merges.
func BenchmarkTrain(b *testing.B) {
	size := benchTrainMB() << 20
	synthetic := synthCorpus(1, size)
	b.Run("synthetic", func(b *testing.B) { benchTrain(b, synthetic) })
	diverse := append(synthCorpus(5, size/2), randomWords(6, size/2)...)
	b.Run("diverse", func(b *testing.B) { benchTrain(b, diverse) })
}

func benchTrain(b *testing.B, corpus []string) {
	b.SetBytes(int64(totalLen(corpus)))
	var tok *Tokenizer
	for b.Loop() {
		var err error
		tok, err = TrainStrings(corpus, TrainOptions{VocabSize: 4096, Special: grammar.SpecialTokens})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tok.VocabSize()), "vocab")
}

// randomWords returns texts of random lowercase words and hex numbers, about n bytes.
func randomWords(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []string
	for size := 0; size < n; {
		var sb strings.Builder
		for range 200 {
			sb.WriteByte(' ')
			for k := 2 + r.IntN(10); k > 0; k-- {
				sb.WriteByte(byte('a' + r.IntN(26)))
			}
			if r.IntN(5) == 0 {
				fmt.Fprintf(&sb, " 0x%x", r.Uint32())
			}
		}
		out = append(out, sb.String())
		size += sb.Len()
	}
	return out
}

var (
	benchOnce sync.Once
	benchTok  *Tokenizer
)

// benchTokenizer is a 4096-token vocabulary trained on 8 MB of synthetic trajectories.
func benchTokenizer(b *testing.B) *Tokenizer {
	benchOnce.Do(func() {
		var err error
		benchTok, err = TrainStrings(synthCorpus(1, 8<<20), TrainOptions{VocabSize: 4096, Special: grammar.SpecialTokens})
		if err != nil {
			b.Fatal(err)
		}
	})
	return benchTok
}

// benchEncode encodes text once per iteration and reports MB/s, tokens/s and
// bytes/token. With cold set, every iteration starts with an empty cache.
func benchEncode(b *testing.B, text string, cold bool) {
	trained := benchTokenizer(b)
	tok := *trained
	tok.cache = newPieceCache(defaultCacheSize)
	ids := tok.Encode(text)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		if cold {
			tok.cache = newPieceCache(defaultCacheSize)
		}
		ids = tok.AppendEncode(ids[:0], text)
	}
	b.ReportMetric(float64(len(ids))*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
	b.ReportMetric(float64(len(text))/float64(len(ids)), "bytes/token")
}

// BenchmarkEncode encodes held-out synthetic trajectories (other seeds than the
// training text) and, when present, the repository's golden trajectories (real tracer
// output, of programs unlike the synthetic ones).
func BenchmarkEncode(b *testing.B) {
	synthText := strings.Join(synthCorpus(2, 4<<20), "")
	b.Run("synthetic/warm", func(b *testing.B) { benchEncode(b, synthText, false) })
	b.Run("synthetic/cold", func(b *testing.B) { benchEncode(b, synthText, true) })
	if g := goldenTexts(b); g != nil {
		b.Run("golden/warm", func(b *testing.B) { benchEncode(b, g[0], false) })
		b.Run("golden/cold", func(b *testing.B) { benchEncode(b, g[0], true) })
	}
}

func BenchmarkDecode(b *testing.B) {
	tok := benchTokenizer(b)
	text := strings.Join(synthCorpus(2, 1<<20), "")
	ids := tok.Encode(text)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if tok.Decode(ids) != text {
			b.Fatal("round trip")
		}
	}
}
