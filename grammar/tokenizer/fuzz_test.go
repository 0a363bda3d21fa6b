package tokenizer

import (
	"strings"
	"testing"
)

func fuzzSeeds(f *testing.F) {
	for _, s := range handExamples {
		f.Add(s)
	}
	for _, s := range []string{"", "\x00", "\xff\xfe", "<|frame_sep", "<|frame_sep|>x", "  5|    x", "'s 's", strings.Repeat(" ", 100)} {
		f.Add(s)
	}
}

// FuzzRoundTrip checks Decode(Encode(s)) == s and Decode(EncodeOrdinary(s)) == s.
func FuzzRoundTrip(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		tok := testTokenizer(t)
		if got := tok.Decode(tok.Encode(s)); got != s {
			t.Fatalf("Decode(Encode(%q)) = %q", s, got)
		}
		if got := tok.Decode(tok.EncodeOrdinary(s)); got != s {
			t.Fatalf("Decode(EncodeOrdinary(%q)) = %q", s, got)
		}
	})
}

// FuzzSplit checks that the pre-tokenizers cut any text into non-empty pieces that
// concatenate to it.
func FuzzSplit(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range []splitKind{splitNDB, splitGPT2, splitNone} {
			var sb strings.Builder
			k.split(s, func(p string) {
				if p == "" {
					t.Fatalf("split %d of %q: empty piece", k, s)
				}
				sb.WriteString(p)
			})
			if sb.String() != s {
				t.Fatalf("split %d of %q: pieces concatenate to %q", k, s, sb.String())
			}
		}
	})
}
