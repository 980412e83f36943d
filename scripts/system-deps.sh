#!/usr/bin/env bash
# The system programs Kestrel needs beyond Node, checked (and installed where it can) before
# `npm run demo` and `npm test` use them (`.ci/run` and the Dockerfile install gdal-bin themselves):
#   gdal      GDAL's command-line tools (gdal-bin): raster deliverables are read and converted by them
#   chromium  Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH): the Playwright journeys
# Usage: scripts/system-deps.sh gdal [chromium]
# Fast when everything is there (no apt-get at all); as root (or with password-less sudo) on
# Debian/Ubuntu it installs what is missing with apt-get; otherwise it stops and says what to install.
set -euo pipefail

GDAL_TOOLS=(gdalinfo gdal_translate gdalwarp gdaldem)
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

packages=()
for need in "$@"; do
  case "$need" in
    gdal)
      for tool in "${GDAL_TOOLS[@]}"; do
        if ! command -v "$tool" >/dev/null 2>&1; then
          packages+=(gdal-bin)
          break
        fi
      done
      ;;
    chromium)
      [ -x "$CHROMIUM" ] || packages+=(chromium)
      ;;
    *)
      echo "system-deps: unknown dependency '$need' (known: gdal, chromium)" >&2
      exit 2
      ;;
  esac
done

[ ${#packages[@]} -eq 0 ] && exit 0

as_root=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
fi

if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ ${#as_root[@]} -gt 0 ]; }; then
  echo "system-deps: installing ${packages[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}"
  exit 0
fi

{
  echo
  echo "Kestrel needs programs this machine does not have, and cannot install them here"
  echo "(that needs root with apt-get, i.e. Debian or Ubuntu):"
  for package in "${packages[@]}"; do
    case "$package" in
      gdal-bin) echo "  - GDAL's command-line tools (${GDAL_TOOLS[*]}): raster deliverables are read and converted by them."
                echo "    Debian/Ubuntu: sudo apt-get install gdal-bin    macOS: brew install gdal" ;;
      chromium) echo "  - Chromium at $CHROMIUM, for the Playwright journeys of npm test."
                echo "    Debian/Ubuntu: sudo apt-get install chromium    elsewhere: install Chromium and set CHROMIUM_PATH" ;;
    esac
  done
  echo "Install them, then run the command again."
  echo
} >&2
exit 1
