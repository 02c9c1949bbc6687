#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (never a downloaded browser).
# Installs it when missing and we may (root); otherwise says how.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the end-to-end tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The end-to-end tests need Debian's Chromium at /usr/bin/chromium: sudo apt-get install -y chromium" >&2
  exit 1
fi
