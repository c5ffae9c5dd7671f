# `cmake --install build --prefix P`: the package find_package(Cascade CONFIG) finds, with the
# targets Cascade::runtime (shared library, every AOT variant, one Halide runtime) and
# Cascade::funcs (static library for users' Halide generators), the public headers and the
# `cascade` command line.
include(CMakePackageConfigHelpers)
set(CASCADE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Cascade)

install(TARGETS cascade_runtime cascade_funcs EXPORT CascadeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cascade DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS cascade_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT CascadeTargets NAMESPACE Cascade:: DESTINATION ${CASCADE_CMAKE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/CascadeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/CascadeConfig.cmake INSTALL_DESTINATION ${CASCADE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/CascadeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/CascadeConfig.cmake ${PROJECT_BINARY_DIR}/CascadeConfigVersion.cmake
  DESTINATION ${CASCADE_CMAKE_DIR})
