package modelserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// BinaryName is the model server's binary.
const BinaryName = "ndb-infer"

// Pool keeps the process's connections to model servers: one child ndb-infer over
// a pipe, started on first use and kept for the process's life (restarted when it
// exited), and one connection per listening server dialled. Safe for concurrent use.
type Pool struct {
	// Binary is the ndb-infer to start; "" finds it (FindBinary).
	Binary string
	// Args are the child's arguments.
	Args []string
	// Timeout bounds each request (0: DefaultTimeout).
	Timeout time.Duration

	mu      sync.Mutex
	clients map[string]*Client // by address; "" is the child
}

// Default is the pool of the ndb process.
var Default = &Pool{}

// Get returns a live connection to the server at addr ("" is the child, started
// now if it is not running).
func (p *Pool) Get(ctx context.Context, addr string) (*Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.clients[addr]; c != nil {
		if c.Alive() {
			return c, nil
		}
		c.Close()
		delete(p.clients, addr)
	}
	var c *Client
	var err error
	if addr == "" {
		bin := p.Binary
		if bin == "" {
			if bin, err = FindBinary(); err != nil {
				return nil, err
			}
		}
		c, err = Start(ctx, bin, p.Args...)
	} else {
		c, err = Dial(ctx, addr)
	}
	if err != nil {
		return nil, err
	}
	c.Timeout = p.Timeout
	if p.clients == nil {
		p.clients = map[string]*Client{}
	}
	p.clients[addr] = c
	return c, nil
}

// Close ends every connection (and the child).
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for addr, c := range p.clients {
		errs = append(errs, c.Close())
		delete(p.clients, addr)
	}
	return errors.Join(errs...)
}

// FindBinary finds ndb-infer: $NDB_INFER, else beside the running executable, else
// on PATH.
func FindBinary() (string, error) {
	if b := os.Getenv("NDB_INFER"); b != "" {
		return b, nil
	}
	if exe, err := os.Executable(); err == nil {
		b := filepath.Join(filepath.Dir(exe), BinaryName)
		if st, err := os.Stat(b); err == nil && !st.IsDir() {
			return b, nil
		}
	}
	if b, err := exec.LookPath(BinaryName); err == nil {
		return b, nil
	}
	return "", fmt.Errorf("the neural backend needs %s, the model server: build it (make build) and keep it beside ndb, put it on PATH, set NDB_INFER, or use a running one (--model-server ADDR)", BinaryName)
}
