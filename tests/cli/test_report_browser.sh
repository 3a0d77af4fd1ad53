#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu report in a real browser: headless Chromium renders the report of
# tests/cli/data/stats.json (values derived by hand in test_report.sh). The
# DOM Chromium builds must hold the expected tables, rows and charts, and
# the screenshot must be a PNG of the window's size with far more in it
# than a blank page of the same size.
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
same "$(grep -c '^<svg ' dom)" 5 "charts in the DOM"
# 3 bars in each of 4 plain charts, 3 stacks of 2 and a legend of 2 in the
# stalls chart.
same "$(grep -c '^<rect ' dom)" 20 "bars in the DOM"
has dom '^<figcaption>stalls$'
has dom '^<td class="t">32&times;32|^<td class="t">32×32'

run browse --screenshot="$WORK/report.png" "file://$WORK/report.html"
[ "$rc" = 0 ] || fail "chromium --screenshot exited with $rc"
[ -f report.png ] || fail "no screenshot"
# PNG signature and IHDR size: 1280 x 1600.
same "$(head -c 8 report.png | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a "PNG signature"
same "$(dd if=report.png bs=1 skip=16 count=8 2>/dev/null | od -An -tu1 | tr -s ' ')" \
  " 0 0 5 0 0 0 6 64" "PNG width and height (1280, 1600)"
printf '<!DOCTYPE html><html><body></body></html>\n' >blank.html
run browse --screenshot="$WORK/blank.png" "file://$WORK/blank.html"
report_size=$(wc -c <report.png)
blank_size=$(wc -c <blank.png)
[ "$report_size" -gt $((blank_size * 5)) ] && [ "$report_size" -gt 30000 ] ||
  fail "the screenshot ($report_size bytes) looks empty (a blank page: $blank_size bytes)"
finish
