# Writes OUTPUT: a C++ file defining cuarray::kernels::<name>_cuh for each file in SOURCES
# (a ;-list), as raw string literals. Run with cmake -P at build time so edits rebuild.
set(body "// Generated from src/kernels/*.cuh by cmake/embed_sources.cmake. Do not edit.\n")
string(APPEND body "#include <string_view>\nnamespace cuarray::kernels {\n")
foreach(src IN LISTS SOURCES)
  get_filename_component(stem "${src}" NAME_WE)
  file(READ "${src}" text)
  string(APPEND body "extern const std::string_view ${stem}_cuh = R\"cuarray_cuh(${text})cuarray_cuh\";\n")
endforeach()
string(APPEND body "}  // namespace cuarray::kernels\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
