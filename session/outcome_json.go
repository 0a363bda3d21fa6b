package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/ndb-project/ndb/grammar"
)

// OutcomeJSON writes an outcome as `{"exit": ...}` or `{"event", "line", "source",
// "locals" (in order), "value"}`: locals keep their order, which a map would lose.
// gctx gives the source line. A predicted outcome adds "confidence": `{"state",
// "event", "line", "locals": {name: p, ...}, "value"}`, probabilities rounded to 3
// decimals.
func OutcomeJSON(gctx grammar.Context, o Outcome) json.RawMessage {
	q := func(v any) string {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		e.Encode(v)
		return string(bytes.TrimRight(b.Bytes(), "\n"))
	}
	c := o.Confidence
	p := func(f float64) string { return strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64) }
	if o.Ended() {
		conf := ""
		if c != nil {
			conf = fmt.Sprintf(`, "confidence": {"state": %s, "event": %s}`, p(c.State), p(c.Event))
		}
		return json.RawMessage(`{"exit": ` + q(string(o.Exit)) + conf + `}`)
	}
	s := o.State
	src, _ := gctx.Src(s.Loc)
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"event": %s, "line": %d, "source": %s`, q(s.Event.String()), s.Loc.Line, q(src))
	if s.Loc.File != "" {
		fmt.Fprintf(&b, `, "file": %s`, q(s.Loc.File))
	}
	if s.Event.HasLocals() {
		b.WriteString(`, "locals": {`)
		for i, v := range s.Locals {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q(v.Name) + ": " + q(v.Repr))
		}
		b.WriteString("}")
	}
	if s.Event.HasValue() {
		b.WriteString(`, "value": ` + q(s.Value))
	}
	if c != nil {
		fmt.Fprintf(&b, `, "confidence": {"state": %s, "event": %s, "line": %s`, p(c.State), p(c.Event), p(c.Line))
		if s.Event.HasLocals() {
			b.WriteString(`, "locals": {`)
			for i, v := range c.Vars {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(q(v.Name) + ": " + p(v.P))
			}
			b.WriteString("}")
		}
		if s.Event.HasValue() {
			b.WriteString(`, "value": ` + p(c.Value))
		}
		b.WriteString("}")
	}
	b.WriteString("}")
	return b.Bytes()
}
