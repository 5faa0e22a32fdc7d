#!/bin/sh
# Refreshes assets/web/vendor/ from the npm registry: the chessground board
# (lichess.org, GPL-3.0-or-later) as one ES module plus its CSS, and Discord's
# Embedded App SDK (MIT) bundled with its dependencies into one ES module for
# the Activity page (activity-sdk/: the pinned package.json and
# package-lock.json, installed with `npm ci`, bundled by esbuild). `cargo
# build` never runs this: the bundles are committed.
#
# Usage: assets/web/refresh-vendor.sh   (needs npm, tar, sha256sum)
#
# To move to another version, change VERSION and SHA256 together; take the new
# sha256 from a tarball you have checked (`npm pack` prints the file name,
# `sha256sum` the digest). A mismatch stops the script before anything is
# written.
set -eu

PACKAGE=@lichess-org/chessground
VERSION=10.4.1
SHA256=8bc1167bc62a2b69d8bbca425d28a30f4d29e5733fc8bb29281ab06086f9e9a7

here=$(cd "$(dirname "$0")" && pwd)
out="$here/vendor"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cd "$tmp"
tarball=$(npm pack --silent "$PACKAGE@$VERSION" | tail -n 1)
[ -f "$tarball" ] || { echo "refresh-vendor: npm pack produced no tarball" >&2; exit 1; }

actual=$(sha256sum "$tarball" | cut -d ' ' -f 1)
if [ "$actual" != "$SHA256" ]; then
    echo "refresh-vendor: SHA-256 MISMATCH for $PACKAGE@$VERSION" >&2
    echo "  expected $SHA256" >&2
    echo "  got      $actual" >&2
    echo "  nothing was changed" >&2
    exit 1
fi

tar -xzf "$tarball"
for f in package/dist/chessground.min.js \
         package/assets/chessground.base.css \
         package/assets/chessground.cburnett.css \
         package/LICENSE; do
    [ -s "$f" ] || { echo "refresh-vendor: $f missing from the tarball" >&2; exit 1; }
done

mkdir -p "$out"
cp package/dist/chessground.min.js "$out/chessground.min.js"
cp package/assets/chessground.base.css "$out/chessground.base.css"
cp package/assets/chessground.cburnett.css "$out/chessground.cburnett.css"
cp package/LICENSE "$out/LICENSE"
printf '%s %s\nsha256 %s\n' "$PACKAGE" "$VERSION" "$SHA256" > "$out/VERSION"

echo "refresh-vendor: $PACKAGE@$VERSION -> $out"

# Discord's Embedded App SDK: exact versions from the lock file.
mkdir "$tmp/sdk"
cp "$here/activity-sdk/package.json" "$here/activity-sdk/package-lock.json" \
   "$here/activity-sdk/entry.mjs" "$tmp/sdk/"
cd "$tmp/sdk"
npm ci --silent --no-audit --no-fund
npx esbuild entry.mjs --bundle --format=esm --minify --target=es2020 \
    --legal-comments=eof --outfile=discord-sdk.min.js
[ -s discord-sdk.min.js ] || { echo "refresh-vendor: the SDK bundle is empty" >&2; exit 1; }
cp discord-sdk.min.js "$out/discord-sdk.min.js"
{
    echo "Licences of the packages bundled in discord-sdk.min.js"
    for p in @discord/embedded-app-sdk big-integer decimal.js-light eventemitter3 \
             lodash.transform uuid zod; do
        version=$(node -p "require('./node_modules/$p/package.json').version")
        licence=$(ls "node_modules/$p" | grep -i -m1 '^licen[cs]e')
        printf '\n==== %s %s ====\n\n' "$p" "$version"
        cat "node_modules/$p/$licence"
    done
} > "$out/LICENSE-discord-sdk"
sdk_version=$(node -p "require('./node_modules/@discord/embedded-app-sdk/package.json').version")
printf '@discord/embedded-app-sdk %s\nbundle-sha256 %s\n' "$sdk_version" \
    "$(sha256sum discord-sdk.min.js | cut -d ' ' -f 1)" >> "$out/VERSION"
echo "refresh-vendor: @discord/embedded-app-sdk@$sdk_version -> $out/discord-sdk.min.js"
