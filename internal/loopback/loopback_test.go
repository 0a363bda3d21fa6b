package loopback

import (
	"bytes"
	"strings"
	"testing"
)

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:4711":       true,
		"127.8.9.10:1":         true,
		"localhost:4711":       true,
		"LOCALHOST:4711":       true,
		"[::1]:4711":           true,
		"0.0.0.0:4711":         false,
		"[::]:4711":            false,
		":4711":                false,
		"192.168.1.5:4711":     false,
		"example.com:4711":     false,
		"[::ffff:127.0.0.1]:1": true,
	} {
		got, err := IsLoopback(addr)
		if err != nil || got != want {
			t.Errorf("IsLoopback(%q) = %v, %v; want %v", addr, got, err, want)
		}
	}
	if _, err := IsLoopback("no-port"); err == nil {
		t.Error("an address without a port was accepted")
	}
}

func TestCheck(t *testing.T) {
	var warn bytes.Buffer
	if err := Check("ndb dap", "127.0.0.1:4711", false, &warn); err != nil || warn.Len() > 0 {
		t.Errorf("loopback: %v, warning %q", err, warn.String())
	}
	err := Check("ndb dap", "0.0.0.0:4711", false, &warn)
	if err == nil || !strings.Contains(err.Error(), Flag) || warn.Len() > 0 {
		t.Errorf("0.0.0.0 without %s: %v, warning %q", Flag, err, warn.String())
	}
	if err := Check("ndb dap", "0.0.0.0:4711", true, &warn); err != nil {
		t.Errorf("0.0.0.0 with %s: %v", Flag, err)
	}
	if !strings.Contains(warn.String(), "WARNING") || !strings.Contains(warn.String(), "run code") {
		t.Errorf("warning %q", warn.String())
	}
}

func TestAddr(t *testing.T) {
	for in, want := range map[string]string{
		"7070":          "127.0.0.1:7070",
		":7070":         "127.0.0.1:7070",
		"0.0.0.0:7070":  "0.0.0.0:7070",
		"gpu-box:7070":  "gpu-box:7070",
		" 127.0.0.1:0 ": "127.0.0.1:0",
		"[::1]:7070":    "[::1]:7070",
	} {
		if got, err := Addr(in); err != nil || got != want {
			t.Errorf("Addr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "host:port", "99999", "host"} {
		if got, err := Addr(bad); err == nil {
			t.Errorf("Addr(%q) = %q, want an error", bad, got)
		}
	}
}

// The model server's refusal and warning name its own risk, not recorded mode's.
func TestCheckRisk(t *testing.T) {
	var warn bytes.Buffer
	err := CheckRisk("ndb-infer", "0.0.0.0:7070", false, RiskModelServer, &warn)
	if err == nil || !strings.Contains(err.Error(), RiskModelServer) || strings.Contains(err.Error(), "recorded mode") {
		t.Errorf("refusal: %v", err)
	}
	if err := CheckRisk("ndb-infer", "0.0.0.0:7070", true, RiskModelServer, &warn); err != nil {
		t.Fatal(err)
	}
	if w := warn.String(); !strings.HasPrefix(w, "ndb-infer: WARNING") || !strings.Contains(w, RiskModelServer) {
		t.Errorf("warning %q", w)
	}
}
