# The MCP server's test with a client that is not ours: the official TypeScript SDK
# (@modelcontextprotocol/sdk, pinned in test/mcp-ts/package-lock.json) drives
# `bin/ndb mcp` over stdio. Included by the top Makefile; `make test` runs it.
# Targets:
#   mcp-deps    npm ci in test/mcp-ts (the committed package-lock.json)
#   mcp-test    build bin/ndb, then node --test test/mcp-ts/mcp.test.mjs: the tool list,
#               a recorded and a neural session (the bundled model) to the end
#   mcp-clean   remove test/mcp-ts/node_modules
# Variables: NPM (default npm); the test reads NDB_BIN (set to bin/ndb here).

NPM        ?= npm
MCP_TS_DIR := test/mcp-ts

.PHONY: mcp-deps mcp-test mcp-clean

test: mcp-test

mcp-deps: $(MCP_TS_DIR)/node_modules/.package-lock.json

# npm ci reinstalls from the lock file; it runs again only when the lock file changes.
$(MCP_TS_DIR)/node_modules/.package-lock.json: $(MCP_TS_DIR)/package-lock.json $(MCP_TS_DIR)/package.json
	@command -v $(NPM) >/dev/null || { echo "the MCP client test needs Node.js (18 or later) and npm"; exit 1; }
	cd $(MCP_TS_DIR) && $(NPM) ci --no-audit --no-fund
	@touch $@

mcp-test: mcp-deps build
	cd $(MCP_TS_DIR) && NDB_BIN=$(abspath $(BIN)) $(NPM) test

mcp-clean:
	rm -rf $(MCP_TS_DIR)/node_modules
