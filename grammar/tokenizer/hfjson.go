package tokenizer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Save writes the tokenizer in Hugging Face's tokenizer.json format (version "1.0"): the
// special tokens as added tokens with special true, no normalizer, the pre-tokenizer
// (for a trained tokenizer a Sequence of a Split on Pattern, behavior Isolated, and a
// ByteLevel without its own regex), no post-processor, a ByteLevel decoder, and a BPE
// model whose vocabulary and merges are written in GPT-2's byte-level alphabet. This is
// the form Python's tokenizers library reads, and with it that library should tokenize
// the same way (tests check the file with a plain Python reimplementation of the
// library's tokenization; the library itself is not available to them). The output depends only on the tokenizer.
func (t *Tokenizer) Save(w io.Writer) error {
	bw := bufio.NewWriter(w)
	j := &jsonWriter{w: bw}
	j.raw("{\n  \"version\": \"1.0\",\n  \"truncation\": null,\n  \"padding\": null,\n  \"added_tokens\": [")
	for i, id := range t.specials {
		j.sep(i, "\n    ")
		j.raw(`{"id": ` + strconv.Itoa(int(id)) + `, "content": `)
		j.str(t.tokens[id])
		j.raw(`, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}`)
	}
	j.raw("\n  ],\n  \"normalizer\": null,\n  \"pre_tokenizer\": ")
	switch t.split {
	case splitNDB:
		j.raw("{\n    \"type\": \"Sequence\",\n    \"pretokenizers\": [\n      {\"type\": \"Split\", \"pattern\": {\"Regex\": ")
		j.str(Pattern)
		j.raw("}, \"behavior\": \"Isolated\", \"invert\": false},\n      " +
			`{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}` + "\n    ]\n  }")
	case splitGPT2:
		j.raw(`{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true}`)
	case splitNone:
		j.raw(`{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}`)
	}
	j.raw(",\n  \"post_processor\": null,\n  \"decoder\": " +
		`{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}` +
		",\n  \"model\": {\n    \"type\": \"BPE\",\n    \"dropout\": null,\n    \"unk_token\": null," +
		"\n    \"continuing_subword_prefix\": null,\n    \"end_of_word_suffix\": null," +
		"\n    \"fuse_unk\": false,\n    \"byte_fallback\": false,\n    \"vocab\": {")
	keys := t.vocabKeys()
	n := 0
	for id, k := range keys {
		if k == "" {
			continue // a special token whose text is also an ordinary token's key
		}
		j.sep(n, "\n      ")
		n++
		j.str(k)
		j.raw(": " + strconv.Itoa(id))
	}
	j.raw("\n    },\n    \"merges\": [")
	for i, m := range t.mergeList {
		j.sep(i, "\n      ")
		j.str(keys[m[0]] + " " + keys[m[1]])
	}
	j.raw("\n    ]\n  }\n}\n")
	if j.err != nil {
		return j.err
	}
	return bw.Flush()
}

// vocabKeys returns the vocabulary key of every id: the byte-level string of an
// ordinary token, the text of a special token, or "" for a special token whose text is
// also the key of an ordinary token (it is then left out of the model's vocabulary and
// known by its added-token entry only).
func (t *Tokenizer) vocabKeys() []string {
	keys := make([]string, len(t.tokens))
	used := make(map[string]bool, len(t.tokens))
	for id, s := range t.tokens {
		if !t.special[id] {
			keys[id] = byteLevelString([]byte(s))
			used[keys[id]] = true
		}
	}
	for _, id := range t.specials {
		if s := t.tokens[id]; !used[s] {
			keys[id] = s
		}
	}
	return keys
}

// SaveFile writes the tokenizer to a tokenizer.json file (see Save).
func (t *Tokenizer) SaveFile(path string) error {
	var buf bytes.Buffer
	if err := t.Save(&buf); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// LoadFile reads a tokenizer.json file (see Load).
func LoadFile(path string) (*Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Load reads a tokenizer in Hugging Face's tokenizer.json format: what Save writes, and
// GPT-2-style files (a ByteLevel pre-tokenizer with its regex, GPT2Pattern). It accepts
// only what it can reproduce exactly: a byte-level BPE model with every byte in its
// vocabulary, no normalizer, a pre-tokenizer that is ByteLevel (without prefix space)
// or a Split on Pattern or GPT2Pattern followed by such a ByteLevel, a ByteLevel or no
// post-processor and decoder, and added tokens that are all special.
func Load(r io.Reader) (*Tokenizer, error) {
	var f hfFile
	dec := json.NewDecoder(r)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("tokenizer: reading tokenizer.json: %w", err)
	}
	t, err := f.tokenizer()
	if err != nil {
		return nil, fmt.Errorf("tokenizer: tokenizer.json: %w", err)
	}
	return t, nil
}

type hfFile struct {
	Version       string          `json:"version"`
	Truncation    json.RawMessage `json:"truncation"`
	Padding       json.RawMessage `json:"padding"`
	AddedTokens   []hfAddedToken  `json:"added_tokens"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Decoder       json.RawMessage `json:"decoder"`
	Model         hfModel         `json:"model"`
}

type hfAddedToken struct {
	ID      int    `json:"id"`
	Content string `json:"content"`
	Special bool   `json:"special"`
}

type hfModel struct {
	Type                    string          `json:"type"`
	Dropout                 *float64        `json:"dropout"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
	ByteFallback            bool            `json:"byte_fallback"`
	Vocab                   map[string]int  `json:"vocab"`
	Merges                  json.RawMessage `json:"merges"`
}

// hfType is the type tag of a component, with the fields this package reads.
type hfType struct {
	Type           string          `json:"type"`
	AddPrefixSpace bool            `json:"add_prefix_space"`
	UseRegex       *bool           `json:"use_regex"`
	Pretokenizers  []hfType        `json:"pretokenizers"`
	Pattern        json.RawMessage `json:"pattern"`
	Behavior       string          `json:"behavior"`
	Invert         bool            `json:"invert"`
}

func isNull(m json.RawMessage) bool {
	s := strings.TrimSpace(string(m))
	return s == "" || s == "null"
}

// component parses m, which must be null or one of the types allowed.
func component(what string, m json.RawMessage, allowed ...string) (*hfType, error) {
	if isNull(m) {
		return nil, nil
	}
	var c hfType
	if err := json.Unmarshal(m, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	for _, a := range allowed {
		if c.Type == a {
			return &c, nil
		}
	}
	return nil, fmt.Errorf("%s of type %q is not supported", what, c.Type)
}

func (f *hfFile) tokenizer() (*Tokenizer, error) {
	if f.Version != "" && f.Version != "1.0" {
		return nil, fmt.Errorf("version %q is not supported", f.Version)
	}
	if !isNull(f.Truncation) || !isNull(f.Padding) {
		return nil, errors.New("truncation and padding are not supported")
	}
	if !isNull(f.Normalizer) {
		return nil, errors.New("a normalizer is not supported")
	}
	if _, err := component("post_processor", f.PostProcessor, "ByteLevel"); err != nil {
		return nil, err
	}
	if _, err := component("decoder", f.Decoder, "ByteLevel"); err != nil {
		return nil, err
	}
	split, err := preTokenizer(f.PreTokenizer)
	if err != nil {
		return nil, err
	}
	m := &f.Model
	switch {
	case m.Type != "BPE":
		return nil, fmt.Errorf("model type %q is not supported", m.Type)
	case m.Dropout != nil && *m.Dropout != 0:
		return nil, errors.New("BPE dropout is not supported")
	case m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "",
		m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "":
		return nil, errors.New("subword prefixes and suffixes are not supported")
	case m.ByteFallback:
		return nil, errors.New("byte_fallback is not supported")
	}

	size := 0
	for _, id := range m.Vocab {
		size = max(size, id+1)
	}
	for _, a := range f.AddedTokens {
		size = max(size, a.ID+1)
	}
	tokens := make([]string, size)
	special := make([]bool, size)
	filled := make([]bool, size)
	for _, a := range f.AddedTokens {
		switch {
		case !a.Special:
			return nil, fmt.Errorf("added token %q is not special; only special added tokens are supported", a.Content)
		case a.ID < 0:
			return nil, fmt.Errorf("added token %q has id %d", a.Content, a.ID)
		case filled[a.ID]:
			return nil, fmt.Errorf("id %d is given twice", a.ID)
		}
		tokens[a.ID], special[a.ID], filled[a.ID] = a.Content, true, true
	}
	ids := make(map[string]int32, len(m.Vocab))
	for k, id := range m.Vocab {
		if id < 0 {
			return nil, fmt.Errorf("vocabulary entry %q has id %d", k, id)
		}
		if special[id] && tokens[id] == k {
			continue // the special token's own entry
		}
		if filled[id] {
			return nil, fmt.Errorf("id %d is given twice", id)
		}
		b, err := byteLevelBytes(k)
		if err != nil {
			return nil, fmt.Errorf("vocabulary: %w", err)
		}
		tokens[id], filled[id] = string(b), true
		ids[k] = int32(id)
	}
	for id, ok := range filled {
		if !ok {
			return nil, fmt.Errorf("no token has id %d (ids must be 0 to %d)", id, size-1)
		}
	}
	merges, err := parseMerges(m.Merges, ids)
	if err != nil {
		return nil, err
	}
	return newTokenizer(tokens, special, merges, split)
}

// preTokenizer recognizes the pre-tokenizers Load supports.
func preTokenizer(m json.RawMessage) (splitKind, error) {
	c, err := component("pre_tokenizer", m, "ByteLevel", "Sequence")
	if err != nil {
		return 0, err
	}
	if c == nil {
		return 0, errors.New("a byte-level BPE needs a ByteLevel pre-tokenizer")
	}
	byteLevel := func(c hfType, regexOK bool) (splitKind, error) {
		switch {
		case c.Type != "ByteLevel":
			return 0, fmt.Errorf("pre_tokenizer: %q where ByteLevel was expected", c.Type)
		case c.AddPrefixSpace:
			return 0, errors.New("pre_tokenizer: ByteLevel add_prefix_space is not supported")
		case c.UseRegex == nil || *c.UseRegex: // Hugging Face's default is true
			if !regexOK {
				return 0, errors.New("pre_tokenizer: ByteLevel after Split must have use_regex false")
			}
			return splitGPT2, nil
		}
		return splitNone, nil
	}
	if c.Type == "ByteLevel" {
		return byteLevel(*c, true)
	}
	p := c.Pretokenizers
	if len(p) != 2 || p[0].Type != "Split" {
		return 0, errors.New("pre_tokenizer: only a Sequence of Split and ByteLevel is supported")
	}
	if _, err := byteLevel(p[1], false); err != nil {
		return 0, err
	}
	var pat struct{ Regex *string }
	if err := json.Unmarshal(p[0].Pattern, &pat); err != nil || pat.Regex == nil {
		return 0, errors.New("pre_tokenizer: Split needs a Regex pattern")
	}
	if p[0].Behavior != "Isolated" || p[0].Invert {
		return 0, errors.New("pre_tokenizer: Split must have behavior Isolated and invert false")
	}
	switch *pat.Regex {
	case Pattern:
		return splitNDB, nil
	case GPT2Pattern:
		return splitGPT2, nil
	}
	return 0, fmt.Errorf("pre_tokenizer: Split pattern %q is not supported", *pat.Regex)
}

// parseMerges reads merges in either form Hugging Face writes: "a b" strings or
// ["a", "b"] pairs.
func parseMerges(raw json.RawMessage, ids map[string]int32) ([][2]int32, error) {
	if isNull(raw) {
		return nil, nil
	}
	var pairs [][2]string
	var strs []string
	if err := json.Unmarshal(raw, &strs); err == nil {
		pairs = make([][2]string, len(strs))
		for i, s := range strs {
			a, b, ok := strings.Cut(s, " ")
			if !ok || strings.Contains(b, " ") {
				return nil, fmt.Errorf("merge %d %q is not two tokens separated by a space", i, s)
			}
			pairs[i] = [2]string{a, b}
		}
	} else if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, fmt.Errorf("merges: %w", err)
	}
	out := make([][2]int32, len(pairs))
	for i, p := range pairs {
		for h, s := range p {
			id, ok := ids[s]
			if !ok {
				return nil, fmt.Errorf("merge %d: %q is not an ordinary token of the vocabulary", i, s)
			}
			out[i][h] = id
		}
	}
	return out, nil
}

// jsonWriter writes JSON text, keeping the first error.
type jsonWriter struct {
	w   *bufio.Writer
	err error
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// sep writes "," before every element but the first, then the indentation.
func (j *jsonWriter) sep(i int, indent string) {
	if i > 0 {
		j.raw(",")
	}
	j.raw(indent)
}

// str writes s as a JSON string, escaping only what JSON requires (s is valid UTF-8).
func (j *jsonWriter) str(s string) {
	var b []byte
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c < 0x20:
			b = append(b, fmt.Sprintf(`\u%04x`, c)...)
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, w := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r)
			i += w
			continue
		}
		i++
	}
	b = append(b, '"')
	j.raw(string(b))
}
