# SPDX-License-Identifier: MIT
# Every C++ source is as .clang-format lays it out (STYLE.md): fails naming the files that
# are not, so `clang-format -i FILE` fixes them. A missing clang-format fails too.
find_program(CLANG_FORMAT NAMES clang-format clang-format-14)
if(NOT CLANG_FORMAT)
  message(FATAL_ERROR "clang-format is not installed (./dev.sh installs it)")
endif()
file(GLOB_RECURSE sources
     ${SOURCE_DIR}/core/*.cpp ${SOURCE_DIR}/core/*.h ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h
     ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.h)
list(FILTER sources EXCLUDE REGEX "/node_modules/|/tests/tools/")
# One clang-format for every file (one process per file took 20 s of a CI run); it names
# each file that differs in its diagnostics.
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${sources} RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_VARIABLE diagnostics)
set(bad "")
if(NOT rc EQUAL 0)
  string(REGEX MATCHALL "(^|\n)[^\n:]+:[0-9]+:[0-9]+: (error|warning)" hits "${diagnostics}")
  set(files "")
  foreach(h ${hits})
    string(REGEX REPLACE "^\n?([^:]+):.*" "\\1" f "${h}")
    list(APPEND files ${f})
  endforeach()
  list(REMOVE_DUPLICATES files)
  foreach(f ${files})
    string(APPEND bad "  ${f}\n")
  endforeach()
  if(NOT bad)
    set(bad "  (clang-format failed: ${diagnostics})\n")
  endif()
endif()
if(bad)
  message(FATAL_ERROR "not clang-formatted (run clang-format -i on them):\n${bad}")
endif()
list(LENGTH sources n)
message(STATUS "${n} files clang-formatted")
