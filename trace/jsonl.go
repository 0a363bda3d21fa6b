package trace

import (
	"bufio"
	"encoding/json"
	"io"
)

// WriteJSONL writes the raw events as JSON lines (`ndb trace`), then one line with
// the exit status, the exception and the captured output.
func (r TraceResult) WriteJSONL(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, e := range r.Events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	end := struct {
		Status    string `json:"status"`
		Exception string `json:"exception,omitempty"`
		Output    string `json:"output"`
	}{string(r.Status), r.Exception, r.Output}
	if err := enc.Encode(end); err != nil {
		return err
	}
	return bw.Flush()
}
