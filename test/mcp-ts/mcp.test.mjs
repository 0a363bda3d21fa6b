// The TypeScript SDK's MCP client (@modelcontextprotocol/sdk, not ndb's code) drives
// `ndb mcp` over stdio: it lists the tools, runs a recorded and a neural session to
// the end, and checks that a neural session never runs the program.
//
// NDB_BIN is the ndb binary (default ../../bin/ndb). Run with `make mcp-test`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const ndb = process.env.NDB_BIN || join(root, "bin/ndb");
const countPy = join(root, "testdata/programs/count.py");
// A neural step runs the model on the CPU: allow it time (no test asserts a time).
const timeout = 600_000;

let client;
let scratch;

before(async () => {
  assert.ok(existsSync(ndb), `${ndb} is missing: run make build`);
  scratch = mkdtempSync(join(tmpdir(), "ndb-mcp-ts-"));
  client = new Client({ name: "ndb-ts-test", version: "0.0.0" });
  await client.connect(new StdioClientTransport({ command: ndb, args: ["mcp", "--workers", "1"], stderr: "inherit" }));
});

after(async () => {
  await client?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function call(name, args) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout });
  const text = res.content.filter((c) => c.type === "text").map((c) => c.text).join("");
  if (res.isError) {
    const err = new Error(`${name}: ${text}`);
    err.toolError = text;
    throw err;
  }
  assert.ok(res.structuredContent, `${name}: no structured content`);
  return { out: res.structuredContent, text };
}

test("lists the nine tools with schemas and annotations", async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ["compare", "end_session", "evaluate", "get_state", "predict", "run_to", "set_variable", "start_session", "step"]);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", t.name);
    assert.ok(t.outputSchema, `${t.name}: no output schema`);
    assert.ok(t.description, `${t.name}: no description`);
  }
  const step = tools.find((t) => t.name === "step");
  assert.ok(step.inputSchema.properties.action.enum.includes("inv_step_call"));
  assert.equal(tools.find((t) => t.name === "get_state").annotations.readOnlyHint, true);
  assert.equal(step.annotations.readOnlyHint, false);
});

test("a recorded session, to the end", async () => {
  const { out: started, text } = await call("start_session", { program: countPy, entry: 'count("berry", "r")', mode: "recorded", breakpoints: [5] });
  const id = started.session;
  assert.match(text, /^session ndb-[0-9a-f]+ \(recorded\)\nentry: call line 1 in count/);
  assert.deepEqual(started.state.locals[0], { name: "s", value: "'berry'" });

  let { out } = await call("step", { session: id, action: "step_into" });
  assert.equal(out.line, 2);
  ({ out } = await call("step", { session: id, action: "continue" }));
  assert.equal(out.stop, "breakpoint");
  assert.equal(out.line, 5);
  const { out: ev } = await call("evaluate", { session: id, expression: "c == t" });
  assert.equal(ev.value, "True");
  const { out: gs } = await call("get_state", { session: id });
  assert.deepEqual(gs.stack.map((f) => [f.function, f.line]), [["count", 5]]);
  ({ out } = await call("step", { session: id, action: "step_return" }));
  assert.equal(out.return, "2");
  ({ out } = await call("step", { session: id, action: "inv_step_call" }));
  assert.equal(out.event, "call");
  ({ out } = await call("run_to", { session: id, lines: [6] }));
  assert.equal(out.line, 6);
  ({ out } = await call("step", { session: id, action: "step_over" }));
  assert.equal(out.event, "return");
  ({ out } = await call("step", { session: id, action: "step_over" }));
  assert.equal(out.exit, "normal");

  await assert.rejects(call("set_variable", { session: id, name: "n", value: "1" }), (e) => /neural or compare session/.test(e.toolError));
  await call("end_session", { session: id });
  await assert.rejects(call("get_state", { session: id }), (e) => /unknown session/.test(e.toolError));
});

test("a neural session, to the end, never runs the program", async (t) => {
  const marker = join(scratch, "written.txt");
  const prog = join(scratch, "writes.py");
  writeFileSync(prog, `def save(path, n):\n    total = 0\n    for i in range(n):\n        total += i\n    open(path, "w").write(str(total))\n    return total\n`);
  const { out: started } = await call("start_session", { program: prog, entry: `save(${JSON.stringify(marker)}, 3)` });
  const id = started.session;
  assert.equal(started.state.event, "call");
  let state = started.state;
  // The model predicts each state: three steps, then continue until it predicts
  // the exit (a small model may need several).
  for (let i = 0; !state.exit && i < 40; i++) {
    const r = await call("step", { session: id, action: i < 3 ? "step_over" : "continue" });
    state = r.out;
    t.diagnostic(r.text.split("\n")[0]);
  }
  assert.ok(state.exit, "the neural session did not reach the exit in 40 steps");
  const { text } = await call("get_state", { session: id });
  t.diagnostic(text);
  await call("end_session", { session: id });
  assert.equal(existsSync(marker), false, "the neural session ran the program: it wrote its file");
});

test("bad input is a tool error that says what to fix", async () => {
  await assert.rejects(call("step", { session: "ndb-nope", action: "step_into" }), (e) => /unknown session "ndb-nope".*start_session/.test(e.toolError));
  await assert.rejects(call("start_session", { program: join(scratch, "missing.py"), mode: "recorded" }), (e) => /does not exist/.test(e.toolError));
  const res = await client.callTool({ name: "step", arguments: { session: "x", action: "fly" } });
  assert.equal(res.isError, true);
});
