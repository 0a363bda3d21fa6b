package adapter

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-dap"
)

// framingAbuses are inputs that end a connection with a console message: a header
// line longer than 4 KiB (no "\r" at all), a Content-Length that overflows int64,
// and one over the 4 MiB cap.
var framingAbuses = []struct{ name, input, console string }{
	{"long header", strings.Repeat("C", 5<<10), "message header over 4096 bytes"},
	{"overflowing length", "Content-Length: 9223372036854775808\r\n\r\n{}", "message body of 9223372036854775808 bytes is over the 4 MiB limit"},
	{"length over the cap", "Content-Length: " + strconv.Itoa(4<<20+1) + "\r\n\r\n{}", "message body of 4194305 bytes is over the 4 MiB limit"},
}

func TestFramingLimitsEndTheConnection(t *testing.T) {
	for _, transport := range []string{"stdio", "tcp"} {
		for _, abuse := range framingAbuses {
			t.Run(transport+"/"+abuse.name, func(t *testing.T) {
				var c *client
				if transport == "stdio" {
					c = stdioClient(t)
				} else {
					c = tcpClient(t, tcpServer(t, testConfig(t)))
				}
				c.initialize()
				expect[*dap.InitializeResponse](c)
				go func() { _, _ = io.WriteString(c.conn, abuse.input) }() // the server stops reading
				want := "ndb: " + abuse.console + ": closing the connection\n"
				if out := c.expectOutput("console"); out != want {
					t.Errorf("console %q, want %q", out, want)
				}
				c.expectClosed()
			})
		}
	}
}

// stdioClient serves one client through ServeStdio over real pipes.
func stdioClient(t *testing.T) *client {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(testConfig(t))
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	})
	return newClient(t, struct {
		io.Reader
		io.Writer
		io.Closer
	}{outR, inW, inW})
}

// A flood of 1,000 TCP connections, each sending 256 KiB of a header line with no
// "\r" (250 MiB in all), leaves the server's memory flat: each connection is cut at
// 4 KiB. (Before the bound, every connection buffered all it was sent.) The bound
// of the test leaves room for the race detector's own memory.
func TestFramingFloodKeepsMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 connections")
	}
	addr := tcpServer(t, testConfig(t))
	flood := []byte(strings.Repeat("C", 256<<10))
	runtime.GC()
	debug.FreeOSMemory()
	before := rssKiB(t)
	conns := make([]net.Conn, 0, 1000)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 1000 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("after %d connections: %v", len(conns), err)
		}
		conns = append(conns, c)
		_, _ = c.Write(flood) // the server may have cut it already
	}
	// Every connection is ended by the server (after its console message).
	deadline := time.Now().Add(30 * time.Second)
	for i, c := range conns {
		_ = c.SetReadDeadline(deadline)
		if _, err := io.Copy(io.Discard, bufio.NewReader(c)); err != nil && !isReset(err) {
			t.Fatalf("connection %d was not ended by the server: %v", i, err)
		}
	}
	after := rssKiB(t)
	t.Logf("RSS %d KiB before, %d KiB after 1,000 flooded connections (256 KiB each)", before, after)
	if grew := after - before; grew > 64<<10 {
		t.Errorf("RSS grew by %d MiB under 1,000 header floods", grew>>10)
	}
}

// isReset tells a connection the server reset (it closed with unread input).
func isReset(err error) bool {
	return strings.Contains(err.Error(), "connection reset")
}

// rssKiB is the resident memory of this process.
func rssKiB(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	t.Skip("no VmRSS")
	return 0
}
