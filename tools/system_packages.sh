#!/usr/bin/env bash
# The Debian packages the tests need, installed when any is missing (as root, else through sudo):
#   tools/system_packages.sh          what `make test` needs: fonts for text in every script
#                                     (examples/international and its tests), fontconfig to find
#                                     them by name, poppler-utils (pdffonts) for the PDF checks and
#                                     ghostscript (its tiffsep device) to separate a CMYK build's inks
#   tools/system_packages.sh browser  what `make test-browser` needs: Debian's chromium
# It does nothing when all are present; on a machine without apt-get it says what to install and
# goes on for the test set (those tests then fail, naming the package) and fails for the browser.
set -euo pipefail
case "${1:-test}" in
    test) packages=(fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fontconfig poppler-utils ghostscript)
          required=0 ;;
    browser) packages=(chromium); required=1
             # a browser named by CARDGEN_CHROMIUM (the browser test's own setting) needs nothing
             [ -n "${CARDGEN_CHROMIUM:-}" ] && [ -x "$CARDGEN_CHROMIUM" ] && exit 0 ;;
    *) echo "system packages: unknown set '$1' (test or browser)" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null && sudo="sudo"
fi
if ! command -v apt-get >/dev/null || { [ "$(id -u)" -ne 0 ] && [ -z "$sudo" ]; }; then
    echo "system packages: install ${missing[*]} (apt-get install ${missing[*]})" >&2
    exit "$required"
fi
echo "system packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# another apt may hold the lock for a while (a machine's own updates at boot)
for attempt in $(seq 1 30); do
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
