# SPDX-License-Identifier: MIT
# Writes OUT, the presets compiled into sg_config.c: one
# {"name", "description", "text"} per name of PRESETS, read from
# DIR/<name>.cfg. The description is the file's first line without "# ".
file(WRITE ${OUT}.tmp "/* Generated from device/presets/ by embed_presets.cmake. */\n")
foreach(name ${PRESETS})
  file(STRINGS ${DIR}/${name}.cfg lines)
  list(GET lines 0 first)
  if(NOT first MATCHES "^# (.+)$")
    message(FATAL_ERROR "${DIR}/${name}.cfg: the first line must be '# <description>'")
  endif()
  set(desc "${CMAKE_MATCH_1}")
  string(REPLACE "\\" "\\\\" desc "${desc}")
  string(REPLACE "\"" "\\\"" desc "${desc}")
  file(APPEND ${OUT}.tmp "{\"${name}\", \"${desc}\",\n")
  foreach(line IN LISTS lines)
    string(REPLACE "\\" "\\\\" line "${line}")
    string(REPLACE "\"" "\\\"" line "${line}")
    file(APPEND ${OUT}.tmp " \"${line}\\n\"\n")
  endforeach()
  file(APPEND ${OUT}.tmp "},\n")
endforeach()
file(RENAME ${OUT}.tmp ${OUT})
