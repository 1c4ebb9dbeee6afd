# SPDX-License-Identifier: MIT
# The Flatpak manifest cannot be built here (no KDE runtime), so its syntax and the keys a
# build needs are checked: it parses as JSON, names the same id as the desktop file and the
# metainfo, runs on a KDE 6 runtime (which ships KF6 SyntaxHighlighting), builds this source
# tree with cmake-ninja, and asks for a desktop app's permissions and no more.
# cmake -DMANIFEST=... -DSOURCE_DIR=... -P flatpakmanifest.cmake
cmake_minimum_required(VERSION 3.25)

set(failures)
# check(MESSAGE CONDITION...): MESSAGE is a failure unless CONDITION holds (as in if()).
macro(check message)
  if(NOT (${ARGN}))
    list(APPEND failures "${message}")
  endif()
endmacro()
# The string at a JSON path ("" when missing), without stopping at the first missing key.
function(json_get out)
  string(JSON value ERROR_VARIABLE error GET "${manifest}" ${ARGN})
  if(error)
    set(value "")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()
# The members of a JSON array at a path, as a CMake list.
function(json_array out)
  set(items)
  string(JSON n ERROR_VARIABLE error LENGTH "${manifest}" ${ARGN})
  if(NOT error AND n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${manifest}" ${ARGN} ${i})
      list(APPEND items "${item}")
    endforeach()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

file(READ "${MANIFEST}" manifest)
string(JSON type ERROR_VARIABLE parse_error TYPE "${manifest}")
if(parse_error OR NOT type STREQUAL "OBJECT")
  message(FATAL_ERROR "FAIL: ${MANIFEST} is not a JSON object: ${parse_error}")
endif()

get_filename_component(manifest_name "${MANIFEST}" NAME)
json_get(id id)
check("the file is not named after its id ${id}"
      manifest_name STREQUAL "${id}.json")
set(packaging ${SOURCE_DIR}/packaging/linux)
check("no desktop file ${id}.desktop for id ${id}"
      EXISTS "${packaging}/${id}.desktop")
file(READ ${packaging}/io.github.sonde.Sonde.metainfo.xml metainfo)
string(REGEX MATCH "<id>([^<]*)</id>" _ "${metainfo}")
check("the metainfo's id ${CMAKE_MATCH_1} is not the manifest's ${id}"
      CMAKE_MATCH_1 STREQUAL id)

json_get(runtime runtime)
json_get(sdk sdk)
json_get(runtime_version runtime-version)
json_get(command command)
check("runtime is \"${runtime}\", not org.kde.Platform"
      runtime STREQUAL "org.kde.Platform")
check("sdk is \"${sdk}\", not org.kde.Sdk"
      sdk STREQUAL "org.kde.Sdk")
# KF6 (with SyntaxHighlighting) is in the KDE runtime from 6.0 on; 5.15 has only KF5.
check("runtime-version \"${runtime_version}\" is not a KDE 6 branch"
      runtime_version MATCHES "^6[.][0-9]+$")
check("command is \"${command}\", not sonde"
      command STREQUAL "sonde")

json_array(finish_args finish-args)
foreach(arg --share=ipc --socket=wayland --socket=fallback-x11 --share=network --device=dri)
  check("finish-args lacks ${arg}"
      "${arg}" IN_LIST finish_args)
endforeach()
# Stdio servers are host programs: the README documents `flatpak-spawn --host` and
# `flatpak override`, so the manifest itself does not open the sandbox.
foreach(arg --filesystem=host --filesystem=home --talk-name=org.freedesktop.Flatpak --socket=x11)
  check("finish-args has ${arg}"
      NOT "${arg}" IN_LIST finish_args)
endforeach()

string(JSON module_count ERROR_VARIABLE error LENGTH "${manifest}" modules)
check("no modules"
      NOT error AND module_count GREATER 0)
if(NOT error AND module_count GREATER 0)
  math(EXPR last "${module_count} - 1")
  json_get(name modules ${last} name)
  json_get(buildsystem modules ${last} buildsystem)
  json_array(config_opts modules ${last} config-opts)
  json_get(source_type modules ${last} sources 0 type)
  json_get(source_path modules ${last} sources 0 path)
  check("the last module is \"${name}\", not sonde"
      name STREQUAL "sonde")
  check("sonde builds with \"${buildsystem}\", not cmake-ninja"
      buildsystem STREQUAL "cmake-ninja")
  check("config-opts lacks -DBUILD_TESTING=OFF (the tests need npm packages a sandbox build cannot fetch)"
      "-DBUILD_TESTING=OFF" IN_LIST config_opts)
  check("sonde's source is \"${source_type}\", not this tree (dir)"
      source_type STREQUAL "dir")
  get_filename_component(manifest_dir "${MANIFEST}" DIRECTORY)
  get_filename_component(tree "${manifest_dir}/${source_path}" REALPATH)
  get_filename_component(source_real "${SOURCE_DIR}" REALPATH)
  check("the source path ${source_path} is ${tree}, not ${source_real}"
      tree STREQUAL source_real)
endif()

if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "FAIL: ${MANIFEST}:\n  ${text}")
endif()
message(STATUS "${manifest_name}: ${id} on ${runtime}//${runtime_version}, cmake-ninja: ok")
