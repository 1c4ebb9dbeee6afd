# SPDX-License-Identifier: MIT
# The window's headers are included with their folder, from ui/ (HACKING.md): a widget's as
# "tools/toolspanel.h", the application layer's as "application/tools/toollistmodel.h". Fails,
# naming the file and the line, when
# - a file in ui/, app/ or tests/ includes a ui/ header by its bare name;
# - a file in ui/application/ (the layer under the widgets) includes a widget's header;
# - a ui/ header has the path of a core/ one ("transcript/x.h" in both), which would make the
#   include mean whichever folder comes first on the include path.
# Every folder under ui/ is scanned, so a new one is covered without a change here.
file(GLOB_RECURSE uiHeaders RELATIVE ${SOURCE_DIR}/ui ${SOURCE_DIR}/ui/*.h)
set(bareNames "")
set(found "")
foreach(h ${uiHeaders})
  get_filename_component(name ${h} NAME)
  list(APPEND bareNames ${name})
  if(NOT h MATCHES "/")
    string(APPEND found "ui/${h}: a header at the top of ui/ (put it in the folder of its part of the window)\n")
  endif()
  if(EXISTS ${SOURCE_DIR}/core/${h})
    string(APPEND found "ui/${h}: has the path of core/${h} (an include of it is ambiguous)\n")
  endif()
endforeach()
file(GLOB_RECURSE sources ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h ${SOURCE_DIR}/app/*.cpp
     ${SOURCE_DIR}/app/*.h ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.h)
list(FILTER sources EXCLUDE REGEX "/node_modules/|/tests/tools/")
foreach(f ${sources})
  file(RELATIVE_PATH rel ${SOURCE_DIR} ${f})
  file(STRINGS ${f} lines REGEX "^#include \"[^\"]+\"")
  foreach(l ${lines})
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" inc "${l}")
    if(NOT inc MATCHES "/")
      list(FIND bareNames ${inc} bare)
      if(NOT bare EQUAL -1)
        string(APPEND found "${rel}: ${l} (a ui/ header is included with its folder)\n")
      endif()
    elseif(rel MATCHES "^ui/application/" AND EXISTS ${SOURCE_DIR}/ui/${inc}
           AND NOT inc MATCHES "^application/")
      string(APPEND found "${rel}: ${l} (the application layer may not include a widget)\n")
    endif()
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "ui/ includes out of place:\n${found}")
endif()
list(LENGTH uiHeaders n)
message(STATUS "${n} ui/ headers, each included with its folder")
