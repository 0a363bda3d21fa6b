package grammar

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/internal/fuzzwatch"
)

// fuzzContext is the context FuzzDecodeNext decodes against: the spec's function and a
// line holding special-token text.
var fuzzContext = NewContext("", countSource+"x = '<|frame_sep|>'  \n\n")

// fuzzPrevs are the previous states FuzzDecodeNext picks from.
var fuzzPrevs = []*State{
	nil,
	{Event: EventCall, Loc: Loc{Line: 1}, Locals: Locals{{"s", "'berry'"}, {"t", "'r'"}}, Frame: 1},
	{Event: EventLine, Loc: Loc{Line: 3}, Locals: Locals{{"s", "'berry'"}, {"t", "'r'"}, {"n", "0"}}, Frame: 1},
	{Event: EventLine, Loc: Loc{Line: 2}, Locals: Locals{}, Frame: 2},
	{Event: EventReturn, Loc: Loc{Line: 6}, Value: "2", Frame: 1},
}

// manyLocals is a line state with n distinct variables.
func manyLocals(n int) string {
	var b strings.Builder
	b.WriteString(TokenLineSep + "{")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"v` + strconv.Itoa(i) + `": "` + strconv.Itoa(i) + `"`)
	}
	b.WriteString("}" + TokenSrcSep + "  2|     n = 0" + TokenFrameSep)
	return b.String()
}

func FuzzDecodeNext(f *testing.F) {
	r := rand.New(rand.NewPCG(13, 14))
	locs := fuzzContext.Lines()
	for i := range 200 {
		prev := fuzzPrevs[1+i%(len(fuzzPrevs)-1)]
		e := NewEncoder(fuzzContext, Forward)
		if _, err := e.Start(*prev); err != nil {
			f.Fatal(err)
		}
		e.Action(Action{Kind: StepInto})
		s := State{Event: []Event{EventCall, EventLine, EventLine, EventReturn, EventException}[r.IntN(5)], Loc: locs[r.IntN(len(locs))], Frame: prev.Frame}
		if s.Event.HasLocals() {
			s.Locals = randomLocals(r, prev.Locals)
		} else {
			s.Value = randomString(r)
		}
		text, err := e.State(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(1+i%(len(fuzzPrevs)-1)), text)
	}
	f.Add(uint8(0), "<|exit_sep|>never<|frame_sep|>")
	// Super-linear once: the duplicate-name check of a locals object (1.2 s for
	// 16,000 variables; fuzzwatch), kept as a seed.
	f.Add(uint8(2), manyLocals(5000))
	f.Add(uint8(0), "<|inv_line_call_sep|><|src_sep|>  7| x = '<|frame_sep|>'<|frame_sep|>")
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		defer fuzzwatch.Watch(func() string { return text })()
		prev := fuzzPrevs[int(which)%len(fuzzPrevs)]
		s, x, n, err := DecodeNext(fuzzContext, prev, text)
		if err != nil {
			de, ok := err.(*DecodeError)
			if !ok || de.Offset < 0 || de.Offset > len(text) {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		if n <= 0 || n > len(text) || !strings.HasSuffix(text[:n], TokenFrameSep) {
			t.Fatalf("consumed %d of %q", n, text)
		}
		// The decoded state does not depend on what follows it.
		s2, x2, n2, err := DecodeNext(fuzzContext, prev, text[:n])
		if err != nil || n2 != n || x2 != x || !s2.Equal(s) {
			t.Fatalf("decoding the consumed part alone: %v", err)
		}
		// Re-encoding the state after prev and decoding it again gives it back.
		dir, act := Forward, Action{Kind: StepInto}
		if s.Event == EventInvLineCall {
			dir, act = Inverse, Action{Kind: InvStepInto}
		}
		start := State{Event: EventReturn, Loc: Loc{Line: 6}}
		if prev != nil {
			start = *prev
		}
		e := NewEncoder(fuzzContext, dir)
		if _, err := e.Start(start); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Action(act); err != nil {
			t.Fatal(err)
		}
		var again string
		if x != "" {
			again, err = e.Exit(x)
		} else {
			again, err = e.State(s)
		}
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", s, err)
		}
		s3, x3, n3, err := DecodeNext(fuzzContext, &start, again)
		if err != nil || n3 != len(again) || x3 != x || !s3.Equal(s) {
			t.Fatalf("re-encoded %q decodes as %+v %v", again, s3, err)
		}
	})
}

func FuzzDecodeTrajectory(f *testing.F) {
	f.Add(specExample)
	r := rand.New(rand.NewPCG(15, 16))
	for range 100 {
		text, err := EncodeTrajectory(randomTrajectory(r))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tr, err := DecodeTrajectory(text)
		if err != nil {
			de, ok := err.(*DecodeError)
			if !ok || de.Offset < 0 || de.Offset > len(text) {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		again, err := EncodeTrajectory(tr)
		if err != nil {
			t.Fatalf("a decoded trajectory does not encode: %v", err)
		}
		back, err := DecodeTrajectory(again)
		if err != nil || !back.Equal(tr) {
			t.Fatalf("re-encoded %q decodes differently: %v", again, err)
		}
	})
}
