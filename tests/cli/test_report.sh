#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu report: statistics from a real run and a hand-written file with
# fields the library does not write yet (a nested object, a field that
# appears late, a counter past 2^64) become tables and charts with the
# values derived by hand; no scripts or network resources; bad files give
# exit 3 with FILE:LINE:COLUMN.
. "$(dirname "$0")/lib.sh"
data="$(dirname "$0")/data"

expect 0 "$SOFTGPU" report "$data/stats.json" -o report.html
[ ! -s out ] && [ ! -s err ] || fail "output besides report.html"
r=report.html
has $r "^<!DOCTYPE html>$"
has $r "<title>SoftGPU statistics: .*stats.json</title>"
has $r ": 3 launches of 2 kernels\."
# Kernels: sums, and means for measures that are not whole numbers.
has $r '^<tr><td class="t">alpha</td><td>2</td><td>4,000</td><td>0\.375</td><td>12</td><td>30</td><td>20</td><td>1\.235e\+20</td></tr>$'
has $r '^<tr><td class="t">beta</td><td>1</td><td>250</td><td>1</td><td>0</td><td>1</td><td>0</td><td></td></tr>$'
has $r '<th>simd_efficiency \(mean\)</th>'
# Launches, in order, every field; the failed one marked; sizes as AxB;
# the late field empty before it appears and as written after.
has $r '^<tr><td>1</td><td class="t">alpha</td><td class="t">ok</td><td class="t">1</td><td class="t">1,024</td><td class="t">64</td><td>1,000</td><td>0\.5</td><td>3</td><td>10</td><td>5</td><td></td></tr>$'
has $r '^<tr class="bad"><td>2</td><td class="t">beta</td><td class="t">fault</td><td class="t">2</td><td class="t">32&times;32</td><td class="t">8&times;8</td>'
has $r '<td>123456789012345678901</td></tr>$'
has $r '<th>stalls\.scoreboard</th><th>stalls\.barrier</th><th>cycles</th></tr></thead>$'
# Charts: one per measure, the nested object stacked, work_dim (a shape) none.
same "$(count $r '<svg ')" 5 "charts"
for id in warp_insns simd_efficiency divergent_branches stalls cycles; do
  has $r "<figure class=\"chart\" id=\"chart-$id\">"
done
lacks $r 'id="chart-work_dim"'
has $r '<title>#3 alpha: stalls\.barrier 15</title>'
# Ratios are drawn against 1: 0.5 is half of the 320-pixel bar.
has $r '<rect x="170\.0" y="6" width="160\.0" height="14" fill="#4e79a7"><title>#1 alpha: simd_efficiency 0\.5</title>'
lacks $r '<script|<link|<img|<iframe|src=|url\(|@import'

# A real run: the divergence sample's two kernels.
expect 0 "$SOFTGPU" run --stats run.json -- "$SG_BUILD_DIR/samples/divergence" 1024
expect 0 "$SOFTGPU" report run.json
has out '^<tr><td class="t">uniform_work</td><td>1</td>'
has out '^<tr><td class="t">divergent_work</td><td>1</td>'
has out '<th>thread_insns</th>'

# Names are escaped.
printf '{"kernel":"<b>&\\"x\\"","n":1}\n' >odd.json
expect 0 "$SOFTGPU" report odd.json
has out '<td class="t">&lt;b&gt;&amp;&quot;x&quot;</td>'
lacks out '<b>&'
# A single array of launches reads the same as JSON lines.
printf '[{"kernel":"a","n":1},{"kernel":"a","n":2}]' >array.json
expect 0 "$SOFTGPU" report array.json
has out ': 2 launches of 1 kernel\.'
# Many launches: the charts show kernels.
i=0
while [ $i -lt 70 ]; do echo "{\"kernel\":\"k$((i % 3))\",\"n\":$i}"; i=$((i + 1)); done >many.json
expect 0 "$SOFTGPU" report many.json
has out '<figcaption>n per kernel</figcaption>'
same "$(count out '<rect ')" 3 "bars of the per-kernel chart"

# Bad input: exit 3, one line with FILE:LINE:COLUMN where it can.
printf '{"kernel":"a"}\n{"kernel":1,}\n' >bad.json
expect 3 "$SOFTGPU" report bad.json
one_error "^softgpu report: bad.json:2:13: expected a member name in quotes$"
printf '{"kernel":"a\001"}' >ctl.json
expect 3 "$SOFTGPU" report ctl.json
one_error "^softgpu report: ctl.json:1:13: control character in a string$"
printf '{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}' >deep.json
expect 3 "$SOFTGPU" report deep.json
one_error "nested deeper than 64 levels$"
printf '{"n":1e}' >num.json
expect 3 "$SOFTGPU" report num.json
one_error "^softgpu report: num.json:1:6: bad number$"
printf '{"n":1}\n42\n' >scalar.json
expect 3 "$SOFTGPU" report scalar.json
one_error "^softgpu report: scalar.json: value 2 is not an object \(one launch\)$"
: >empty.json
expect 3 "$SOFTGPU" report empty.json
one_error "^softgpu report: empty.json holds no launches$"
expect 3 "$SOFTGPU" report no-such.json
one_error "^softgpu report: cannot read no-such.json: No such file or directory$"
expect 3 "$SOFTGPU" report "$data/stats.json" -o no-such-dir/r.html
one_error "^softgpu report: cannot write no-such-dir/r.html: No such file or directory$"
expect 2 "$SOFTGPU" report
one_error "^softgpu report: no statistics file "
finish
