package adapter

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/go-dap"
)

// ReverseStepCommand is ndb's custom request: a reverse step of a chosen kind.
//
//	{"command": "ndbReverseStep", "arguments": {"threadId": 1, "kind": "into"}}
//
// kind "into" is inv_step_into (the previous state, entering calls from their end),
// "over" is inv_step_over (the previous state of this frame, which is also what
// stepBack does) and "call" is inv_step_call (this call's inputs, as reverseContinue).
const ReverseStepCommand = "ndbReverseStep"

// ReverseStepRequest is the custom reverse-step request.
type ReverseStepRequest struct {
	dap.Request
	Arguments ReverseStepArguments `json:"arguments"`
}

// ReverseStepArguments are its arguments.
type ReverseStepArguments struct {
	ThreadId int    `json:"threadId,omitempty"`
	Kind     string `json:"kind"`
}

// ReverseStepResponse is its (empty) response.
type ReverseStepResponse struct {
	dap.Response
}

// GetRequest returns the embedded request.
func (r *ReverseStepRequest) GetRequest() *dap.Request { return &r.Request }

// GetResponse returns the embedded response.
func (r *ReverseStepResponse) GetResponse() *dap.Response { return &r.Response }

// codec decodes DAP messages, ndb's custom request included.
type codec struct{ *dap.Codec }

func newCodec() *codec {
	c := dap.NewCodec()
	if err := c.RegisterRequest(ReverseStepCommand,
		func() dap.Message { return &ReverseStepRequest{} },
		func() dap.Message { return &ReverseStepResponse{} }); err != nil {
		panic(err) // a programming error: the name is taken by the protocol
	}
	return &codec{c}
}

// envelope is what can be read of a message that does not decode: enough to address
// an error response to it.
type envelope struct {
	seq     int
	typ     string
	command string
	event   string
}

// readEnvelope reads seq, type, command and event from a JSON object, leniently:
// fields of the wrong type are left empty.
func readEnvelope(content []byte) (envelope, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(content, &m); err != nil {
		return envelope{}, false
	}
	var e envelope
	_ = json.Unmarshal(m["seq"], &e.seq)
	_ = json.Unmarshal(m["type"], &e.typ)
	_ = json.Unmarshal(m["command"], &e.command)
	_ = json.Unmarshal(m["event"], &e.event)
	return e, true
}

// decodeError says what is wrong with a message that did not decode, as the error
// that its error response carries.
func decodeError(content []byte, err error) (envelope, *requestError) {
	env, ok := readEnvelope(content)
	if !ok {
		return env, quietf(ErrMalformedMessage, "malformed message: not a JSON object: %v", err)
	}
	var fe *dap.DecodeProtocolMessageFieldError
	if errors.As(err, &fe) {
		switch {
		case fe.SubType == "Request" && fe.FieldName == "command":
			return env, errorf(ErrUnsupportedRequest, "unsupported request %q: ndb does not know it", fe.FieldValue)
		case fe.SubType == "ProtocolMessage":
			return env, quietf(ErrMalformedMessage, "malformed message: type %q is not request, response or event", fe.FieldValue)
		}
		return env, quietf(ErrMalformedMessage, "malformed message: %v", err)
	}
	if env.typ == "request" {
		return env, errorf(ErrBadArguments, "malformed %s request: %v", env.command, jsonProblem(err))
	}
	return env, quietf(ErrMalformedMessage, "malformed message: %v", jsonProblem(err))
}

// jsonProblem rewords encoding/json's errors for a DAP client.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q must be %s, not a JSON %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	return err.Error()
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int64", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return goKind
}
