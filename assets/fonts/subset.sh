#!/usr/bin/env bash
# Rebuilds ChessbotCJKSC-Regular.otf: the CJK glyphs the board images draw
# Chinese names with when the machine has no CJK font (src/render/fonts.rs).
#
# Source: Noto Sans CJK SC Regular from Debian's fonts-noto-cjk (SIL OFL 1.1).
# Characters: the 8,105 of the 通用规范汉字表 (Table of General Standard
# Chinese Characters, 2013), read from the Unicode Character Database's
# kTGH field (Debian's unicode-data), plus CJK Symbols and Punctuation
# (U+3000-303F), Halfwidth and Fullwidth Forms (U+FF00-FFEF) and the
# punctuation Chinese text uses from General Punctuation.
# The OFL lets a modified font be shipped under a new name only: the subset
# is renamed "Chessbot CJK SC" and its licence is written beside it.
#
# Needs (installed when missing, as root): fonts-noto-cjk, unicode-data,
# and fontTools from PyPI. Run from anywhere: bash assets/fonts/subset.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
unihan=/usr/share/unicode/Unihan_OtherMappings.txt.bz2
copyright=/usr/share/doc/fonts-noto-cjk/copyright

if [ ! -f "$src" ] || [ ! -f "$unihan" ]; then
  apt-get update && apt-get install -y --no-install-recommends fonts-noto-cjk unicode-data
fi
python3 -c 'import fontTools' 2>/dev/null || python3 -m pip install --quiet 'fonttools==4.68.0'

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The 通用规范汉字表: every code point with a kTGH value.
bzcat "$unihan" | awk '$1 ~ /^U\+/ && $2 == "kTGH" { sub(/^U\+/, "", $1); print $1 }' > "$work/tgh.txt"
count=$(wc -l < "$work/tgh.txt")
[ "$count" = 8105 ] || { echo "expected 8105 kTGH characters, found $count" >&2; exit 1; }
{
  cat "$work/tgh.txt"
  echo 3000-303F
  echo FF00-FFEF
  # · ‐ – — ‘ ’ “ ” … ‧ ※
  echo 00B7,2010,2013,2014,2018,2019,201C,201D,2026,2027,203B
} | paste -sd, > "$work/unicodes.txt"

python3 - "$src" "$work/unicodes.txt" "$here/ChessbotCJKSC-Regular.otf" <<'PY'
import sys
from fontTools import subset
from fontTools.ttLib import TTCollection

src, unicodes_file, out = sys.argv[1:]
# The collection's faces: JP, KR, SC, TC, HK; take the Simplified Chinese one.
collection = TTCollection(src)
face = next(f for f in collection.fonts
            if f["name"].getDebugName(1) == "Noto Sans CJK SC")
unicodes = subset.parse_unicodes(open(unicodes_file).read().strip())

options = subset.Options()
options.layout_features = []          # the bot lays out glyph by glyph
options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
options.notdef_outline = True
options.hinting = False               # drawn at pixel sizes by skrifa, unhinted
options.desubroutinize = False
subsetter = subset.Subsetter(options)
subsetter.populate(unicodes=unicodes)
subsetter.subset(face)

# OFL 1.1 §3: a Modified Version may not use the Reserved Font Name
# ("Source") and is renamed; the original copyright notice stays (nameID 0).
family, full, postscript = "Chessbot CJK SC", "Chessbot CJK SC Regular", "ChessbotCJKSC-Regular"
name = face["name"]
for rec in list(name.names):
    if rec.nameID in (1, 16):
        rec.string = family
    elif rec.nameID in (2, 17):
        rec.string = "Regular"
    elif rec.nameID == 3:
        rec.string = f"{postscript};subset of Noto Sans CJK SC 2.004 by chessbot"
    elif rec.nameID == 4:
        rec.string = full
    elif rec.nameID == 6:
        rec.string = postscript
name.names = [r for r in name.names if r.nameID not in (16, 17)]
if "CFF " in face:
    cff = face["CFF "].cff
    cff.fontNames = [postscript]
    top = cff.topDictIndex[0]
    top.FullName, top.FamilyName = full, family
face.save(out)
print(f"{out}: {len(face.getGlyphOrder())} glyphs")
PY

# The licence beside it: upstream's copyright notice (with its Reserved Font
# Name) and the OFL 1.1 text as Debian ships it.
{
  echo "ChessbotCJKSC-Regular.otf is a Modified Version (a subset, renamed) of"
  echo "Noto Sans CJK SC Regular, made by assets/fonts/subset.sh from Debian's"
  echo "fonts-noto-cjk. Licensed under the SIL Open Font License 1.1, below."
  echo
  echo "Copyright © 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'."
  echo
  awk '$0 == "License: SIL-1.1" { on = 1; next }
       on && /^[^ ]/ { if (printed) exit; on = 0; next }
       on && /^ / { sub(/^ /, ""); if ($0 == ".") $0 = ""; print; printed = 1 }' "$copyright"
} > "$here/OFL.txt"
sha256sum "$here/ChessbotCJKSC-Regular.otf"
