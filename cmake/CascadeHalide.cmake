# cascade_add_variant(<name> ORDER <r> GENERATOR <gen> FROM <exe> [DEVICES <cpu|cuda>...] [PARAMS <k=v>...]
#                     [KNOBS <k=v>...] [EXTRA] [AUTOSCHEDULER <Halide::Li2018|Halide::Adams2019|...>])
#
# Builds the AOT libraries <name>_o<r>_cpu and, with CASCADE_CUDA, <name>_o<r>_cuda (of those, the
# DEVICES named, where given), all sharing
# a single Halide runtime. Each library is appended to the global property
# CASCADE_HALIDE_LIBRARIES and a row per library to CASCADE_VARIANT_ROWS, from which
# runtime/CMakeLists.txt generates the dispatch table. <r> is what the runtime matches a filter
# against: the order of a direct-form variant, the section count of a sectioned one. The row also
# carries the schedule knobs `tile=` and `rows=` of PARAMS (0 where absent), KNOBS (generator
# parameters too) as one string, and EXTRA: a variant
# a tuning manifest added (cmake/CascadeManifest.cmake), which plans run only when asked for its
# knobs, and with AUTOSCHEDULER the autoscheduler that schedules it instead of the generator's
# hand schedule (its lower-case name, "li2018", is the knob).
function(cascade_add_variant NAME)
  cmake_parse_arguments(ARG "EXTRA" "ORDER;GENERATOR;FROM;AUTOSCHEDULER" "PARAMS;DEVICES;KNOBS" ${ARGN})
  set(knobs "")
  foreach(knob tile rows)
    set(value 0)
    foreach(param IN LISTS ARG_PARAMS)
      if(param MATCHES "^${knob}=([0-9]+)$")
        set(value ${CMAKE_MATCH_1})
      endif()
    endforeach()
    string(APPEND knobs "|${value}")
  endforeach()
  # KNOBS: the other schedule knobs (docs/tuning.md), generator parameters too, "key=value"
  # joined by commas in the order given (cmake/CascadeManifest.cmake's): what TileSchedule::knobs names.
  set(named_knobs "")
  set(knob_suffix "")
  foreach(knob IN LISTS ARG_KNOBS)
    if(NOT knob MATCHES "^([a-z]+)=([a-z0-9]+)$")
      message(FATAL_ERROR "cascade_add_variant(${NAME}): knob '${knob}' is not key=value")
    endif()
    if(named_knobs)
      string(APPEND named_knobs ",")
    endif()
    string(APPEND named_knobs "${knob}")
    string(APPEND knob_suffix "_${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
  endforeach()
  set(extra 0)
  set(suffix "")
  set(autoscheduler "")
  set(autoscheduler_args "")
  if(ARG_AUTOSCHEDULER)
    string(REGEX REPLACE ".*::" "" autoscheduler "${ARG_AUTOSCHEDULER}")
    string(TOLOWER "${autoscheduler}" autoscheduler)
    set(autoscheduler_args AUTOSCHEDULER ${ARG_AUTOSCHEDULER})
  endif()
  if(ARG_EXTRA)
    set(extra 1)
    # Extras share the default variants' names; the library's name tells their knobs apart.
    if(NOT knobs STREQUAL "|0|0")
      string(REGEX REPLACE "^\\|([0-9]+)\\|([0-9]+)$" "_t\\1r\\2" suffix "${knobs}")
    endif()
    if(autoscheduler)
      string(APPEND suffix _${autoscheduler})
    endif()
    string(APPEND suffix "${knob_suffix}")
  endif()
  set(devices cpu)
  if(CASCADE_CUDA)
    list(APPEND devices cuda)
  endif()
  # DEVICES: a realisation built for some devices only (the CPU's strips).
  if(ARG_DEVICES)
    set(devices_wanted ${devices})
    set(devices "")
    foreach(dev IN LISTS devices_wanted)
      if(dev IN_LIST ARG_DEVICES)
        list(APPEND devices ${dev})
      endif()
    endforeach()
  endif()
  if(NOT named_knobs)
    set(named_knobs "-")
  endif()
  foreach(dev IN LISTS devices)
    set(lib ${NAME}${suffix}_o${ARG_ORDER}_${dev})
    set(target ${CASCADE_CPU_TARGET})
    if(dev STREQUAL "cuda")
      set(target ${CASCADE_CPU_TARGET}-${CASCADE_CUDA_FEATURES})
    endif()
    get_property(owner GLOBAL PROPERTY CASCADE_RUNTIME_OWNER)
    set(runtime_arg "")
    if(owner)
      set(runtime_arg USE_RUNTIME ${owner}.runtime)
    endif()
    add_halide_library(${lib} FROM ${ARG_FROM}
      GENERATOR ${ARG_GENERATOR}
      FUNCTION_NAME cascade_${lib}
      TARGETS ${target}
      PARAMS ${ARG_PARAMS} ${ARG_KNOBS}
      ${autoscheduler_args}
      ${runtime_arg})
    if(NOT owner)
      # The first library's runtime serves every other one; its target list grows with theirs.
      set_property(GLOBAL PROPERTY CASCADE_RUNTIME_OWNER ${lib})
    endif()
    set_property(GLOBAL APPEND PROPERTY CASCADE_HALIDE_LIBRARIES ${lib})
    # "-": hand-scheduled (a list element may not be empty).
    set(scheduler "${autoscheduler}")
    if(NOT scheduler)
      set(scheduler "-")
    endif()
    set_property(GLOBAL APPEND PROPERTY CASCADE_VARIANT_ROWS
                 "${NAME}|${ARG_ORDER}|${dev}|cascade_${lib}${knobs}|${extra}|${scheduler}|${named_knobs}")
  endforeach()
endfunction()
