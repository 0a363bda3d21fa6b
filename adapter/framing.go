package adapter

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The bounds of DAP framing (docs/dap.md, "Framing"): whatever a client sends, a
// connection holds at most one header of maxHeader bytes and one body of maxBody.
const (
	maxHeader = 4 << 10
	maxBody   = 4 << 20
)

// frameError is a framing problem that ends the connection: the start of the next
// message is unknown. Its text is what the console output event says.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

// readMessage reads one base-protocol message, "Content-Length: N\r\n\r\n" and N
// bytes of body, with a bounded header and body. Unlike go-dap's reader it never
// buffers more than maxHeader bytes of header (a line with no "\r" is cut off
// there) and refuses a length that overflows or exceeds maxBody before allocating
// anything. A stream that ends before a message starts gives io.EOF; one cut
// within a message gives io.ErrUnexpectedEOF.
func readMessage(r *bufio.Reader) ([]byte, error) {
	var header []byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) && len(header) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if b == '\r' {
			break
		}
		if len(header) >= maxHeader {
			return nil, &frameError{fmt.Sprintf("message header over %d bytes", maxHeader)}
		}
		header = append(header, b)
	}
	var delim [3]byte
	if _, err := io.ReadFull(r, delim[:]); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if string(delim[:]) != "\n\r\n" {
		return nil, &frameError{`malformed message header: the delimiter is not "\r\n\r\n"`}
	}
	digits, ok := strings.CutPrefix(string(header), "Content-Length: ")
	if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return nil, &frameError{fmt.Sprintf("malformed message header: %q is not \"Content-Length: N\"", truncate(string(header), 64))}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > maxBody {
		return nil, &frameError{fmt.Sprintf("message body of %s bytes is over the %d MiB limit", truncate(digits, 32), maxBody>>20)}
	}
	content := make([]byte, n)
	if _, err := io.ReadFull(r, content); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return content, nil
}

// truncate cuts s to n bytes, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
