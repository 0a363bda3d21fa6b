#!/usr/bin/env python3
"""Times ndb as a user meets it (issue 19): `ndb` with no arguments, a recorded
20-step DAP session over stdio (launch to first stop, then 20 stepIn with the
stack and locals each), and a neural launch to its first stop. Each figure is the
median of --runs runs; memory is the peak RSS of the largest process the run
started (ru_maxrss of the children, so ndb-infer counts when ndb waited for it).

usage: server-figures.py BIN [BIN...] [--runs N] [--model-server ADDR]
Several binaries (before and after) are measured side by side, their runs
interleaved so that the machine's load falls on each alike.
"""
import json, os, resource, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROG = os.path.join(ROOT, "testdata", "programs", "count.py")


class DAP:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.seq = 0

    def send(self, command, args=None):
        self.seq += 1
        body = json.dumps({"seq": self.seq, "type": "request", "command": command, "arguments": args or {}}).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()
        return self.seq

    def read(self):
        n = 0
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("ndb dap closed")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(n))

    def wait(self, kind, name):
        while True:
            m = self.read()
            if m["type"] == kind and m.get("event" if kind == "event" else "command") == name:
                if kind == "response" and not m.get("success"):
                    raise RuntimeError(m.get("message"))
                return m

    def request(self, command, args=None):
        self.send(command, args)
        return self.wait("response", command)

    def close(self):
        try:
            self.request("disconnect")
        except Exception:
            pass
        self.p.stdin.close()
        self.p.wait()


def session(bin, mode, steps, extra):
    t0 = time.monotonic()
    d = DAP([bin, "dap"] + extra)
    d.request("initialize", {"adapterID": "ndb"})
    args = {"program": PROG, "entry": 'count("strawberry", "r")', "mode": mode, "stopOnEntry": True}
    d.send("launch", args)
    d.wait("event", "initialized")
    d.request("configurationDone")
    d.wait("event", "stopped")
    first = time.monotonic() - t0
    for _ in range(steps):
        d.send("stepIn", {"threadId": 1})
        m = d.read()
        while not (m["type"] == "event" and m.get("event") in ("stopped", "terminated")):
            m = d.read()
        if m.get("event") == "terminated":
            break
        st = d.request("stackTrace", {"threadId": 1})
        fid = st["body"]["stackFrames"][0]["id"]
        sc = d.request("scopes", {"frameId": fid})
        d.request("variables", {"variablesReference": sc["body"]["scopes"][0]["variablesReference"]})
    d.close()
    return first, time.monotonic() - t0


def rss_of(fn):
    """Runs fn in a forked child so that ru_maxrss is this run's alone."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        out = fn()
        os.write(w, json.dumps([out, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.waitpid(pid, 0)
    out, kb = json.loads(data)
    return out, kb / 1024


def figure(name, fns, runs):
    """Runs each binary's fn runs times, interleaved, and prints a line for each."""
    times = [[] for _ in fns]
    mems = [[] for _ in fns]
    for _ in range(runs):
        for i, fn in enumerate(fns):
            out, mb = rss_of(fn)
            times[i].append(out)
            mems[i].append(mb)
    for i in range(len(fns)):
        if isinstance(times[i][0], list):
            ts = " / ".join("%.3f s" % statistics.median(c) for c in zip(*times[i]))
        else:
            ts = "%.3f s" % statistics.median(times[i])
        print("%-44s [%d] %-22s %6.0f MB" % (name, i + 1, ts, statistics.median(mems[i])), flush=True)


def main():
    argv = sys.argv[1:]
    runs, extra = 5, []
    if "--runs" in argv:
        i = argv.index("--runs")
        runs = int(argv[i + 1])
        del argv[i:i + 2]
    if "--model-server" in argv:
        i = argv.index("--model-server")
        extra = ["--model-server", argv[i + 1]]
        del argv[i:i + 2]
    bins = [os.path.abspath(b) for b in argv]

    def noargs(bin):
        t0 = time.monotonic()
        subprocess.run([bin], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.monotonic() - t0

    print("%d runs each, medians, interleaved" % runs)
    for i, b in enumerate(bins):
        print("[%d] %s" % (i + 1, b))
    figure("ndb, no arguments", [lambda b=b: noargs(b) for b in bins], runs)
    figure("recorded, first stop / 20 steps (session)", [lambda b=b: list(session(b, "recorded", 20, [])) for b in bins], runs)
    figure("neural, first stop", [lambda b=b: session(b, "neural", 0, extra)[0] for b in bins], runs)


if __name__ == "__main__":
    main()
