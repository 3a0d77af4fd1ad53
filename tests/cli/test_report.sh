#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu report: statistics from a real run and a hand-written file with
# fields the library does not write yet (a nested object, a field that
# appears late, a counter past 2^64) become tables and charts with the
# values derived by hand; no scripts or network resources; bad files give
# exit 3 with FILE:LINE:COLUMN. The figures (SIMD efficiency per kernel,
# cache hit rates, stall reasons per core, IPC and warps over time) are
# checked against a hand-written timing file (tests/cli/data/timing.json),
# bar by bar and point by point, against a real timing run, and with many
# samples, cores and launches, and damaged fields.
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
# Charts: one per measure, the nested object stacked, work_dim (a shape)
# none; and the figure of SIMD efficiency per kernel (no thread_insns or
# lane_slots here: the mean of simd_efficiency, alpha (0.5 + 0.25) / 2).
same "$(count $r '<svg ')" 6 "charts"
has $r '<title>alpha: 37\.5%</title>'
has $r '<title>beta: 100\.0%</title>'
lacks $r 'id="hit-rates"|id="stalls-'
# Two stall reasons: one legend row, the stack's first colour green.
has $r '<rect x="170\.0" y="24" width="91\.4" height="14" fill="#59a14f"><title>#1 alpha: stalls\.scoreboard 10</title>'

for id in warp_insns simd_efficiency divergent_branches stalls cycles; do
  has $r "<figure class=\"chart\" id=\"chart-$id\">"
done
lacks $r 'id="chart-work_dim"'
has $r '<title>#3 alpha: stalls\.barrier 15</title>'
# Ratios are drawn against 1: 0.5 is half of the 320-pixel bar.
has $r '<rect x="170\.0" y="6" width="160\.0" height="14" fill="#59a14f"><title>#1 alpha: simd_efficiency 0\.5</title>'
lacks $r '<script|<link|<img|<iframe|src=|url\(|@import'

# ---- Figures from fields known by name: tests/cli/data/timing.json ----
# Launch 1: scale in timing mode, 2 cores of 2 schedulers, 250 cycles;
# launch 2: scale in functional mode; launch 3: reduce in timing mode with
# no per-core statistics, samples off and some cache fields missing.
expect 0 "$SOFTGPU" report "$data/timing.json" -o fig.html
[ ! -s err ] || fail "stderr"
f=fig.html
has $f ': 3 launches of 2 kernels\.'
has $f '^<p>2 launches ran in timing mode: '
# `timing` holds objects (stalls): a section, its counters charted one by
# one; `timing.stalls` holds numbers only: parts of one whole, stacked.
for id in timing.cycles timing.ipc timing.l2_hits timing.stalls; do
  has $f "<figure class=\"chart\" id=\"chart-$id\">"
done
lacks $f 'id="chart-timing"'
# SIMD efficiency per kernel, from x=160 with 320 px for 100 %, rows of 22
# px from y=10: sums of thread_insns over lane_slots, so scale is
# (650 + 400) / (2600 + 400) = 35 % (the mean of its launches would be
# 62.5 %): 112 px; reduce 160 / 320 = 50 %: 160 px.
has $f '^<rect x="160\.0" y="14\.0" width="112\.0" height="14" fill="#4e79a7"><title>scale: 35\.0% \(1,050 of 3,000 lane slots\)</title></rect><text x="276\.0" y="25\.0">35\.0%</text>$'
has $f '^<rect x="160\.0" y="36\.0" width="160\.0" height="14" fill="#4e79a7"><title>reduce: 50\.0% \(160 of 320 lane slots\)</title>'
# Cache hit rates per timing launch (launch 2 has none): 4 bars of 12 px a
# launch, groups of 62 px from y=37, 320 px for 100 %. Launch 1: L1
# 30 / (30 + 10) = 75 % (240 px), L2 9 / 10 = 90 % (288 px), constant
# 0 + 0: no accesses (its rate field says 0), instruction 99 / 100 = 99 %
# (316.8 px). Launch 3: L1 0 / 20 = 0 %, L2 only a rate: 50 %, the others
# nothing: n/a.
has $f '^<rect x="160\.0" y="37\.0" width="240\.0" height="11" fill="#4e79a7"><title>#1 scale: L1 data 75\.0% \(30 hits of 40\)</title>'
has $f '^<rect x="160\.0" y="49\.0" width="288\.0" height="11" fill="#f28e2b"><title>#1 scale: L2 90\.0% \(9 hits of 10\)</title>'
has $f '^<text class="none" x="164\.0" y="71\.0">no accesses</text>$'
has $f '^<rect x="160\.0" y="73\.0" width="316\.8" height="11" fill="#b07aa1"><title>#1 scale: instruction 99\.0% \(99 hits of 100\)</title>'
has $f '^<rect x="160\.0" y="99\.0" width="0\.0" height="11" fill="#4e79a7"><title>#3 reduce: L1 data 0\.0% \(0 hits of 20\)</title>'
has $f '^<rect x="160\.0" y="111\.0" width="160\.0" height="11" fill="#f28e2b"><title>#3 reduce: L2 50\.0%</title>'
same "$(count $f '^<text class="none" x="164\.0" y="1(33|45)\.0">n/a</text>$')" 2 "caches of launch 3 with no fields"
# Launch 1's stall reasons per core: the plot is 340 x 220 px from (74, 14);
# core 0 has 2 x 250 = 500 slots, core 1 2 x 240 = 480, so the axis runs to
# 500 in steps of 100 (0.44 px a slot). Bars are 70 % of 170 px bands;
# stacks in the file's order from the bottom (y=234), zero reasons left out.
has $f '^<h3 id="launch-1">Launch #1: scale</h3>$'
has $f '^<p class="note">250 cycles, IPC 1\.30, 2 cores\.</p>$'
has $f '<text fill="#444" x="69\.0" y="18\.0" text-anchor="end">500</text>$'
has $f '^<rect x="99\.5" y="168\.0" width="119\.0" height="66\.0" fill="#59a14f"><title>core 0: ISSUED 150 \(30\.0%\)</title></rect>$'
has $f '^<rect x="99\.5" y="146\.0" width="119\.0" height="22\.0" fill="#cfcfcf"><title>core 0: IDLE 50 \(10\.0%\)</title></rect>$'
has $f '^<rect x="99\.5" y="58\.0" width="119\.0" height="88\.0" fill="#e15759"><title>core 0: RAW_MEM 200 \(40\.0%\)</title></rect>$'
has $f '^<rect x="99\.5" y="14\.0" width="119\.0" height="44\.0" fill="#6b6b6b"><title>core 0: BARRIER 100 \(20\.0%\)</title></rect>$'
has $f '^<rect x="269\.5" y="157\.0" width="119\.0" height="77\.0" fill="#59a14f"><title>core 1: ISSUED 175 \(36\.5%\)</title></rect>$'
has $f '^<rect x="269\.5" y="66\.8" width="119\.0" height="90\.2" fill="#e15759"><title>core 1: RAW_MEM 205 \(42\.7%\)</title></rect>$'
has $f '^<rect x="269\.5" y="22\.8" width="119\.0" height="44\.0" fill="#6b6b6b"><title>core 1: BARRIER 100 \(20\.8%\)</title></rect>$'
sed -n '/id="stalls-1"/,/<\/figure>/p' $f >stalls1
same "$(count stalls1 '^<rect x=')" 7 "stacked pieces of launch 1 (the non-zero reasons)"
# The legend: all 11 reasons, top down in the file's order.
same "$(sed -n 's/^<rect class="key".*text-anchor="start">\([A-Z_]*\)<\/text>$/\1/p' stalls1 | tr '\n' ' ')" \
  "ISSUED IDLE FETCH IBUFFER BRANCH RAW_MEM RAW_ALU UNIT COLLECTOR MEMORY BARRIER " "legend"
# IPC over time: 400 px for 250 cycles from x=74 (1.6 px a cycle), 150 px
# for IPC 0..2 from y=14. Samples of 100 cycles: 100 / 100 = 1, 200 / 100 = 2,
# and the last, cut by the launch's end at 250, 25 / 50 = 0.5; the mean
# (timing.ipc) 1.3 dashed.
has $f '^<path class="ipc" fill="none" stroke="#4e79a7" stroke-width="1\.5" d="M74\.0 89\.0H234\.0V14\.0H394\.0V126\.5H474\.0"/>$'
has $f '^<line class="mean" x1="74\.0" y1="66\.5" x2="474\.0" y2="66\.5" .*>mean 1\.30</text>$'
has $f '<text fill="#444" x="474\.0" y="300\.0" text-anchor="middle">250</text>$'
# Resident warps at each interval's end (100, 200, 250) on 80 px for 0..8
# from y=204: 8, 6, 0.
has $f '^<polyline class="warps" fill="none" stroke="#f28e2b" stroke-width="1\.5" points="234\.0,204\.0 394\.0,224\.0 474\.0,284\.0"/>$'
has $f 'IPC \(warp instr\./cycle\)</text>$'
has $f '>resident warps</text>$'
has $f '>cycle</text>$'
# Launch 3 says what is missing; launch 2 (functional) gets no section.
has $f '^<h3 id="launch-3">Launch #3: reduce</h3>$'
has $f '^<p class="note">No per-core stall reasons in the file\.</p>$'
has $f '^<p class="note">No samples over time in the file '
lacks $f 'id="launch-2"|id="stalls-3"|id="timeline-3"'
# The launches table shows lists of objects and long lists by their
# length, up to 3 numbers as AxB (sizes).
has $f '<td class="t">\(2 values\)</td>'
has $f '<td class="t">100&times;200&times;25</td>'
lacks $f '&times;&times;'

# Thousands of samples are merged into at most 400 steps, and a level is
# drawn once: 2000 samples of 10 cycles, IPC 1 then 3, go 5 at a time into
# 400 steps at two heights (400 px for 20,000 cycles from x=74, 150 px for
# IPC 0..3 from y=14): one level to cycle 10,000, then the other.
awk 'BEGIN { printf "{\"kernel\":\"long\",\"timing\":{\"cycles\":20000,\"samples\":{\"interval\":10,\"issued\":[";
  for (i = 0; i < 2000; i++) printf "%s%d", i ? "," : "", i < 1000 ? 10 : 30;
  printf "],\"warps\":["; for (i = 0; i < 2000; i++) printf "%s4", i ? "," : "";
  print "]}}}" }' >long.json
expect 0 "$SOFTGPU" report long.json -o long.html
has long.html 'a sample every 10 cycles, 5 samples a step</span>'
has long.html '^<path class="ipc" fill="none" stroke="#4e79a7" stroke-width="1\.5" d="M74\.0 114\.0H274\.0V14\.0H474\.0"/>$'
# Resident warps: 400 points, each bucket's last sample; unmarked.
same "$(sed -n 's/^<polyline class="warps" .* points="\(.*\)"\/>$/\1/p' long.html | tr ' ' '\n' | grep -c ',')" 400 "warp points"
lacks long.html '<circle'
[ "$(wc -c <long.html)" -lt 40000 ] || fail "the page of 2000 samples is $(wc -c <long.html) bytes"

# Many cores share bars: 70 cores, 3 a bar, 24 bars, the last one core.
awk 'BEGIN { printf "{\"kernel\":\"wide\",\"timing\":{\"per_core\":[";
  for (i = 0; i < 70; i++) printf "%s{\"stalls\":{\"ISSUED\":1}}", i ? "," : ""; print "]}}" }' >wide.json
expect 0 "$SOFTGPU" report wide.json -o wide.html
same "$(count wide.html '^<rect x=.*fill="#59a14f"><title>core')" 24 "bars of 70 cores"
has wide.html '<title>cores 0-2: ISSUED 3 \(100\.0%\)</title>'
has wide.html '<title>core 69: ISSUED 1 \(100\.0%\)</title>'
has wide.html '>core \(3 per bar\)</text>$'

# Many timing launches: 12 get figures, the longest of each kernel first.
# Launch i runs 10 i cycles; launch 1 is the only one of kernel "rare", the
# others alternate k0, k1: rare (1), k0 (100), k1 (99), then 98 down to 90.
i=1
while [ $i -le 100 ]; do
  k=k$((i % 2)); [ $i = 1 ] && k=rare
  echo "{\"kernel\":\"$k\",\"timing\":{\"cycles\":$((i * 10)),\"l1_hits\":$i,\"l1_misses\":0}}"
  i=$((i + 1))
done >launches.json
expect 0 "$SOFTGPU" report launches.json -o launches.html
has launches.html 'shown for 12 of them, the longest of each kernel first'
same "$(grep -o 'id="launch-[0-9]*"' launches.html | tr -cd '0-9\n' | tr '\n' ' ')" \
  "1 90 91 92 93 94 95 96 97 98 99 100 " "launches with figures"
# More than 64: hit rates per kernel (3 groups).
has launches.html '<figcaption>Cache hit rates per kernel'
same "$(count launches.html '<title>[a-z0-9]*: L1 data 100\.0%')" 3 "hit-rate bars per kernel"

# Fields the figures read are checked: exit 3 and one line naming the
# launch and the field; the page is not written.
bad_field() { # JSON ERE
  printf '{"kernel":"ok","simd_efficiency":1}\n%s\n' "$1" >field.json
  rm -f field.html
  expect 3 "$SOFTGPU" report field.json -o field.html
  one_error "^softgpu report: field\.json: launch 2: $2$"
  [ ! -e field.html ] || fail "a page was written"
}
bad_field '{"timing":5}' 'timing is not an object'
bad_field '{"timing":{"cycles":-1}}' 'timing\.cycles is not a whole number from 0 to 2\^64'
bad_field '{"timing":{"cycles":2.5}}' 'timing\.cycles is not a whole number from 0 to 2\^64'
bad_field '{"timing":{"cycles":18446744073709551617000}}' 'timing\.cycles is not a whole number from 0 to 2\^64'
bad_field '{"timing":{"ipc":1e999}}' 'timing\.ipc is not a number from 0 to 2\^64'
bad_field '{"timing":{"l1_hit_rate":1.5}}' 'timing\.l1_hit_rate is not a number from 0 to 1'
bad_field '{"simd_efficiency":"high"}' 'simd_efficiency is not a number from 0 to 1'
bad_field '{"timing":{"stalls":[1,2]}}' 'timing\.stalls is not an object'
bad_field '{"timing":{"per_core":{}}}' 'timing\.per_core is not an array'
bad_field '{"timing":{"per_core":[{},7]}}' 'timing\.per_core\[1\] is not an object'
bad_field '{"timing":{"per_core":[{"stalls":{"IDLE":1}},{"stalls":{"IDLE":-3}}]}}' \
  'timing\.per_core\[1\]\.stalls\.IDLE is not a whole number from 0 to 2\^64'
bad_field '{"timing":{"samples":{"interval":10,"issued":[1,"x"],"warps":[1,2]}}}' \
  'timing\.samples\.issued\[1\] is not a whole number from 0 to 2\^64'
bad_field '{"timing":{"samples":{"interval":10,"issued":[1,2],"warps":[1]}}}' \
  'timing\.samples has issued and warps of different lengths'
bad_field '{"timing":{"samples":{"interval":0,"issued":[1],"warps":[1]}}}' \
  'timing\.samples\.interval is 0 but there are samples'
bad_field '{"timing":{"samples":{"interval":10,"issued":[]}}}' \
  'timing\.samples lacks interval, issued or warps'
bad_field '{"timing":{"samples":null}}' 'timing\.samples is not an object'
bad_field "{\"timing\":{\"stalls\":{$(seq 1 33 | sed 's/.*/"r&":1/' | paste -sd,)}}}" \
  'timing\.stalls has more than 32 stall reasons'
# Missing fields are no error: a bare timing object gets a section that
# says so.
printf '{"kernel":"bare","timing":{}}\n' >bare.json
expect 0 "$SOFTGPU" report bare.json
has out '^<h3 id="launch-1">Launch #1: bare</h3>$'
has out '^<p class="note">\.</p>$|No per-core stall reasons'

# A real run: the divergence sample's two kernels.
expect 0 "$SOFTGPU" run --stats run.json -- "$SG_BUILD_DIR/samples/divergence" 1024
expect 0 "$SOFTGPU" report run.json
has out '^<tr><td class="t">uniform_work</td><td>1</td>'
has out '^<tr><td class="t">divergent_work</td><td>1</td>'
has out '<th>thread_insns</th>'

# A real timing run after the functional ones: its figures carry the
# file's numbers (core 0's issue slots, the sample interval, the
# instruction cache's hit rate from its hits and misses) and its stall
# reasons in the file's order.
expect 0 "$SOFTGPU" run --mode timing --stats run.json -- "$SG_BUILD_DIR/samples/vector_add" 65536
grep '"kernel":"vector_add"' run.json >timed.json
expect 0 "$SOFTGPU" report run.json -o run.html
has run.html '^<h3 id="launch-3">Launch #3: vector_add</h3>$'
lacks run.html 'id="launch-[12]"'
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
issued0=$(grep -o '"per_core":\[{[^]]*' timed.json | grep -o '"ISSUED":[0-9]*' | head -1 | cut -d: -f2 | commas)
has run.html "<title>core 0: ISSUED $issued0 \\("
reasons=$(grep -o '"stalls":{[^}]*}' timed.json | head -1 | grep -o '"[A-Z_]*"' | tr -d '"' | tr '\n' ' ')
same "$(sed -n '/id="stalls-3"/,/<\/figure>/s/^<rect class="key".*text-anchor="start">\([A-Z_]*\)<\/text>$/\1/p' run.html | tr '\n' ' ')" \
  "$reasons" "legend of the real run"
interval=$(grep -o '"samples":{"interval":[0-9]*' timed.json | cut -d: -f3)
has run.html "a sample every $interval cycles"
icache=$(grep -o '"timing":{.*' timed.json | grep -o '"icache_hits":[0-9]*,"icache_misses":[0-9]*' |
  head -1 | awk -F'[:,]' '{ printf "%.1f", 100 * $2 / ($2 + $4) }')
has run.html "<title>#3 vector_add: instruction $icache% \\("
# Cut anywhere inside a launch, the file is bad JSON: exit 3, one line.
size=$(wc -c <timed.json)
for cut in $((size / 4)) $((size / 2)) $((size - 2)); do
  head -c $cut timed.json >cut.json
  expect 3 "$SOFTGPU" report cut.json
  one_error '^softgpu report: cut\.json:1:[0-9]+: '
done

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
