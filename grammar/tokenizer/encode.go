package tokenizer

// Encode returns the token ids of text. Special-token text in it becomes the special
// token (leftmost first, and the longest of those starting at one position); the text
// between is encoded as by EncodeOrdinary. Decode(Encode(text)) == text for every
// string, valid UTF-8 or not.
//
// Training text contains special tokens, so this is the function for it. Text that may
// contain special-token text that must stay ordinary text (program source, a repr) is
// encoded with EncodeOrdinary, and the special tokens around it are added by id.
func (t *Tokenizer) Encode(text string) []int {
	return t.AppendEncode(make([]int, 0, len(text)/3+1), text)
}

// AppendEncode appends the token ids of text, as Encode returns them, to dst.
func (t *Tokenizer) AppendEncode(dst []int, text string) []int {
	for text != "" {
		pos, n, id := t.match.find(text)
		if pos < 0 {
			return t.AppendEncodeOrdinary(dst, text)
		}
		dst = t.AppendEncodeOrdinary(dst, text[:pos])
		dst = append(dst, int(id))
		text = text[pos+n:]
	}
	return dst
}

// EncodeOrdinary returns the token ids of text without looking for special tokens:
// their text, if any, is encoded like any other text and never becomes a special
// token. Decode(EncodeOrdinary(text)) == text for every string.
func (t *Tokenizer) EncodeOrdinary(text string) []int {
	return t.AppendEncodeOrdinary(make([]int, 0, len(text)/3+1), text)
}

// AppendEncodeOrdinary appends the token ids of text, as EncodeOrdinary returns them,
// to dst.
func (t *Tokenizer) AppendEncodeOrdinary(dst []int, text string) []int {
	for i := 0; i < len(text); {
		j := t.split.next(text, i)
		dst = t.appendPiece(dst, text[i:j])
		i = j
	}
	return dst
}

// next returns the end of the pre-token starting at i < len(s).
func (k splitKind) next(s string, i int) int {
	switch k {
	case splitGPT2:
		return nextGPT2(s, i)
	case splitNone:
		return len(s)
	}
	return nextNDB(s, i)
}

// appendPiece appends the BPE encoding of one pre-token.
func (t *Tokenizer) appendPiece(dst []int, p string) []int {
	if len(p) == 1 {
		return append(dst, int(t.byteID[p[0]]))
	}
	ids, ok := t.cache.get(p)
	if !ok {
		ids = t.bpe(p)
		if len(p) <= maxCachedPiece {
			t.cache.put(p, ids)
		}
	}
	for _, id := range ids {
		dst = append(dst, int(id))
	}
	return dst
}
