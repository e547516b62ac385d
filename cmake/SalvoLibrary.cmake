# salvo_library(NAME SOURCES file... [INCLUDE dir] [PUBLIC dep...] [PRIVATE dep...])
#
# One of salvo's libraries: the target salvo_NAME and its alias salvo::NAME, built from SOURCES,
# its public headers in INCLUDE (a folder of the calling CMakeLists.txt; "include" if not given),
# linked to PUBLIC and PRIVATE, and compiled with the project's warnings (salvo_warnings).
function(salvo_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "INCLUDE" "SOURCES;PUBLIC;PRIVATE")
  if(NOT arg_INCLUDE)
    set(arg_INCLUDE include)
  endif()
  add_library(salvo_${name} ${arg_SOURCES})
  add_library(salvo::${name} ALIAS salvo_${name})
  target_include_directories(salvo_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/${arg_INCLUDE})
  target_link_libraries(salvo_${name} PUBLIC ${arg_PUBLIC} PRIVATE ${arg_PRIVATE} salvo_warnings)
endfunction()
