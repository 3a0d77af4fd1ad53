#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu report in a real browser: headless Chromium renders the reports
# of tests/cli/data/stats.json and tests/cli/data/timing.json (values
# derived by hand in test_report.sh). The DOM Chromium builds must hold the
# expected tables, rows, charts and figures (stall reasons per core, IPC and
# warps over time, cache hit rates, SIMD efficiency), and each screenshot
# must be a PNG of the window's size with far more in it than a blank page
# of the same size.
. "$(dirname "$0")/lib.sh"
data="$(dirname "$0")/data"
: "${SG_CHROMIUM:?chromium (Debian package chromium, installed by tools/setup.sh)}"
command -v "$SG_CHROMIUM" >/dev/null || { echo "FAIL: $SG_CHROMIUM not found: sh tools/setup.sh installs chromium"; exit 1; }

# Chromium with no network, no first-run work and a fresh profile each time.
browse() {
  rm -rf profile
  timeout 90 "$SG_CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$WORK/profile" --window-size=1280,1600 "$@"
}

expect 0 "$SOFTGPU" report "$data/stats.json" -o report.html
run browse --dump-dom "file://$WORK/report.html"
[ "$rc" = 0 ] || fail "chromium --dump-dom exited with $rc"
# One element per line, then the table bodies' rows.
sed 's/</\n</g' out >dom
rows() { awk -v id="$1" '$0 ~ "^<table id=\"" id "\"" { on = 1 } on && /^<tbody>/ { body = 1 }
  on && body && /^<tr[ >]/ { n++ } on && /^<\/table>/ { on = 0 } END { print n + 0 }' dom; }
same "$(rows kernels)" 2 "rows of the kernels table in the DOM"
same "$(rows launches)" 3 "rows of the launches table in the DOM"
same "$(grep -c '^<tr class="bad">' dom)" 1 "failed launches in the DOM"
same "$(grep -c '^<svg ' dom)" 6 "charts in the DOM"
# 3 bars in each of 4 plain charts, 3 stacks of 2 and a legend of 2 in the
# stalls chart, and SIMD efficiency per kernel (alpha, beta).
same "$(grep -c '^<rect ' dom)" 22 "bars in the DOM"
has dom '^<figcaption>stalls$'
has dom '^<td class="t">32&times;32|^<td class="t">32×32'

# The timing figures: one figure per kind, launch 1 (2 cores) with both of
# its own, launch 3 with notes for what its file lacks.
expect 0 "$SOFTGPU" report "$data/timing.json" -o timing.html
run browse --dump-dom "file://$WORK/timing.html"
[ "$rc" = 0 ] || fail "chromium --dump-dom exited with $rc"
sed 's/</\n</g' out >tdom
for id in simd-efficiency hit-rates stalls-1 timeline-1 launch-1 launch-3; do
  has tdom "^<(figure class=\"chart\"|h3) id=\"$id\">"
done
lacks tdom 'id="(stalls|timeline)-3"'
# In launch 1's stall figure: 7 stacked pieces (4 non-zero reasons of core
# 0, 3 of core 1) and 11 legend keys; in the timeline the IPC steps and the
# warp line of test_report.sh's derivation.
figure() { awk -v id="$1" 'index($0, "id=\"" id "\"") { on = 1 } on { print } on && /^<\/figure>/ { exit }' tdom; }
figure stalls-1 >stalls1
same "$(grep -c '^<rect x=' stalls1)" 7 "stacked pieces in the DOM"
same "$(grep -c '^<rect class="key"' stalls1)" 11 "legend keys in the DOM"
has stalls1 '^<title>core 1: RAW_MEM 205 \(42\.7%\)$'
figure timeline-1 >timeline1
has timeline1 'd="M74\.0 89\.0H234\.0V14\.0H394\.0V126\.5H474\.0"'
has timeline1 'points="234\.0,204\.0 394\.0,224\.0 474\.0,284\.0"'
has timeline1 '^<text .*>IPC \(warp instr\./cycle\)$'
has timeline1 '^<text .*>resident warps$'
figure hit-rates >hits
same "$(grep -c '^<rect x=' hits)" 5 "hit-rate bars in the DOM (2 launches of 4 caches: one unused, two without fields)"

# check_png FILE: a PNG of the window's size with far more in it than a
# blank page.
printf '<!DOCTYPE html><html><body></body></html>\n' >blank.html
run browse --screenshot="$WORK/blank.png" "file://$WORK/blank.html"
blank_size=$(wc -c <blank.png)
check_png() {
  [ -f "$1" ] || { fail "no screenshot $1"; return; }
  # PNG signature and IHDR size: 1280 x 1600.
  same "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a "$1: PNG signature"
  same "$(dd if="$1" bs=1 skip=16 count=8 2>/dev/null | od -An -tu1 | tr -s ' ')" \
    " 0 0 5 0 0 0 6 64" "$1: PNG width and height (1280, 1600)"
  size=$(wc -c <"$1")
  [ "$size" -gt $((blank_size * 5)) ] && [ "$size" -gt 30000 ] ||
    fail "the screenshot $1 ($size bytes) looks empty (a blank page: $blank_size bytes)"
}
run browse --screenshot="$WORK/report.png" "file://$WORK/report.html"
[ "$rc" = 0 ] || fail "chromium --screenshot exited with $rc"
check_png report.png
run browse --screenshot="$WORK/timing.png" "file://$WORK/timing.html"
[ "$rc" = 0 ] || fail "chromium --screenshot exited with $rc"
check_png timing.png
# SG_SCREENSHOTS=DIR keeps the screenshots, to look at.
[ -z "${SG_SCREENSHOTS:-}" ] || cp report.png timing.png "$SG_SCREENSHOTS"/
finish
