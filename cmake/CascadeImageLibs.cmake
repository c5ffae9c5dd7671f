# Provides the target cascade::image_libs (libpng + libtiff). With CASCADE_STATIC_IMAGE_LIBS the
# archives of libtiff's whole codec closure are linked, so the binaries need only glibc.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CASCADE_IMG REQUIRED libtiff-4 libpng zlib)

add_library(cascade_image_libs INTERFACE)
add_library(cascade::image_libs ALIAS cascade_image_libs)
target_include_directories(cascade_image_libs INTERFACE ${CASCADE_IMG_INCLUDE_DIRS})

if(CASCADE_STATIC_IMAGE_LIBS)
  set(_archives "")
  foreach(_name IN LISTS CASCADE_IMG_STATIC_LIBRARIES)
    if(_name MATCHES "^(m|pthread|dl|rt)$")
      continue()
    endif()
    find_library(_lib_${_name} NAMES lib${_name}.a HINTS ${CASCADE_IMG_STATIC_LIBRARY_DIRS})
    if(NOT _lib_${_name})
      message(FATAL_ERROR "static lib${_name}.a not found; install its -dev package or pass "
                          "-DCASCADE_STATIC_IMAGE_LIBS=OFF")
    endif()
    list(APPEND _archives ${_lib_${_name}})
  endforeach()
  list(REMOVE_DUPLICATES _archives)
  # The archives depend on each other in no fixed order: resolve them as a group.
  target_link_libraries(cascade_image_libs INTERFACE
    "-Wl,--start-group" ${_archives} "-Wl,--end-group" Threads::Threads m)
else()
  target_link_libraries(cascade_image_libs INTERFACE ${CASCADE_IMG_LINK_LIBRARIES})
endif()
