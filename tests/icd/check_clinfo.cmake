# SPDX-License-Identifier: MIT
# Runs clinfo (MODE full: every query; list: clinfo -l; bad_config: clinfo -l
# under an invalid SOFTGPU_CONFIG; vortex: every query under the vortex
# preset) and checks what it prints.
if(MODE STREQUAL "full" OR MODE STREQUAL "vortex")
  set(args "")
else()
  set(args "-l")
endif()
# In the sanitizer build (PRELOAD: the ASan runtime) clinfo, which is not
# instrumented, loads the instrumented library, so the runtime must be
# loaded first.
if(PRELOAD)
  set(ENV{LD_PRELOAD} "${PRELOAD}")
endif()
execute_process(COMMAND ${CLINFO} ${args} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clinfo ${args} exited with ${rc}")
endif()
string(FIND "${out}" "SoftGPU" at)
if(at EQUAL -1)
  message(FATAL_ERROR "clinfo ${args} does not list SoftGPU")
endif()

# clinfo reports a failed query as "<function:line: what : error -30>".
string(REGEX MATCHALL "[^\n]*(<[^>\n]*error[^>\n]*>|Invalid|CL_INVALID_|CL_OUT_OF_)[^\n]*" bad "${out}${err}")
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  message(FATAL_ERROR "clinfo ${args} reports errors:\n${bad}")
endif()

if(MODE STREQUAL "list")
  if(NOT out MATCHES "Platform #0: SoftGPU\n `-- Device #0: SoftGPU SIMT \\([0-9]+ cores x [0-9]+ warps x [0-9]+ lanes\\)")
    message(FATAL_ERROR "clinfo -l does not show the SoftGPU device")
  endif()
elseif(MODE STREQUAL "bad_config")
  if(out MATCHES "Device #")
    message(FATAL_ERROR "a device is listed although SOFTGPU_CONFIG is invalid")
  endif()
  if(NOT err MATCHES "SoftGPU: invalid machine configuration: ")
    message(FATAL_ERROR "no message on stderr about the invalid SOFTGPU_CONFIG")
  endif()
elseif(MODE STREQUAL "full")
  if(NOT out MATCHES "Number of devices +1\n")
    message(FATAL_ERROR "clinfo does not show exactly one SoftGPU device")
  endif()
elseif(MODE STREQUAL "vortex")
  # The preset (device/presets/vortex.cfg): 4 cores x 4 warps x 4 lanes,
  # so work-groups of at most 16 work-items, and Vortex's 16 KB of shared
  # memory.
  foreach(line "Device Name +SoftGPU SIMT \\(4 cores x 4 warps x 4 lanes\\)"
               "Max compute units +4\n" "Max work group size +16\n"
               "Max work item sizes +16x16x16\n"
               "Preferred work group size multiple \\(device\\) +4\n"
               "Local memory size +16384 ")
    if(NOT out MATCHES "${line}")
      message(FATAL_ERROR "device info does not follow the vortex preset: no match for '${line}'")
    endif()
  endforeach()
endif()
