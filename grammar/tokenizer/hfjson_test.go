package tokenizer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

func saveBytes(t *testing.T, tok *Tokenizer) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := tok.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSaveLoadRoundTrip(t *testing.T) {
	tok := testTokenizer(t)
	path := filepath.Join(t.TempDir(), "tokenizer.json")
	if err := tok.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(saveBytes(t, tok), saveBytes(t, back)) {
		t.Fatal("saving the loaded tokenizer gives other bytes")
	}
	if back.VocabSize() != tok.VocabSize() || !slices.Equal(back.SpecialTokens(), tok.SpecialTokens()) {
		t.Fatal("vocabulary or special tokens differ after loading")
	}
	for id := range tok.VocabSize() {
		if !bytes.Equal(tok.DecodeToken(id), back.DecodeToken(id)) || tok.IsSpecial(id) != back.IsSpecial(id) {
			t.Fatalf("token %d differs after loading", id)
		}
	}
	texts := append(slices.Clone(handExamples), synthCorpus(55, 30<<10)...)
	for _, s := range texts {
		if !slices.Equal(tok.Encode(s), back.Encode(s)) {
			t.Fatalf("encodings of %q differ after loading", s)
		}
	}
}

// TestSaveFormat checks the fields of tokenizer.json that Hugging Face's library reads.
func TestSaveFormat(t *testing.T) {
	tok := testTokenizer(t)
	var f struct {
		Version     string `json:"version"`
		AddedTokens []struct {
			ID         int    `json:"id"`
			Content    string `json:"content"`
			Special    bool   `json:"special"`
			Normalized bool   `json:"normalized"`
		} `json:"added_tokens"`
		Normalizer    any `json:"normalizer"`
		PostProcessor any `json:"post_processor"`
		PreTokenizer  struct {
			Type          string `json:"type"`
			Pretokenizers []struct {
				Type     string            `json:"type"`
				Pattern  map[string]string `json:"pattern"`
				Behavior string            `json:"behavior"`
				UseRegex *bool             `json:"use_regex"`
			} `json:"pretokenizers"`
		} `json:"pre_tokenizer"`
		Decoder struct {
			Type string `json:"type"`
		} `json:"decoder"`
		Model struct {
			Type         string         `json:"type"`
			Dropout      any            `json:"dropout"`
			UnkToken     any            `json:"unk_token"`
			ByteFallback bool           `json:"byte_fallback"`
			Vocab        map[string]int `json:"vocab"`
			Merges       []string       `json:"merges"`
		} `json:"model"`
	}
	if err := json.Unmarshal(saveBytes(t, tok), &f); err != nil {
		t.Fatal(err)
	}
	if f.Version != "1.0" || f.Normalizer != nil || f.PostProcessor != nil || f.Decoder.Type != "ByteLevel" {
		t.Errorf("header fields: %+v", f)
	}
	if len(f.AddedTokens) != len(grammar.SpecialTokens) {
		t.Fatalf("%d added tokens", len(f.AddedTokens))
	}
	for i, a := range f.AddedTokens {
		if a.ID != 256+i || a.Content != grammar.SpecialTokens[i] || !a.Special || a.Normalized {
			t.Errorf("added token %+v", a)
		}
	}
	p := f.PreTokenizer
	if p.Type != "Sequence" || len(p.Pretokenizers) != 2 || p.Pretokenizers[0].Type != "Split" ||
		p.Pretokenizers[0].Pattern["Regex"] != Pattern || p.Pretokenizers[0].Behavior != "Isolated" ||
		p.Pretokenizers[1].Type != "ByteLevel" || p.Pretokenizers[1].UseRegex == nil || *p.Pretokenizers[1].UseRegex {
		t.Errorf("pre_tokenizer %+v", p)
	}
	m := f.Model
	if m.Type != "BPE" || m.Dropout != nil || m.UnkToken != nil || m.ByteFallback {
		t.Errorf("model fields %+v", m)
	}
	if len(m.Vocab) != tok.VocabSize() || len(m.Merges) != tok.NumMerges() {
		t.Errorf("%d vocabulary entries and %d merges, want %d and %d", len(m.Vocab), len(m.Merges), tok.VocabSize(), tok.NumMerges())
	}
	for key, id := range map[string]int{"Ġ": ' ', "Ċ": '\n', "ĉ": '\t', "Ā": 0, "a": 'a', "ÿ": 0xff, "<|frame_sep|>": 257} {
		if m.Vocab[key] != id {
			t.Errorf("vocab[%q] = %d, want %d", key, m.Vocab[key], id)
		}
	}
	for _, mg := range m.Merges {
		if strings.Count(mg, " ") != 1 {
			t.Errorf("merge %q", mg)
		}
	}
}

// gpt2Style returns a small tokenizer.json in the form of GPT-2's: ids in GPT-2's order
// of the byte-level alphabet, a special token in both the vocabulary and the added
// tokens, a ByteLevel pre-tokenizer with its regex and a ByteLevel post-processor.
func gpt2Style(mergesJSON string) string {
	var vocab []string
	id := 0
	add := func(k string) {
		vocab = append(vocab, fmt.Sprintf("%q: %d", k, id))
		id++
	}
	var printable, rest []int
	for b := range 256 {
		if r := byteToRune[b]; r == rune(b) {
			printable = append(printable, b)
		} else {
			rest = append(rest, b)
		}
	}
	for _, b := range append(printable, rest...) {
		add(string(byteToRune[b]))
	}
	for _, k := range []string{"Ġt", "he", "Ġthe", "<|endoftext|>"} {
		add(k)
	}
	return `{"version": "1.0", "truncation": null, "padding": null,
  "added_tokens": [{"id": 259, "content": "<|endoftext|>", "single_word": false, "lstrip": false,
    "rstrip": false, "normalized": true, "special": true}],
  "normalizer": null,
  "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
  "post_processor": {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": false, "use_regex": true},
  "decoder": {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true},
  "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": "",
    "end_of_word_suffix": "", "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
    "vocab": {` + strings.Join(vocab, ", ") + `},
    "merges": ` + mergesJSON + `}}`
}

func TestLoadGPT2Style(t *testing.T) {
	for _, merges := range []string{`["Ġ t", "h e", "Ġt he"]`, `[["Ġ", "t"], ["h", "e"], ["Ġt", "he"]]`} {
		tok, err := Load(strings.NewReader(gpt2Style(merges)))
		if err != nil {
			t.Fatal(err)
		}
		if tok.split != splitGPT2 || tok.VocabSize() != 260 || tok.NumMerges() != 3 {
			t.Fatalf("split %v, vocabulary %d, merges %d", tok.split, tok.VocabSize(), tok.NumMerges())
		}
		// GPT-2's ids: '!' is 0, 't' is 't'-'!', 'Ġ' (space) is 220.
		tID, eID := int('t'-'!'), int('e'-'!')
		got := tok.Encode("the the<|endoftext|>")
		want := []int{tID, 257, 258, 259}
		if !slices.Equal(got, want) {
			t.Fatalf("Encode = %v, want %v", got, want)
		}
		if got := tok.Encode(" te"); !slices.Equal(got, []int{256, eID}) {
			t.Fatalf("Encode(\" te\") = %v", got)
		}
		if got := tok.Encode(" "); !slices.Equal(got, []int{220}) {
			t.Fatalf("Encode(\" \") = %v", got)
		}
		checkRoundTrip(t, tok, "the\xff the's\n\n  x<|endoftext|>")
		// Saving keeps GPT-2's pre-tokenizer, and the file loads again the same.
		back, err := Load(bytes.NewReader(saveBytes(t, tok)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(saveBytes(t, tok), saveBytes(t, back)) {
			t.Fatal("GPT-2-style tokenizer does not save and load identically")
		}
	}
}

func TestLoadErrors(t *testing.T) {
	good := gpt2Style(`["Ġ t", "h e", "Ġt he"]`)
	if _, err := Load(strings.NewReader(good)); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string][2]string{
		"normalizer":      {`"normalizer": null`, `"normalizer": {"type": "NFC"}`},
		"truncation":      {`"truncation": null`, `"truncation": {"max_length": 5}`},
		"pre_tokenizer":   {`"use_regex": true}`, `"use_regex": true, "add_prefix_space": true}`},
		"model type":      {`"type": "BPE"`, `"type": "WordPiece"`},
		"dropout":         {`"dropout": null`, `"dropout": 0.1`},
		"byte fallback":   {`"byte_fallback": false`, `"byte_fallback": true`},
		"prefix":          {`"continuing_subword_prefix": ""`, `"continuing_subword_prefix": "##"`},
		"unknown merge":   {`"h e"`, `"h q1"`},
		"bad merge":       {`"h e"`, `"he"`},
		"merge result":    {`"Ġt he"`, `"Ġt h"`},
		"missing byte":    {`"!": 0,`, ``},
		"not byte-level":  {`"Ġt": 256`, `"tx ": 256`},
		"id twice":        {`"he": 257`, `"he": 256`},
		"non-special":     {`"special": true`, `"special": false`},
		"post_processor":  {`"post_processor": {"type": "ByteLevel"`, `"post_processor": {"type": "TemplateProcessing"`},
		"bad json":        {`"version"`, `"version`},
		"split pattern":   {`"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true}`, `"pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex": "\\w+"}, "behavior": "Isolated", "invert": false}, {"type": "ByteLevel", "use_regex": false}]}`},
		"version":         {`"version": "1.0"`, `"version": "2.0"`},
		"no pretokenizer": {`"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true}`, `"pre_tokenizer": null`},
	} {
		bad := strings.Replace(good, c[0], c[1], 1)
		if bad == good {
			t.Fatalf("%s: replacement did not apply", name)
		}
		if _, err := Load(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: Load accepted a bad file", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestLoadSplitGPT2Pattern checks that a Split on GPT-2's regex is recognized too.
func TestLoadSplitGPT2Pattern(t *testing.T) {
	pat, _ := json.Marshal(GPT2Pattern)
	s := strings.Replace(gpt2Style(`[]`),
		`"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true}`,
		`"pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex": `+string(pat)+`}, "behavior": "Isolated", "invert": false}, {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}]}`, 1)
	tok, err := Load(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	if tok.split != splitGPT2 {
		t.Fatalf("split %v", tok.split)
	}
}
