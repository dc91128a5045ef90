#!/usr/bin/env bash
# The browser tests drive Debian's chromium (Playwright cannot download a browser here).
# Install it when this machine can (root, or sudo without a password); otherwise say in one
# line what to install. Never fails: `make test` then runs everything else.
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO="none"; fi
fi
if [ "$SUDO" != "none" ] && command -v apt-get >/dev/null 2>&1; then
    echo "hukum: installing Debian's chromium for the browser tests (apt-get)" >&2
    $SUDO apt-get update -qq >/dev/null 2>&1
    if DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null 2>&1; then
        exit 0
    fi
fi
echo "hukum: the browser tests are skipped: install Debian's chromium (sudo apt-get install -y chromium) to run them" >&2
