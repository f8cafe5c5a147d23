#!/usr/bin/env bash
# Tesseract for OCR of scanned pages (PyMuPDF's OCR text page calls it); tests/ingest/test_ocr.py.
set -euo pipefail
if command -v tesseract >/dev/null; then
  echo "tesseract already installed: $(tesseract --version 2>&1 | head -1)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng >/dev/null
tesseract --version 2>&1 | head -1
