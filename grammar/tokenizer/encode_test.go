package tokenizer

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

var (
	sharedOnce sync.Once
	sharedTok  *Tokenizer
	sharedErr  error
)

// testTokenizer returns a tokenizer of 2048 tokens trained on synthetic trajectories,
// the hand-written examples and the golden trajectories.
func testTokenizer(t testing.TB) *Tokenizer {
	sharedOnce.Do(func() {
		corpus := append(synthCorpus(1, 300<<10), handExamples...)
		corpus = append(corpus, goldenTexts(t)...)
		sharedTok, sharedErr = TrainStrings(corpus, TrainOptions{VocabSize: 2048, Special: grammar.SpecialTokens})
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedTok
}

// randomText draws strings that stress the tokenizer: random bytes (invalid UTF-8, NUL),
// pieces of trajectories, special tokens and parts of them, long runs.
func randomText(r *rand.Rand) string {
	frags := append([]string{"\x00", "\xff", "\xe4\xb8", "中", "é", " ", "    ", "\n", "\r\n", "\t",
		"<|", "|>", "<|frame_sep", "frame_sep|>", "<|<|", `{"`, `": "'`, `'"}`, `"..": ".."`,
		"  5|", "  12|", " return", "_x1", "berry", "12345", "\\u00e9", "😀", "\u00a0", "'s"},
		grammar.SpecialTokens...)
	var sb strings.Builder
	for n := r.IntN(40); n > 0; n-- {
		switch r.IntN(4) {
		case 0:
			for k := r.IntN(8); k > 0; k-- {
				sb.WriteByte(byte(r.IntN(256)))
			}
		case 1:
			sb.WriteString(strings.Repeat(frags[r.IntN(len(frags))], 1+r.IntN(3)))
		default:
			sb.WriteString(frags[r.IntN(len(frags))])
		}
	}
	if r.IntN(20) == 0 {
		sb.WriteString(strings.Repeat(" ", 200+r.IntN(100)))
	}
	return sb.String()
}

func checkRoundTrip(t *testing.T, tok *Tokenizer, s string) {
	t.Helper()
	ids := tok.Encode(s)
	if got := tok.Decode(ids); got != s {
		t.Fatalf("Decode(Encode(%q)) = %q", s, got)
	}
	if err := tok.Validate(ids); err != nil {
		t.Fatal(err)
	}
	ord := tok.EncodeOrdinary(s)
	if got := tok.Decode(ord); got != s {
		t.Fatalf("Decode(EncodeOrdinary(%q)) = %q", s, got)
	}
	for _, id := range ord {
		if tok.IsSpecial(id) {
			t.Fatalf("EncodeOrdinary(%q) contains special token %q", s, tok.DecodeToken(id))
		}
	}
}

func TestRoundTripRandom(t *testing.T) {
	tok := testTokenizer(t)
	r := rand.New(rand.NewPCG(11, 12))
	for range 3000 {
		checkRoundTrip(t, tok, randomText(r))
	}
	for range 500 {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		checkRoundTrip(t, tok, string(b))
	}
	checkRoundTrip(t, tok, "")
}

func TestRoundTripRealistic(t *testing.T) {
	tok := testTokenizer(t)
	texts := append(slices.Clone(handExamples), synthCorpus(99, 50<<10)...)
	texts = append(texts, goldenTexts(t)...)
	for _, s := range texts {
		checkRoundTrip(t, tok, s)
	}
}

func TestSpecialTokensAreSingle(t *testing.T) {
	tok := testTokenizer(t)
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range grammar.SpecialTokens {
		id, ok := tok.TokenID(s)
		if !ok || !tok.IsSpecial(id) || string(tok.DecodeToken(id)) != s {
			t.Fatalf("TokenID(%q) = %d, %v", s, id, ok)
		}
		if got := tok.Encode(s); !slices.Equal(got, []int{id}) {
			t.Errorf("Encode(%q) = %v, want [%d]", s, got, id)
		}
		if got := tok.EncodeOrdinary(s); len(got) < 2 {
			t.Errorf("EncodeOrdinary(%q) = %v, want ordinary tokens", s, got)
		}
		// Neighbouring text never merges with a special token.
		for range 50 {
			a, b := randomText(r), randomText(r)
			want := append(append(tok.Encode(a), id), tok.Encode(b)...)
			if got := tok.Encode(a + s + b); !slices.Equal(got, want) {
				t.Fatalf("Encode(%q + %q + %q) = %v, want %v", a, s, b, got, want)
			}
		}
	}
	// No ordinary token holds the text of a special token or its delimiters "<|", "|>"
	// with a letter: merges never cross a special token.
	for id := range tok.VocabSize() {
		if tok.IsSpecial(id) {
			continue
		}
		b := string(tok.DecodeToken(id))
		if grammar.ContainsSpecialToken(b) {
			t.Errorf("ordinary token %d %q holds a special token", id, b)
		}
		for _, s := range grammar.SpecialTokens {
			if strings.Contains(b, s[1:]) || strings.Contains(b, s[:len(s)-1]) {
				t.Errorf("ordinary token %d %q holds most of special token %q", id, b, s)
			}
		}
	}
}

func TestEncodeSpecialIn(t *testing.T) {
	tok := testTokenizer(t)
	frame, _ := tok.TokenID(grammar.TokenFrameSep)
	src, _ := tok.TokenID(grammar.TokenSrcSep)
	ids := tok.Encode("x<|frame_sep|><|src_sep|>y<|frame_sep")
	want := append(append(tok.EncodeOrdinary("x"), frame, src), tok.EncodeOrdinary("y<|frame_sep")...)
	if !slices.Equal(ids, want) {
		t.Fatalf("got %v, want %v", ids, want)
	}
}

// TestEncodeLongestSpecial checks leftmost-longest matching of special tokens, some of
// which are prefixes of others.
func TestEncodeLongestSpecial(t *testing.T) {
	tok, err := TrainStrings([]string{"abc"}, TrainOptions{VocabSize: 300, Special: []string{"<a>", "<a><b>", "b>"}})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tok.TokenID("<a>")
	ab, _ := tok.TokenID("<a><b>")
	b, _ := tok.TokenID("b>")
	got := tok.Encode("<a><b><a><b")
	want := append([]int{ab, a}, tok.EncodeOrdinary("<b")...)
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got := tok.Encode("<b>"); !slices.Equal(got, append(tok.EncodeOrdinary("<"), b)) {
		t.Fatalf("Encode(<b>) = %v", got)
	}
}

// TestBPELongMatchesShort checks the heap-based BPE of long pre-tokens against the
// quadratic one.
func TestBPELongMatchesShort(t *testing.T) {
	tok := testTokenizer(t)
	r := rand.New(rand.NewPCG(8, 9))
	frags := []string{" ", "    ", "a", "e", "r", "ber", "ry", "_", "x", "1", "in", "re", "\xff", "\""}
	for range 2000 {
		var sb strings.Builder
		for n := 1 + r.IntN(120); n > 0; n-- {
			sb.WriteString(frags[r.IntN(len(frags))])
		}
		p := sb.String()
		want := tok.bpeShort(p, make([]int32, len(p)), make([]int32, len(p)-1))
		if got := tok.bpeLong(p); !slices.Equal(got, want) {
			t.Fatalf("bpeLong(%q) = %v, bpeShort %v", p, got, want)
		}
	}
}

func TestCacheEviction(t *testing.T) {
	trained := testTokenizer(t)
	tok := *trained
	tok.cache = newPieceCache(4)
	text := strings.Join(synthCorpus(21, 20<<10), "")
	want := trained.Encode(text)
	for range 2 {
		if got := tok.Encode(text); !slices.Equal(got, want) {
			t.Fatal("encoding with a small cache differs")
		}
	}
	if n := len(tok.cache.cur) + len(tok.cache.old); n > 8 {
		t.Fatalf("cache holds %d entries, want at most 8", n)
	}
}

func TestConcurrentEncode(t *testing.T) {
	tok := testTokenizer(t)
	texts := synthCorpus(31, 40<<10)
	want := make([][]int, len(texts))
	for i, s := range texts {
		want[i] = tok.Encode(s)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range texts {
				k := (i + g*7) % len(texts)
				if got := tok.Encode(texts[k]); !slices.Equal(got, want[k]) {
					t.Errorf("concurrent encoding of text %d differs", k)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestDecodeOutOfRange(t *testing.T) {
	tok := testTokenizer(t)
	ids := append(tok.Encode("ab"), -1, tok.VocabSize())
	if got := tok.Decode(ids); got != "ab" {
		t.Fatalf("Decode skips bad ids: got %q", got)
	}
	if tok.Validate(ids) == nil {
		t.Fatal("Validate accepted bad ids")
	}
	if tok.DecodeToken(-1) != nil || tok.DecodeToken(tok.VocabSize()) != nil || tok.IsSpecial(-1) {
		t.Fatal("DecodeToken or IsSpecial accepted a bad id")
	}
	if _, ok := tok.TokenID("<|nope|>"); ok {
		t.Fatal("TokenID found an unknown special token")
	}
}

// TestCompression reports bytes per token on held-out text and checks a floor.
func TestCompression(t *testing.T) {
	tok := testTokenizer(t)
	held := strings.Join(synthCorpus(77, 100<<10), "")
	ids := tok.Encode(held)
	bpt := float64(len(held)) / float64(len(ids))
	t.Logf("held-out synthetic trajectories: %.2f bytes/token (vocabulary %d)", bpt, tok.VocabSize())
	if bpt < 3 {
		t.Errorf("%.2f bytes/token, want at least 3", bpt)
	}
	ex := tok.Encode(specExample)
	t.Logf("spec example: %d bytes, %d tokens", len(specExample), len(ex))
}
