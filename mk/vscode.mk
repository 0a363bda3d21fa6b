# The VS Code extension (vscode-extension/) and its conformance tests against the real
# `ndb dap`. Included by the top Makefile. Targets:
#   vscode-deps   npm ci in vscode-extension (the committed package-lock.json)
#   vscode-test   the mocha conformance tests (npm test): DebugClient of
#                 @vscode/debugadapter-testsupport on bin/ndb (built first if missing)
#   vsix          vscode-extension/ndb.vsix, packaged with @vscode/vsce
#   vscode-clean  remove node_modules, out, the shipped binary and the .vsix
# Variables:
#   NPM             npm (default: npm)
#   NDB_VSIX_BIN=1  ship bin/ndb and bin/ndb-infer (the model server) inside the .vsix (a
#                   platform-specific package for this machine's target); by default the
#                   extension runs the `ndb.path` setting or `ndb` on PATH
#   NDB_VSIX_TARGET the vsce --target of a package with the binary (default linux-x64)
# The tests use NDB_BIN (default ../bin/ndb) and, for neural and compare mode, NDB_MODEL
# (a checkpoint); without a model those sessions are skipped with a message.

NPM             ?= npm
VSCODE_DIR      := vscode-extension
NDB_VSIX_BIN    ?=
NDB_VSIX_TARGET ?= linux-x64

.PHONY: vscode-deps vscode-test vsix vscode-clean

vscode-deps: $(VSCODE_DIR)/node_modules/.package-lock.json

# npm ci reinstalls from the lock file; it runs again only when the lock file changes.
$(VSCODE_DIR)/node_modules/.package-lock.json: $(VSCODE_DIR)/package-lock.json $(VSCODE_DIR)/package.json
	@command -v $(NPM) >/dev/null || { echo "the VS Code extension needs Node.js and npm"; exit 1; }
	cd $(VSCODE_DIR) && $(NPM) ci --no-audit --no-fund
	@touch $@

vscode-test: vscode-deps
	@test -x $(BIN) || $(MAKE) build
	cd $(VSCODE_DIR) && NDB_BIN=$(abspath $(BIN)) $(NPM) test

vsix: vscode-deps
	rm -rf $(VSCODE_DIR)/bin
ifeq ($(NDB_VSIX_BIN),1)
	@test -x $(BIN) || $(MAKE) build
	@test -x $(INFER) || $(MAKE) build
	mkdir -p $(VSCODE_DIR)/bin && cp $(BIN) $(VSCODE_DIR)/bin/ndb && cp $(INFER) $(VSCODE_DIR)/bin/ndb-infer
	cd $(VSCODE_DIR) && $(NPM) run package -- --target $(NDB_VSIX_TARGET)
else
	cd $(VSCODE_DIR) && $(NPM) run package
endif
	@echo "built $(VSCODE_DIR)/ndb.vsix: code --install-extension $(VSCODE_DIR)/ndb.vsix"

vscode-clean:
	rm -rf $(VSCODE_DIR)/node_modules $(VSCODE_DIR)/out $(VSCODE_DIR)/bin $(VSCODE_DIR)/*.vsix
