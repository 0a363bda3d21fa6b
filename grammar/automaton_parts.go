package grammar

// StatePart is a part of a state, as per-part confidence counts it: which part a
// token of the state's text writes.
type StatePart uint8

const (
	PartEvent  StatePart = iota // the event word, or the exit word
	PartLine                    // the SRC line (and its separator)
	PartName                    // a locals entry's key and separators, the braces
	PartValue                   // a locals entry's value
	PartReturn                  // the value after <|arg_sep|> (a return or exception)
)

// AutomatonMark is where an automaton stood before a token: TokenPart classifies
// the token fed since.
type AutomatonMark struct {
	ph      phase
	entries int
}

// Mark records where a stands now, before the next token.
func (a *Automaton) Mark() AutomatonMark { return AutomatonMark{ph: a.phase, entries: a.entries} }

// TokenPart classifies the token fed since m (first: its first byte, 0 for a
// special token): the part of the state it writes, and the locals entry it writes
// (0-based, in the text's order; -1 for a token outside the entries: the event, the
// line, the value, the '}' that closes the object).
func (a *Automaton) TokenPart(m AutomatonMark, first byte) (StatePart, int) {
	entries, after := m.entries, a.entries
	switch m.ph {
	case phEvent, phExit:
		return PartEvent, -1
	case phSrcSep, phSrc:
		return PartLine, -1
	case phArgOpen, phArgStr, phFrame:
		return PartReturn, -1
	case phValOpen, phVal:
		return PartValue, entries - 1
	case phKey, phColon, phColonSp, phMarker:
		return PartName, entries - 1
	case phCommaSp, phKeyOpen:
		return PartName, entries // the next entry's separator or opening quote
	}
	// phObjOpen, phObjFirst, phAfterVal: '{', or whether another variable follows.
	if after > entries || (m.ph == phAfterVal && first == ',') {
		return PartName, entries
	}
	return PartName, -1 // '}': there are no more variables
}

// EntryNames returns the keys a wrote, in order, the diff marker included (last).
func (a *Automaton) EntryNames() []string {
	out := make([]string, 0, a.entries)
	for _, n := range a.names {
		k, err := UnquoteJSON(`"` + string(a.keys[n[0]:n[1]]) + `"`)
		if err != nil {
			k = string(a.keys[n[0]:n[1]])
		}
		out = append(out, k)
	}
	if a.entries > len(a.names) {
		out = append(out, DiffMarkerKey)
	}
	return out
}
