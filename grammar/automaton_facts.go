package grammar

import "slices"

// This file narrows the automaton by the program facts (Targets): as the state is
// written, the event leaves the code objects that allow a state of that event; each
// variable name must be (a prefix of) a name of one of them, which narrows them
// further; a call state's keys are the parameters in order, then free variables; and
// SRC must lead to a line the targets allow for a code object still in play.

// lineAllowed reports whether line is allowed for the event and codes in play.
func (a *Automaton) lineAllowed(line int) bool {
	if a.tg == nil {
		return true
	}
	tin, ok := a.tg.p.lineTin[line]
	if !ok {
		return false
	}
	return a.anyTinIn(tin, tin+1)
}

// underAllowed reports whether some allowed line's SRC continues through trie node n.
func (a *Automaton) underAllowed(n int32) bool {
	nd := &a.src.nodes[n]
	return a.anyTinIn(nd.tin, nd.tout)
}

// anyTinIn reports whether an allowed line's SRC end has a tin in [lo, hi).
func (a *Automaton) anyTinIn(lo, hi int32) bool {
	for c, ts := range a.tg.tins[a.ev] {
		if !a.alive.has(c) {
			continue
		}
		i, _ := slices.BinarySearch(ts, lo)
		if i < len(ts) && ts[i] < hi {
			return true
		}
	}
	return false
}

// allowedLinesUnder returns up to two allowed lines whose SRC continues through node n,
// in SRC order, and how many there are (counting at most to 2).
func (a *Automaton) allowedLinesUnder(n int32) (lines [2]int, count int) {
	nd := &a.src.nodes[n]
	best := [2]int32{-1, -1}
	for c, ts := range a.tg.tins[a.ev] {
		if !a.alive.has(c) {
			continue
		}
		i, _ := slices.BinarySearch(ts, nd.tin)
		for ; i < len(ts) && ts[i] < nd.tout; i++ {
			t := ts[i]
			if t == best[0] || t == best[1] {
				continue
			}
			switch {
			case best[0] < 0 || t < best[0]:
				best[1], best[0] = best[0], t
			case best[1] < 0 || t < best[1]:
				best[1] = t
			}
		}
	}
	for k, t := range best {
		if t < 0 {
			continue
		}
		count++
		lines[k] = a.tg.p.lineOfTin(t)
	}
	return lines, count
}

// lineOfTin returns the line whose SRC ends at the node numbered t.
func (p *Program) lineOfTin(t int32) int {
	for l, x := range p.lineTin {
		if x == t {
			return l
		}
	}
	return 0
}

// keyByteOK reports whether byte c may extend the key being written: the key must
// stay a prefix of the diff marker or of a name, not yet written, of a code object in
// play (for a call state: the next parameter, then a free variable), so that a key
// begun can always be finished.
func (a *Automaton) keyByteOK(c byte) bool {
	p := a.tg.p
	if !a.alive.and(p.openNames).empty() {
		a.nameNode = -1
		return true
	}
	key := append(a.keys[a.keyStart:], c) // where byteOK appends it next
	if a.markerAllowed() && len(key) <= len(DiffMarkerKey) && string(key) == DiffMarkerKey[:len(key)] {
		return true // the trie walk below is only a quick reject
	}
	if a.nameNode < 0 {
		return false
	}
	n := p.names.child(a.nameNode, c)
	if n < 0 || p.nameCodes[n].and(a.alive).empty() {
		return false
	}
	a.nameNode = n
	return a.keyCompletes(string(key))
}

// keyCompletes reports whether some name a code in play can still write begins with
// key.
func (a *Automaton) keyCompletes(key string) bool {
	p := a.tg.p
	if r := a.rule(); r != nil {
		for _, n := range r.keys {
			if len(n) >= len(key) && n[:len(key)] == key && !a.used(n) {
				return true
			}
		}
		return false
	}
	for c := range p.f.Codes {
		if !a.alive.has(c) {
			continue
		}
		cands := p.namesJSON[c]
		if a.ev == EventCall && !p.loose.has(c) {
			if k := len(a.names); k < len(p.paramsJSON[c]) {
				cands = p.paramsJSON[c][k : k+1]
			} else {
				cands = p.freeJSON[c]
			}
		}
		for _, n := range cands {
			if len(n) >= len(key) && n[:len(key)] == key && !a.used(n) {
				return true
			}
		}
	}
	return false
}

// used reports whether name was written as a key already.
func (a *Automaton) used(name string) bool {
	for _, n := range a.names {
		if string(a.keys[n[0]:n[1]]) == name {
			return true
		}
	}
	return false
}

// keyDone narrows the codes in play by the finished key (not the diff marker) and
// reports whether any is left.
func (a *Automaton) keyDone(key []byte) bool {
	p := a.tg.p
	open := a.alive.and(p.openNames)
	var named codeSet
	if a.nameNode >= 0 {
		named = p.nameTerm[a.nameNode].and(a.alive)
	}
	alive := named.or(open)
	if a.ev == EventCall {
		k := len(a.names) // this key's index
		var ok codeSet
		for c := range p.f.Codes {
			if !alive.has(c) {
				continue
			}
			cf := &p.f.Codes[c]
			if p.loose.has(c) || (k < len(cf.Params) && p.paramsJSON[c][k] == string(key)) ||
				(k >= len(cf.Params) && slices.Contains(p.freeJSON[c], string(key))) {
				ok.add(c)
			}
		}
		alive = ok
	}
	if alive.empty() {
		return false
	}
	a.alive = alive
	return true
}

// closeOK reports whether the locals object may close here: a call state needs all
// of its parameters.
func (a *Automaton) closeOK() bool {
	if r := a.rule(); r != nil && (r.mustMarker || a.missingKey() != "" || a.missingPresent() != "") && len(a.names) < a.lim.MaxVars {
		return false // (at the limit of variables nothing can follow: close)
	}
	if a.tg == nil || a.ev != EventCall {
		return true
	}
	p := a.tg.p
	var ok codeSet
	for c := range p.f.Codes {
		if a.alive.has(c) && (p.loose.has(c) || len(a.names) >= len(p.f.Codes[c].Params)) {
			ok.add(c)
		}
	}
	if ok.empty() {
		return false
	}
	a.alive = ok
	return true
}

// moreOK reports whether another entry may follow in the locals object (or begin it):
// a name of a code in play is left to write, or the diff marker.
func (a *Automaton) moreOK() bool {
	if a.tg == nil {
		return true
	}
	if !a.alive.and(a.tg.p.openNames).empty() || a.markerAllowed() {
		return true
	}
	return a.keyCompletes("")
}

// srcCompletion returns the rest of an allowed SRC line from where the automaton
// stands (prefer's line when it is one of them), or false when none is left.
func (a *Automaton) srcCompletion(prefer string) (string, bool) {
	if loc, ok := a.tg.p.ctx.Lookup(prefer); ok && a.srcN <= len(prefer) && a.lineAllowed(loc.Line) {
		if n := a.src.find(prefer[:a.srcN]); n == a.node {
			return prefer[a.srcN:], true
		}
	}
	lines, n := a.allowedLinesUnder(a.node)
	if n == 0 {
		return "", false
	}
	return a.tg.p.srcText[lines[0]][a.srcN:], true
}

// markerAllowed reports whether the diff marker may be written: a line state in the
// frame of the previous state, so in one of its code objects.
func (a *Automaton) markerAllowed() bool {
	if r := a.rule(); r != nil && (r.noMarker || a.missingKey() != "") {
		return false
	}
	return a.markerOK && a.ev == EventLine && (a.tg == nil || !a.alive.and(a.tg.prev).empty())
}

// missingKey returns a key the locals rule requires that is not written yet, or "".
func (a *Automaton) missingKey() string {
	if r := a.rule(); r != nil {
		return a.unwritten(r.required)
	}
	return ""
}

// missingPresent returns a key the full form must have that is not written yet, or "".
func (a *Automaton) missingPresent() string {
	if r := a.rule(); r != nil {
		return a.unwritten(r.present)
	}
	return ""
}

// unwritten returns the first of keys not written yet, or "".
func (a *Automaton) unwritten(keys []string) string {
	for _, k := range keys {
		if !a.used(k) {
			return k
		}
	}
	return ""
}

// missingParam returns the next parameter a call state must still write (for a
// forced close), when the object cannot close yet.
func (a *Automaton) missingParam() (string, bool) {
	if a.tg == nil || a.ev != EventCall {
		return "", false
	}
	c := *a
	if c.closeOK() {
		return "", false
	}
	p := a.tg.p
	for i := range p.f.Codes {
		if a.alive.has(i) && !p.loose.has(i) && len(a.names) < len(p.paramsJSON[i]) {
			return p.paramsJSON[i][len(a.names)], true
		}
	}
	return "", false
}
