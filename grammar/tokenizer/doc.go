// Package tokenizer is a byte-level BPE tokenizer for ndb's trajectory language, in pure
// Go.
//
// It works like GPT-2's tokenizer (Hugging Face's ByteLevel BPE): every byte is a token
// of its own, so any byte string can be encoded, and merges learned from pair
// frequencies build larger tokens. Text is first split on special tokens (grammar's
// SpecialTokens, each always a single token, never split and never merged with its
// neighbours), then into pre-tokens by a GPT-style pattern tuned for the language (see
// Pattern), and merges never cross a pre-token boundary.
//
// Train learns a tokenizer from text; Encode, EncodeOrdinary and Decode convert between
// text and token ids, with Decode(Encode(s)) == s for every string s, valid UTF-8 or not;
// Save and Load read and write Hugging Face's tokenizer.json format, the form Python's
// tokenizers library reads (tests check the file with a plain Python reimplementation
// of that library's tokenization; the library itself is not available here).
//
// Encode turns special-token text into the special token, as training text needs.
// Program source or a repr may contain such text too (see grammar.ContainsSpecialToken);
// where it must stay ordinary text, encode that part with EncodeOrdinary and add the
// special tokens around it by id (TokenID).
//
// A Tokenizer is safe for concurrent use.
package tokenizer
