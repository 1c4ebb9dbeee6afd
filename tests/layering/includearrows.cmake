# SPDX-License-Identifier: MIT
# The core's layers, lowest first: a file may include its own layer and the layers below
# it, never one above (docs/architecture.md). An include that points up the stack fails
# here, naming the file and the line, before it can grow into a cycle.
# secrets holds the SecretStore interface and its stores (util below them); history,
# collections and proxy are libraries over the engine.
set(layers util secrets protocol config values transcript transport auth session recovery engine
           history collections proxy doctor apps)
file(GLOB_RECURSE sources ${SOURCE_DIR}/core/*.cpp ${SOURCE_DIR}/core/*.h)
set(found "")
foreach(f ${sources})
  file(RELATIVE_PATH rel ${SOURCE_DIR}/core ${f})
  string(REGEX MATCH "^[^/]+" own ${rel})
  list(FIND layers ${own} ownRank)
  if(ownRank EQUAL -1)
    string(APPEND found "${rel}: core/${own}/ is not a known layer (add it to includearrows.cmake)\n")
    continue()
  endif()
  # The core never reads settings: configuration comes in as values (docs/architecture.md).
  file(STRINGS ${f} settings REGEX "^#include <(QtCore/)?QSettings>")
  foreach(l ${settings})
    string(APPEND found "${rel}: ${l} (the core takes configuration as values, never from QSettings)\n")
  endforeach()
  file(STRINGS ${f} lines REGEX "^#include \"[a-z]+/")
  foreach(l ${lines})
    string(REGEX REPLACE "^#include \"([a-z]+)/.*" "\\1" target "${l}")
    list(FIND layers ${target} targetRank)
    if(targetRank GREATER ownRank)
      string(APPEND found "${rel}: ${l} (${own} may not include ${target})\n")
    endif()
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "includes pointing up the layers:\n${found}")
endif()
message(STATUS "every include points down the layers")
