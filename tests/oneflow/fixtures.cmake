# OneFlow fixtures: make_fixtures.py writes them into the build tree (a CTest fixture that runs first; it skips
# the work when its sources have not changed), and the OneFlow tests read them from there.
set(FB_ONEFLOW_FIXTURES ${CMAKE_BINARY_DIR}/oneflow-fixtures)
find_program(FB_NODE node REQUIRED)
set(FB_ORT_NODE_MODULES "${CMAKE_SOURCE_DIR}/tests/oracle" CACHE PATH
    "Folder whose node_modules holds onnxruntime-node (the test oracle)")

add_test(NAME oneflow_fixtures
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/make_fixtures.py --out ${FB_ONEFLOW_FIXTURES})
set_tests_properties(oneflow_fixtures PROPERTIES FIXTURES_SETUP oneflow_fixtures TIMEOUT 900)

# The tests that read the fixtures: every test source that includes oneflow_fixture.h, whatever its folder.
foreach(src ${FB_TEST_SOURCES})
  file(STRINGS ${src} uses_fixtures REGEX "#include \"oneflow_fixture.h\"")
  if(NOT uses_fixtures)
    continue()
  endif()
  get_filename_component(name ${src} NAME_WE)
  target_compile_definitions(${name} PRIVATE
    FB_ONEFLOW_FIXTURES="${FB_ONEFLOW_FIXTURES}"
    FB_ORT_COMPARE="${CMAKE_CURRENT_LIST_DIR}/ort_compare.mjs"
    FB_NODE="${FB_NODE}"
    FB_ORT_NODE_MODULES="${FB_ORT_NODE_MODULES}")
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED oneflow_fixtures)
endforeach()
