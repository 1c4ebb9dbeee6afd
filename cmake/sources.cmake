# SPDX-License-Identifier: MIT
# How a library lists its sources: a folder at a time, each class by its name, which stands
# for its .h and its .cpp; a header with no .cpp after HEADERS. One rule for every library,
# so a class is never listed by half.
#   sonde_add_folder(sonde_ui tools toolspanel promptspanel)
#   sonde_add_folder(sonde_application history historymodel HEADERS historycatalog)
function(sonde_add_folder target folder)
  cmake_parse_arguments(PARSE_ARGV 2 F "" "" "HEADERS")
  set(sources)
  foreach(class IN LISTS F_UNPARSED_ARGUMENTS)
    list(APPEND sources ${folder}/${class}.h ${folder}/${class}.cpp)
  endforeach()
  foreach(header IN LISTS F_HEADERS)
    list(APPEND sources ${folder}/${header}.h)
  endforeach()
  target_sources(${target} PRIVATE ${sources})
endfunction()
