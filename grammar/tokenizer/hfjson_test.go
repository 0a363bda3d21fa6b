package tokenizer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
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

// pythonReference is a plain Python implementation of what Hugging Face's tokenizers
// library does with a tokenizer.json that Save writes: special tokens split out
// (leftmost, then longest), the Split regex, GPT-2's byte-to-unicode mapping, and BPE by
// merge rank. It reads the file's path and a JSON list of texts, and prints their ids.
const pythonReference = `
import json, sys
try:
    import regex
except ImportError:
    sys.exit(3)
d = json.load(open(sys.argv[1], encoding="utf-8"))
texts = json.load(sys.stdin)
vocab = d["model"]["vocab"]
ranks = {tuple(m.split(" ")): i for i, m in enumerate(d["model"]["merges"])}
split = regex.compile(d["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"])
specials = sorted(d["added_tokens"], key=lambda a: -len(a["content"]))
special_re = regex.compile("|".join(regex.escape(a["content"]) for a in specials))
special_id = {a["content"]: a["id"] for a in specials}
bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
cs, n = bs[:], 0
for b in range(256):
    if b not in bs:
        bs.append(b); cs.append(256 + n); n += 1
b2u = {b: chr(c) for b, c in zip(bs, cs)}
def bpe(piece):
    parts = [b2u[b] for b in piece.encode("utf-8")]
    while len(parts) > 1:
        best = min(((ranks.get((parts[i], parts[i + 1]), 1 << 60), i) for i in range(len(parts) - 1)))
        if best[0] == 1 << 60:
            break
        i = best[1]
        parts[i:i + 2] = [parts[i] + parts[i + 1]]
    return [vocab[p] for p in parts]
def encode(text):
    out, pos = [], 0
    for m in list(special_re.finditer(text)) + [None]:
        end = m.start() if m else len(text)
        for piece in split.findall(text[pos:end]):
            out += bpe(piece)
        if m:
            out.append(special_id[m.group()])
            pos = m.end()
    return out
json.dump([encode(t) for t in texts], sys.stdout)
`

// TestSaveMatchesPythonReference encodes texts with a plain Python implementation of
// Hugging Face's tokenization from the saved tokenizer.json, and compares with Encode.
// It is skipped when python3 or its regex module is missing.
func TestSaveMatchesPythonReference(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	tok := testTokenizer(t)
	path := filepath.Join(t.TempDir(), "tokenizer.json")
	if err := tok.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	texts := append(slices.Clone(handExamples), synthCorpus(66, 20<<10)...)
	texts = append(texts, "  12|\u00a0x\t\u3000'y'  \n\n", "<|frame_sep|<|frame_sep|>>", "é中😀 123456 _a1")
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("python3", "-c", pythonReference, path)
	cmd.Stdin = bytes.NewReader(in)
	raw, err := cmd.Output()
	if e, ok := err.(*exec.ExitError); ok && e.ExitCode() == 3 {
		t.Skip("python3 regex module not installed")
	}
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var want [][]int
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		if got := tok.Encode(s); !slices.Equal(got, want[i]) {
			t.Fatalf("Encode(%q) = %v, Python reference %v", s, got, want[i])
		}
	}
}
