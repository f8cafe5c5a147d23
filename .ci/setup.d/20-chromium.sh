#!/usr/bin/env bash
# Headless Chromium for tests/faces/test_web_browser.py (Python playwright drives Debian's build at
# /usr/bin/chromium; `playwright install` would download a browser, which CI cannot).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || true)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-liberation >/dev/null
/usr/bin/chromium --version || true
