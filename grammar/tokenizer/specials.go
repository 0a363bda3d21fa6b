package tokenizer

import (
	"sort"
	"strings"
)

// specialMatcher finds special tokens in text: leftmost match first, and of the
// matches starting there the longest (as Hugging Face's added-token matcher does).
type specialMatcher struct {
	// byFirst lists, for each first byte, the candidates, longest first.
	byFirst [256][]specialEntry
	// first is the common first byte of all special tokens, or -1 if there is none or
	// they differ.
	first int
	any   bool
}

type specialEntry struct {
	text string
	id   int32
}

func newSpecialMatcher(texts []string, ids []int32) specialMatcher {
	m := specialMatcher{first: -1}
	for i, s := range texts {
		c := s[0]
		m.byFirst[c] = append(m.byFirst[c], specialEntry{s, ids[i]})
		if !m.any {
			m.first = int(c)
		} else if m.first != int(c) {
			m.first = -1
		}
		m.any = true
	}
	for c := range m.byFirst {
		sort.SliceStable(m.byFirst[c], func(i, j int) bool {
			return len(m.byFirst[c][i].text) > len(m.byFirst[c][j].text)
		})
	}
	return m
}

// find returns the position, length and id of the first special token in s, or a
// negative position if there is none.
func (m *specialMatcher) find(s string) (pos, n int, id int32) {
	if !m.any {
		return -1, 0, 0
	}
	for i := 0; i < len(s); i++ {
		if m.first >= 0 {
			j := strings.IndexByte(s[i:], byte(m.first))
			if j < 0 {
				return -1, 0, 0
			}
			i += j
		}
		for _, e := range m.byFirst[s[i]] {
			if len(s)-i >= len(e.text) && s[i:i+len(e.text)] == e.text {
				return i, len(e.text), e.id
			}
		}
	}
	return -1, 0, 0
}
