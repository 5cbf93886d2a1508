#!/usr/bin/env bash
# The browser test's one Debian package: Chromium, installed when it is missing (as root with
# apt-get, else through sudo). `make test-browser` and CI run this first.
set -euo pipefail
chromium=${CARDGEN_CHROMIUM:-/usr/bin/chromium}
if [ -x "$chromium" ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ]; then
    as_root=()
elif command -v sudo >/dev/null; then
    as_root=(sudo)
else
    echo "install_chromium: $chromium is missing and this user cannot install it: apt-get install chromium" >&2
    exit 1
fi
echo "install_chromium: installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
# dpkg may be busy with another install: wait for it (up to 5 min) rather than fail
for try in $(seq 1 30); do
    if ${as_root[@]+"${as_root[@]}"} apt-get update -qq && ${as_root[@]+"${as_root[@]}"} apt-get install -y -qq chromium >/dev/null; then
        break
    fi
    [ "$try" = 30 ] && { echo "install_chromium: apt-get install chromium failed" >&2; exit 1; }
    sleep 10
done
test -x "$chromium" || { echo "install_chromium: chromium installed but $chromium is not there" >&2; exit 1; }
