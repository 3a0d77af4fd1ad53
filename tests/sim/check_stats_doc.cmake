# SPDX-License-Identifier: MIT
# The counters of DEF (SG_STAT(name, KIND, ...)) and the rows of DOC's table
# (| `name` | kind | ...) must be the same list, with the same kinds.
file(STRINGS ${DEF} def_lines REGEX "^SG_STAT\\(")
set(want "")
foreach(line IN LISTS def_lines)
  string(REGEX MATCH "^SG_STAT\\(([a-z_]+), *([A-Z]+)," _ "${line}")
  string(TOLOWER "${CMAKE_MATCH_2}" kind)
  list(APPEND want "${CMAKE_MATCH_1}:${kind}")
endforeach()
file(STRINGS ${DOC} doc_lines REGEX "^\\| `[a-z_]+` \\|")
set(have "")
foreach(line IN LISTS doc_lines)
  string(REGEX MATCH "^\\| `([a-z_]+)` \\| ([a-z]+) \\|" _ "${line}")
  list(APPEND have "${CMAKE_MATCH_1}:${CMAKE_MATCH_2}")
endforeach()
if(NOT want STREQUAL have)
  message(FATAL_ERROR "docs/statistics.md lists\n  ${have}\nsim/sg_stats.def has\n  ${want}")
endif()
