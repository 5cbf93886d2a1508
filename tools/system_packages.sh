#!/usr/bin/env bash
# The Debian packages the test suite needs, installed when any is missing:
# fonts for text in every script (examples/international and its tests),
# fontconfig to find them by name, poppler-utils (pdffonts) for the PDF
# checks, and ghostscript (its tiffsep device) to separate a CMYK build's inks. `make test` runs this first; it does nothing when all are present,
# and on a machine without apt-get it says what to install and goes on (the
# tests that need a package then fail, naming it).
set -euo pipefail
packages=(fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fontconfig poppler-utils ghostscript)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
    echo "system packages: install ${missing[*]} (the tests of text in every script need them)" >&2
    exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "system packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# another apt may hold the lock for a while (a machine's own updates at boot)
for attempt in 1 2 3 4 5 6 7 8 9 10; do
    if $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/cardgen-apt.log 2>&1; then
        exit 0
    fi
    if grep -q "Unable to locate package\|has no installation candidate" /tmp/cardgen-apt.log; then
        $sudo apt-get update -q >/dev/null 2>&1 || true
    fi
    sleep 6
done
cat /tmp/cardgen-apt.log >&2
echo "system packages: could not install ${missing[*]}" >&2
exit 1
