# cascade_add_catalogue(<manifest>...)
#
# Builds every variant the catalogue manifests name (catalogue/*.json; docs/tuning.md,
# "Manifests"): compiles catalogue/catalogue_tool.cpp while configuring, runs it on the manifests
# and the build's default knobs, and includes the `cascade_add_variant` calls it writes. The keys,
# their names and their generator parameters are the tool's (contract/variant_key.h); CMake only
# builds what it is told. A tuning manifest (`cascade tune --emit-manifest`) is one more catalogue.
function(cascade_add_catalogue)
  set(dir ${CMAKE_BINARY_DIR}/catalogue)
  set(tool ${dir}/catalogue_tool)
  set(sources ${PROJECT_SOURCE_DIR}/catalogue/catalogue_tool.cpp ${PROJECT_SOURCE_DIR}/contract/variant_key.cpp)
  set(stamp_text "${CMAKE_CXX_COMPILER}")
  foreach(source IN LISTS sources ${PROJECT_SOURCE_DIR}/contract/variant_key.h)
    file(SHA256 ${source} hash)
    string(APPEND stamp_text " ${hash}")
  endforeach()
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${sources} ${PROJECT_SOURCE_DIR}/contract/variant_key.h)
  set(stamp_file ${dir}/catalogue_tool.stamp)
  set(old_stamp "")
  if(EXISTS ${stamp_file})
    file(READ ${stamp_file} old_stamp)
  endif()
  if(NOT EXISTS ${tool} OR NOT old_stamp STREQUAL stamp_text)
    file(MAKE_DIRECTORY ${dir})
    get_target_property(json_includes nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
    set(include_flags "")
    foreach(d IN LISTS json_includes)
      list(APPEND include_flags -I${d})
    endforeach()
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -std=c++17 -O1 -I${PROJECT_SOURCE_DIR} ${include_flags} ${sources}
                            -o ${tool}
                    RESULT_VARIABLE failed ERROR_VARIABLE errors)
    if(failed)
      message(FATAL_ERROR "catalogue_tool did not compile:\n${errors}")
    endif()
    file(WRITE ${stamp_file} "${stamp_text}")
  endif()

  set(args "")
  if(CASCADE_CUDA)
    list(APPEND args --cuda)
  endif()
  foreach(setting iir_tile=${CASCADE_IIR_TILE} iir_rows=${CASCADE_IIR_ROWS}
                  direct3_tile=${CASCADE_IIR_DIRECT3_TILE} direct3_rows=${CASCADE_IIR_DIRECT3_ROWS}
                  sat_tile=${CASCADE_SAT_TILE} sat_rows=${CASCADE_SAT_ROWS}
                  line_block=${CASCADE_LINE_BLOCK} line_chunk=${CASCADE_LINE_CHUNK} line_levels=${CASCADE_LINE_LEVELS}
                  line_strips_segment=${CASCADE_LINE_STRIPS_SEGMENT}
                  line_strips_threads=${CASCADE_LINE_STRIPS_THREADS})
    list(APPEND args --set ${setting})
  endforeach()
  foreach(manifest IN LISTS ARGN)
    list(APPEND args --catalogue ${manifest})
  endforeach()
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ARGN})
  execute_process(COMMAND ${tool} ${dir}/variants.cmake ${args} RESULT_VARIABLE failed ERROR_VARIABLE report)
  if(failed)
    message(FATAL_ERROR "${report}")
  endif()
  string(STRIP "${report}" report)
  message(STATUS "${report}")
  include(${dir}/variants.cmake)
endfunction()
