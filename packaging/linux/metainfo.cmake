# SPDX-License-Identifier: MIT
# What the AppStream metainfo says of Sonde, read once for everything built from it: the
# Debian package (cpack.cmake) and the About dialog (ui/sonde-ui-config.h), so neither
# spells a homepage or a licence of its own. Included from the top CMakeLists before ui/.
include_guard(GLOBAL)

set(SONDE_METAINFO ${CMAKE_CURRENT_LIST_DIR}/io.github.sonde.Sonde.metainfo.xml)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${SONDE_METAINFO})
file(READ ${SONDE_METAINFO} SONDE_METAINFO_TEXT)

# The text of the first <tag ...>text</tag> in the metainfo, whitespace folded to single spaces.
function(sonde_metainfo_text out tag)
  string(REGEX MATCH "<${tag}[^>]*>([^<]*)</${tag}>" _m "${SONDE_METAINFO_TEXT}")
  if(NOT CMAKE_MATCH_1)
    message(FATAL_ERROR "packaging: no <${tag}> in ${SONDE_METAINFO}")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " _t "${CMAKE_MATCH_1}")
  string(STRIP "${_t}" _t)
  set(${out} "${_t}" PARENT_SCOPE)
endfunction()

string(REGEX MATCH "<url type=\"homepage\">([^<]*)</url>" _m "${SONDE_METAINFO_TEXT}")
set(SONDE_HOMEPAGE "${CMAKE_MATCH_1}")
if(NOT SONDE_HOMEPAGE)
  message(FATAL_ERROR "packaging: no <url type=\"homepage\"> in ${SONDE_METAINFO}")
endif()
sonde_metainfo_text(SONDE_LICENSE project_license)
