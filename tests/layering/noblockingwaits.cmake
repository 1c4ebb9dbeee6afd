# SPDX-License-Identifier: MIT
# The engine thread serves every server and the GUI thread every widget: a waitFor*() on
# either stalls all of them (a killed child took up to 2 s to reap). Fails naming each use
# in core/, ui/ and app/ other than QProcess::waitForBytesWritten(0), which never blocks, and
# lines marked "blocking-wait-ok:" with the reason no loop can be stalled there.
file(GLOB_RECURSE sources ${SOURCE_DIR}/core/*.cpp ${SOURCE_DIR}/core/*.h
     ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h)
set(found "")
foreach(f ${sources})
  file(STRINGS ${f} lines REGEX "waitFor[A-Za-z]*\\(")
  foreach(l ${lines})
    if(NOT l MATCHES "waitForBytesWritten\\(0\\)" AND NOT l MATCHES "^[ \t]*//" AND NOT l MATCHES "blocking-wait-ok:")
      string(APPEND found "${f}: ${l}\n")
    endif()
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "blocking waits:\n${found}")
endif()
message(STATUS "no blocking waits")
