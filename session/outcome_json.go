package session

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
)

// OutcomeJSON writes an outcome as `{"exit": ...}` or `{"event", "line", "source",
// "locals" (in order), "value"}`: locals keep their order, which a map would lose.
// gctx gives the source line.
func OutcomeJSON(gctx grammar.Context, o Outcome) json.RawMessage {
	q := func(v any) string {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		e.Encode(v)
		return string(bytes.TrimRight(b.Bytes(), "\n"))
	}
	if o.Ended() {
		return json.RawMessage(`{"exit": ` + q(string(o.Exit)) + `}`)
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
	b.WriteString("}")
	return b.Bytes()
}
