package tokenizer

import (
	"fmt"
	"strings"
)

// byteToRune is GPT-2's bytes_to_unicode table: it maps every byte to a printable
// Unicode character, so that a token's bytes can be written as a readable string in a
// vocabulary file. The printable bytes '!'..'~', '¡'..'¬' and '®'..'ÿ' map to the
// character with the same code; the other 68 bytes, in increasing order, map to
// U+0100, U+0101, ... (so ' ' is 'Ġ' and '\n' is 'Ċ').
var byteToRune [256]rune

// runeToByte inverts byteToRune.
var runeToByte map[rune]byte

func init() {
	var printable [256]bool
	for _, r := range [][2]int{{'!', '~'}, {0xA1, 0xAC}, {0xAE, 0xFF}} {
		for b := r[0]; b <= r[1]; b++ {
			printable[b] = true
		}
	}
	n := 0
	runeToByte = make(map[rune]byte, 256)
	for b := 0; b < 256; b++ {
		if printable[b] {
			byteToRune[b] = rune(b)
		} else {
			byteToRune[b] = rune(256 + n)
			n++
		}
		runeToByte[byteToRune[b]] = byte(b)
	}
}

// byteLevelString writes raw bytes in the byte-level alphabet, as a vocabulary entry or
// a merge half of tokenizer.json.
func byteLevelString(raw []byte) string {
	var sb strings.Builder
	sb.Grow(2 * len(raw))
	for _, b := range raw {
		sb.WriteRune(byteToRune[b])
	}
	return sb.String()
}

// byteLevelBytes is the inverse of byteLevelString. It fails on a character outside the
// byte-level alphabet.
func byteLevelBytes(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		b, ok := runeToByte[r]
		if !ok {
			return nil, fmt.Errorf("%q: character %q is not in the byte-level alphabet", s, r)
		}
		out = append(out, b)
	}
	return out, nil
}
