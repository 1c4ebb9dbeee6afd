# SPDX-License-Identifier: MIT
# Included by the top-level CMakeLists.txt when SONDE_FUZZ is on: sonde_core and the
# libFuzzer targets only (no GUI, no tests), built with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer. Undefined behaviour aborts, so libFuzzer keeps the input.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "SONDE_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
endif()
find_package(Qt6 6.4 REQUIRED COMPONENTS Core Network)
qt_standard_project_setup()
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
# The definitions and warnings are the main build's (the top-level CMakeLists.txt).
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
# No precompiled headers: beside the unity build (the fuzz preset) they saved nothing here
# (66 s with them, 63 s without, from nothing).
set(CMAKE_DISABLE_PRECOMPILE_HEADERS ON)
add_subdirectory(core)
add_subdirectory(tests/fuzz)
