#!/bin/sh
# Install Debian's libpython3.11-testsuite (the Python 3.11 standard library's own
# test suite, under /usr/lib/python3.11/test/), which the repository-level traces of
# trace.TraceTests and train/corpus run. Idempotent: does nothing when it is there.
set -eu
if [ -d /usr/lib/python3.11/test/test_json ]; then
	exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO="sudo"
fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends libpython3.11-testsuite
test -d /usr/lib/python3.11/test/test_json
