# cascade_add_manifest(<file.json>)
#
# Builds the extra variants a tuning manifest names (`cascade tune --emit-manifest`,
# docs/tuning.md): block-parallel IIR variants with schedule knobs other than the build's defaults,
# and variants a Halide autoscheduler schedules instead of the hand schedules.
#   {"variants": [{"algorithm": 6, "sections": 2, "tile": 32, "rows": 4, "exact": false,
#                  "level": false, "devices": ["cpu", "cuda"]},
#                 {"algorithm": "rt", "sections": 2, "exact": false, "level": false,
#                  "autoscheduler": "Li2018", "devices": ["cuda"]}, ...]}
# `sections` 0 is the direct form of order 1 (of order `order` where given). `autoscheduler`:
# Li2018, Adams2019 or Mullapudi2016 (Halide's, loaded as plugins). `passes` (algorithm rt):
# columns, rows, causal or anticausal, the part of the filter the variant runs (cascade::Passes),
# named iir_rt[_sections]_<passes>[_exact][_level]. The other knobs: `scan` (auto, registers,
# shared), `carries` (auto, stored, inline) and `vector` for algorithms 4, 5, 6; `vector`, `grain`
# and `block` for RT (generators/iir_tiled_generator.cpp, iir_rt_generator.cpp). Entries with the
# build's own schedule, or an algorithm this build leaves out, are skipped: the default variants
# hold them.
function(cascade_add_manifest FILE)
  file(READ "${FILE}" manifest)
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${FILE}")
  string(JSON count LENGTH "${manifest}" variants)
  if(count EQUAL 0)
    return()
  endif()
  math(EXPR last "${count} - 1")
  set(added 0)
  foreach(i RANGE ${last})
    # Optional keys read back as "" (and their error is dropped).
    foreach(key algorithm sections tile rows exact level order autoscheduler devices passes scan carries vector grain block)
      string(JSON ${key} ERROR_VARIABLE missing GET "${manifest}" variants ${i} ${key})
      if(missing)
        set(${key} "")
      endif()
    endforeach()
    # JSON booleans read back as ON/OFF; the generators parse true/false.
    foreach(key exact level)
      if(${key})
        set(${key} true)
      else()
        set(${key} false)
      endif()
    endforeach()
    set(device_list cpu cuda)
    if(devices)
      set(device_list "")
      string(JSON n LENGTH "${devices}")
      math(EXPR n_last "${n} - 1")
      foreach(k RANGE ${n_last})
        string(JSON dev GET "${devices}" ${k})
        list(APPEND device_list ${dev})
      endforeach()
    endif()
    set(scheduler_args "")
    if(autoscheduler)
      if(NOT TARGET Halide::${autoscheduler})
        message(FATAL_ERROR "${FILE}: entry ${i}: no Halide autoscheduler '${autoscheduler}' "
                            "(Li2018, Adams2019 or Mullapudi2016)")
      endif()
      set(scheduler_args AUTOSCHEDULER Halide::${autoscheduler})
    endif()

    # The other knobs (docs/tuning.md): scan, carries and vector for algorithms 4, 5, 6; vector,
    # grain and block for RT.
    set(other_knobs "")
    foreach(key scan carries vector grain block)
      if(NOT ${key} STREQUAL "")
        list(APPEND other_knobs ${key}=${${key}})
      endif()
    endforeach()
    set(default_schedule OFF)  # the build's own schedule: found without asking for knobs
    if(algorithm STREQUAL "rt")
      set(stem iir_rt)
      set(generator iir_rt)
      set(knob_params "")
      if(passes)
        list(APPEND knob_params passes=${passes})
      endif()
    else()
      if(tile EQUAL CASCADE_IIR_TILE AND rows EQUAL CASCADE_IIR_ROWS AND NOT autoscheduler AND NOT other_knobs)
        set(default_schedule ON)
      endif()
      if(NOT algorithm IN_LIST CASCADE_TILED_ALGORITHMS OR (default_schedule AND CASCADE_DEFAULT_IIR_VARIANTS))
        continue()
      endif()
      set(stem iir_a${algorithm})
      set(generator iir_tiled)
      set(knob_params algorithm=${algorithm} tile=${tile} rows=${rows} input.type=float32 output.type=float32)
    endif()
    if(algorithm STREQUAL "rt" AND NOT autoscheduler AND NOT other_knobs)
      set(default_schedule ON)
      if(NOT passes AND CASCADE_DEFAULT_IIR_VARIANTS)
        continue()  # RT has one hand schedule, which every build holds
      endif()
    endif()

    set(name ${stem})
    if(sections GREATER 0)
      string(APPEND name _sections)
    endif()
    # A part has a name of its own, found by it rather than by schedule knobs: not an extra
    # unless it has knobs too; nor is a default schedule where the manifest is the whole build.
    set(extra EXTRA)
    if(passes)
      string(APPEND name _${passes})
    endif()
    if(default_schedule)
      set(extra "")
    endif()
    if(exact)
      string(APPEND name _exact)
    endif()
    if(level)
      string(APPEND name _level)
    endif()
    if(sections GREATER 0)
      math(EXPR size "2 * ${sections}")
      set(variant_order ${sections})
    else()
      set(variant_order 1)
      if(order)
        set(variant_order ${order})
      endif()
      set(size ${variant_order})
    endif()
    cascade_add_variant(${name} ORDER ${variant_order} GENERATOR ${generator} FROM ${generator}.generator ${extra}
      DEVICES ${device_list} ${scheduler_args} KNOBS ${other_knobs}
      PARAMS ${knob_params} exact=${exact} level=${level} sections=${sections}
             feedback_y.size=${size} feedback_x.size=${size})
    math(EXPR added "${added} + 1")
  endforeach()
  message(STATUS "Tuning manifest ${FILE}: ${added} extra variant(s)")
endfunction()
