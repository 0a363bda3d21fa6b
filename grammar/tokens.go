package grammar

import "strings"

// The special tokens of spec section 5. Each one is a single token for the tokenizer.
const (
	TokenTraceContextStart = "<|trace_context_start|>"
	TokenFrameSep          = "<|frame_sep|>"
	TokenActionSep         = "<|action_sep|>"
	TokenSrcSep            = "<|src_sep|>"
	TokenArgSep            = "<|arg_sep|>"
	TokenCallSep           = "<|call_sep|>"
	TokenLineSep           = "<|line_sep|>"
	TokenReturnSep         = "<|return_sep|>"
	TokenExceptionSep      = "<|exception_sep|>"
	TokenInvLineCallSep    = "<|inv_line_call_sep|>"
	TokenStepInto          = "<|step_into|>"
	TokenStepOver          = "<|step_over|>"
	TokenStepReturn        = "<|step_return|>"
	TokenBreakpoint        = "<|breakpoint|>"
	TokenContinue          = "<|continue|>"
	TokenInvStepInto       = "<|inv_step_into|>"
	TokenInvStepOver       = "<|inv_step_over|>"
	TokenInvStepCall       = "<|inv_step_call|>"
	TokenExitSep           = "<|exit_sep|>"
	TokenForward           = "<|forward|>"
	TokenInverse           = "<|inverse|>"
)

// SpecialTokens lists every special token, in the order of spec section 5.
var SpecialTokens = []string{
	TokenTraceContextStart, TokenFrameSep, TokenActionSep, TokenSrcSep, TokenArgSep,
	TokenCallSep, TokenLineSep, TokenReturnSep, TokenExceptionSep, TokenInvLineCallSep,
	TokenStepInto, TokenStepOver, TokenStepReturn, TokenBreakpoint, TokenContinue,
	TokenInvStepInto, TokenInvStepOver, TokenInvStepCall,
	TokenExitSep, TokenForward, TokenInverse,
}

// IsSpecialToken reports whether s is exactly one of the special tokens.
func IsSpecialToken(s string) bool {
	for _, t := range SpecialTokens {
		if s == t {
			return true
		}
	}
	return false
}

// ContainsSpecialToken reports whether s contains the text of a special token. Such text
// can occur in program source or in a repr; the grammar handles it (SRC is matched
// against the context, JSON strings are parsed structurally), but a tokenizer must not
// turn it into the special token itself.
func ContainsSpecialToken(s string) bool {
	if !strings.Contains(s, "<|") {
		return false
	}
	for _, t := range SpecialTokens {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}

var actionTokens = map[ActionKind]string{
	StepInto:    TokenStepInto,
	StepOver:    TokenStepOver,
	StepReturn:  TokenStepReturn,
	Breakpoint:  TokenBreakpoint,
	Continue:    TokenContinue,
	InvStepInto: TokenInvStepInto,
	InvStepOver: TokenInvStepOver,
	InvStepCall: TokenInvStepCall,
}

// Token returns the special token of the action kind, or "" for an invalid kind.
func (k ActionKind) Token() string { return actionTokens[k] }

// ActionKindOfToken maps a special token to its action kind.
func ActionKindOfToken(tok string) (ActionKind, bool) {
	for k, t := range actionTokens {
		if t == tok {
			return k, true
		}
	}
	return 0, false
}

var eventTokens = map[Event]string{
	EventCall:        TokenCallSep,
	EventLine:        TokenLineSep,
	EventReturn:      TokenReturnSep,
	EventException:   TokenExceptionSep,
	EventInvLineCall: TokenInvLineCallSep,
}

// Token returns the separator token that opens a state of this event, or "" for an
// invalid event.
func (e Event) Token() string { return eventTokens[e] }

// EventOfToken maps a state's separator token to its event.
func EventOfToken(tok string) (Event, bool) {
	for e, t := range eventTokens {
		if t == tok {
			return e, true
		}
	}
	return 0, false
}

// Token returns the direction's token (<|forward|> or <|inverse|>), or "" for an
// invalid direction.
func (d Direction) Token() string {
	switch d {
	case Forward:
		return TokenForward
	case Inverse:
		return TokenInverse
	}
	return ""
}

// DirectionOfToken maps <|forward|> or <|inverse|> to its direction.
func DirectionOfToken(tok string) (Direction, bool) {
	switch tok {
	case TokenForward:
		return Forward, true
	case TokenInverse:
		return Inverse, true
	}
	return 0, false
}

// String returns "forward" or "inverse" ("invalid" otherwise).
func (d Direction) String() string {
	switch d {
	case Forward:
		return "forward"
	case Inverse:
		return "inverse"
	}
	return "invalid"
}

// Valid reports whether d is Forward or Inverse.
func (d Direction) Valid() bool { return d == Forward || d == Inverse }
