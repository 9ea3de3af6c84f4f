#!/usr/bin/env bash
# Draws Zeta's app and tray icons with ImageMagick. The PNGs are committed; run this
# again only to change them.
set -euo pipefail
cd "$(dirname "$0")"
glyph() { # size fill text-colour out
  convert -size "$1x$1" xc:none -fill "$2" \
    -draw "roundrectangle 0,0,$(($1-1)),$(($1-1)),$(($1/5)),$(($1/5))" \
    -fill "$3" -font DejaVu-Sans-Bold -pointsize $(($1*7/10)) -gravity center \
    -annotate +0+$(($1/20)) 'ζ' "PNG32:$4"
}
glyph 512 '#4f46e5' white icon.png
glyph 128 '#4f46e5' white 128x128.png
glyph 32 '#4f46e5' white 32x32.png
# Tray states: idle (indigo), working (amber), needs approval (red, with a dot),
# listening (green).
glyph 64 '#4f46e5' white tray-idle.png
glyph 64 '#d97706' white tray-working.png
glyph 64 '#16a34a' white tray-listening.png
glyph 64 '#dc2626' white tray-approval.png
convert tray-approval.png -fill white -stroke '#dc2626' -strokewidth 3 \
  -draw 'circle 50,14 50,4' PNG32:tray-approval.png
