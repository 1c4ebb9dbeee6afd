# SPDX-License-Identifier: MIT
# The Debian package (`cpack -G DEB` in the build folder), included from the top CMakeLists.
# Its name, homepage, maintainer, summary and description come from the AppStream metainfo,
# so the package and the software centres say the same thing; its Depends come from
# dpkg-shlibdeps (dpkg-dev and file), so they name the Qt 6 libraries the programs link.

include(${CMAKE_CURRENT_LIST_DIR}/metainfo.cmake)
set(_metainfo_text "${SONDE_METAINFO_TEXT}")
sonde_metainfo_text(_summary summary)
sonde_metainfo_text(_developer developer_name)
sonde_metainfo_text(_contact update_contact)
set(_homepage "${SONDE_HOMEPAGE}")
# The extended description: the component's own paragraphs (the first <description>, not a
# release's), one Debian paragraph each.
string(FIND "${_metainfo_text}" "<description>" _begin)
string(FIND "${_metainfo_text}" "</description>" _end)
math(EXPR _length "${_end} - ${_begin} - 13")
math(EXPR _begin "${_begin} + 13")
string(SUBSTRING "${_metainfo_text}" ${_begin} ${_length} _paragraphs)
string(REGEX REPLACE "[ \t\r\n]+" " " _paragraphs "${_paragraphs}")
string(REGEX REPLACE "</p> *<p>" " @PARAGRAPH@ " _paragraphs "${_paragraphs}")
string(REGEX REPLACE " *</?p> *" "" _paragraphs "${_paragraphs}")
# Debian wants the extended description in lines of under 80 columns, and an empty line
# (CPack writes " .") between paragraphs.
set(_wrapped "")
set(_line "")
string(REPLACE " " ";" _words "${_paragraphs}")
foreach(_word IN LISTS _words)
  string(LENGTH "${_line} ${_word}" _length)
  if(_word STREQUAL "@PARAGRAPH@")
    string(APPEND _wrapped "${_line}\n\n")
    set(_line "")
  elseif(_line STREQUAL "")
    set(_line "${_word}")
  elseif(_length GREATER 76)
    string(APPEND _wrapped "${_line}\n")
    set(_line "${_word}")
  else()
    string(APPEND _line " ${_word}")
  endif()
endforeach()
string(APPEND _wrapped "${_line}")
set(_paragraphs "${_wrapped}")

set(CPACK_PACKAGE_NAME sonde)
set(CPACK_PACKAGE_VENDOR "${_developer}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${_summary}")
set(CPACK_PACKAGE_DESCRIPTION "${_paragraphs}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${_homepage}")
set(CPACK_PACKAGE_CONTACT "${_developer} <${_contact}>")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
# Binaries without their debugging sections: a RelWithDebInfo sonde is several times larger.
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Qt's SQLite driver is a plugin, loaded by name, which dpkg-shlibdeps cannot see: the history
# (docs/history.md) needs it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
# Wayland sessions run the window natively with Qt's Wayland plugin; without it Qt falls back
# to XWayland through the xcb plugin, which libqt6gui6 ships.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, nodejs")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The archive is a few MiB; xz is Debian's own default, and `cpack -D
# CPACK_DEBIAN_COMPRESSION_TYPE=gzip` makes a quick one (the packaging test does).
if(NOT DEFINED CPACK_DEBIAN_COMPRESSION_TYPE)
  set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
endif()
set(CPACK_GENERATOR DEB)

include(CPack)
