# cascade_add_variant(<name> <extra> <device> CATALOGUE <manifest> GENERATOR <gen> FROM <exe>
#                     [AUTOSCHEDULER <Halide::Li2018|...>] PARAMS <k=v>...)
#
# Builds the AOT library <name> (a variant key's name, contract/variant_key.h) for <device>,
# function cascade_<name>, all libraries sharing a single Halide runtime. Called by the lines the
# catalogue tool writes (cmake/CascadeCatalogue.cmake), not by hand. Each library is appended to the
# global property CASCADE_HALIDE_LIBRARIES and "<name>|<extra>|<manifest>" to CASCADE_VARIANT_ROWS,
# from which runtime/CMakeLists.txt generates the dispatch table. <extra> 1: a variant plans run
# only when asked for its schedule; <manifest>: the catalogue that lists it (iir, comparison, ...).
#
# With CASCADE_PREBUILT_VARIANTS (the generators/ folder of another build tree of the same
# sources), a library that tree holds and its runtime are imported from there instead of
# generated, and only the others are generated here, on that runtime: how scripts/sanitize.sh
# reuses the normal build's variants, and how a tree tries a new variant without regenerating all.
function(cascade_add_variant NAME EXTRA DEVICE)
  cmake_parse_arguments(ARG "" "CATALOGUE;GENERATOR;FROM;AUTOSCHEDULER" "PARAMS" ${ARGN})
  if(CASCADE_PREBUILT_VARIANTS)
    cascade_import_runtime()
    if(EXISTS ${CASCADE_PREBUILT_VARIANTS}/lib${NAME}.a AND EXISTS ${CASCADE_PREBUILT_VARIANTS}/${NAME}.h)
      cascade_import_variant(${NAME} "${NAME}|${EXTRA}|${ARG_CATALOGUE}")
      return()
    endif()
  endif()
  set(autoscheduler_args "")
  if(ARG_AUTOSCHEDULER)
    if(NOT TARGET ${ARG_AUTOSCHEDULER})
      message(FATAL_ERROR "${NAME}: this Halide has no autoscheduler ${ARG_AUTOSCHEDULER}")
    endif()
    set(autoscheduler_args AUTOSCHEDULER ${ARG_AUTOSCHEDULER})
  endif()
  set(target ${CASCADE_CPU_TARGET})
  if(DEVICE STREQUAL "cuda")
    set(target ${CASCADE_CPU_TARGET}-${CASCADE_CUDA_FEATURES})
  endif()
  get_property(owner GLOBAL PROPERTY CASCADE_RUNTIME_OWNER)
  set(runtime_arg "")
  if(owner)
    set(runtime_arg USE_RUNTIME ${owner}.runtime)
  endif()
  add_halide_library(${NAME} FROM ${ARG_FROM}
    GENERATOR ${ARG_GENERATOR}
    FUNCTION_NAME cascade_${NAME}
    TARGETS ${target}
    PARAMS ${ARG_PARAMS}
    ${autoscheduler_args}
    ${runtime_arg})
  if(NOT owner)
    # The first library's runtime serves every other one; its target list grows with theirs.
    set_property(GLOBAL PROPERTY CASCADE_RUNTIME_OWNER ${NAME})
  endif()
  set_property(GLOBAL APPEND PROPERTY CASCADE_HALIDE_LIBRARIES ${NAME})
  set_property(GLOBAL APPEND PROPERTY CASCADE_VARIANT_ROWS "${NAME}|${EXTRA}|${ARG_CATALOGUE}")
endfunction()

# The Halide runtime the libraries of CASCADE_PREBUILT_VARIANTS share, imported once; the
# libraries generated here use it too.
function(cascade_import_runtime)
  if(TARGET cascade_prebuilt.runtime)
    return()
  endif()
  file(GLOB runtimes ${CASCADE_PREBUILT_VARIANTS}/lib*.runtime.a)
  list(LENGTH runtimes count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "CASCADE_PREBUILT_VARIANTS: ${CASCADE_PREBUILT_VARIANTS} holds ${count} Halide runtimes, not one")
  endif()
  add_library(cascade_prebuilt.runtime STATIC IMPORTED GLOBAL)
  set_target_properties(cascade_prebuilt.runtime PROPERTIES IMPORTED_LOCATION ${runtimes}
                        INTERFACE_LINK_LIBRARIES "Threads::Threads;${CMAKE_DL_LIBS}")
  set_property(GLOBAL PROPERTY CASCADE_RUNTIME_OWNER cascade_prebuilt)
endfunction()

# The library <name> of CASCADE_PREBUILT_VARIANTS, as cascade_add_variant would have built it.
function(cascade_import_variant NAME ROW)
  set(dir ${CASCADE_PREBUILT_VARIANTS})
  add_library(${NAME} STATIC IMPORTED GLOBAL)
  set_target_properties(${NAME} PROPERTIES IMPORTED_LOCATION ${dir}/lib${NAME}.a
                        INTERFACE_INCLUDE_DIRECTORIES ${dir}
                        INTERFACE_LINK_LIBRARIES "cascade_prebuilt.runtime;Halide::Runtime")
  set_property(GLOBAL APPEND PROPERTY CASCADE_HALIDE_LIBRARIES ${NAME})
  set_property(GLOBAL APPEND PROPERTY CASCADE_VARIANT_ROWS "${ROW}")
endfunction()
