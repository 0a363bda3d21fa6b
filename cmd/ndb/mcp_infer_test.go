package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ndb-project/ndb/adapter/mcp"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/modelserver"
)

// mcpClient serves `ndb mcp` with args in process and connects the MCP SDK's client
// to it.
func mcpClient(t *testing.T, args ...string) *sdk.ClientSession {
	t.Helper()
	f, err := parseMCP(args)
	if err != nil {
		t.Fatalf("ndb mcp %v: %v", args, err)
	}
	srv := mcp.NewServer(f.cfg)
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait(); srv.Close() })
	return cs
}

// mcpTool calls a tool that must succeed and decodes its structured result into out.
func mcpTool(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: %v", tool, args, res.Content)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %s: %v", tool, b, err)
	}
}

// mcpNeural opens a neural session of count.py, steps into it n times and returns
// each state's line, with the number of sessions the model server at addr (if
// any) held while it was open.
func mcpNeural(t *testing.T, cs *sdk.ClientSession, addr string, n int) (lines []int, served int) {
	t.Helper()
	prog, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "programs", "count.py"))
	var start mcp.StartOutput
	mcpTool(t, cs, mcp.ToolStartSession, map[string]any{"program": prog, "entry": `count("berry", "r")`, "mode": "neural"}, &start)
	lines = append(lines, start.State.Line)
	for range n {
		var st mcp.GetStateOutput
		mcpTool(t, cs, mcp.ToolStep, map[string]any{"session": start.Session, "action": "step_into"}, &st)
		lines = append(lines, st.State.Line)
	}
	if addr != "" {
		c, err := modelserver.Dial(context.Background(), addr)
		if err != nil {
			t.Fatal(err)
		}
		var h modelserver.Hello
		if err := c.Call(context.Background(), modelserver.MethodHello, struct{}{}, &h); err != nil {
			t.Fatal(err)
		}
		c.Close()
		served = h.Sessions
	}
	var end map[string]any
	mcpTool(t, cs, mcp.ToolEndSession, map[string]any{"session": start.Session}, &end)
	return lines, served
}

// `ndb mcp --model-server ADDR` runs its neural sessions on the listening ndb-infer
// (the session is open there) and they predict what a pipe-started ndb-infer
// predicts; compare's predicted side goes there too.
func TestMCPThroughModelServer(t *testing.T) {
	bin := needInfer(t)
	if _, err := models.DefaultDir(); err != nil {
		t.Skip("no bundled model: ", err)
	}
	viaPipe, _ := mcpNeural(t, mcpClient(t), "", 4)
	addr := listenInfer(t, bin)
	cs := mcpClient(t, "--model-server", addr)
	viaTCP, served := mcpNeural(t, cs, addr, 4)
	if len(viaPipe) < 2 || fmt.Sprint(viaTCP) != fmt.Sprint(viaPipe) {
		t.Errorf("lines through --model-server %v, through a pipe %v", viaTCP, viaPipe)
	}
	if served != 1 {
		t.Errorf("the model server held %d sessions while the MCP session was open, want 1", served)
	}

	prog, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "programs", "count.py"))
	cmp := map[string]any{"program": prog, "entry": `count("berry", "r")`, "actions": []string{"step_into", "step_over", "step_over"}}
	var a, b mcp.CompareOutput
	mcpTool(t, mcpClient(t), mcp.ToolCompare, cmp, &a)
	mcpTool(t, cs, mcp.ToolCompare, cmp, &b)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("compare through --model-server:\n%s\nthrough a pipe:\n%s", jb, ja)
	}
}

// A "model" of a session is a folder on the model server's machine: ndb mcp does
// not look for it here, and the server's error names it.
func TestMCPModelServerModelIsTheServers(t *testing.T) {
	bin := needInfer(t)
	if _, err := parseMCP([]string{"--model-server", "127.0.0.1:1", "--model", "/on/the/server"}); err != nil {
		t.Errorf("--model with --model-server: %v", err)
	}
	if _, err := parseMCP([]string{"--model-server", "no-port"}); err == nil {
		t.Error("--model-server without a port was accepted")
	}
	addr := listenInfer(t, bin)
	cs := mcpClient(t, "--model-server", addr)
	prog, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "programs", "count.py"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: mcp.ToolStartSession,
		Arguments: map[string]any{"program": prog, "entry": `count("berry", "r")`, "model": "/no/such/checkpoint/on/the/server"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Content)
	if !res.IsError || !strings.Contains(string(b), "/no/such/checkpoint/on/the/server") {
		t.Errorf("a model the server does not have: %s", b)
	}
}
