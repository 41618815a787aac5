# SPDX-License-Identifier: GPL-2.0
# record.cmake - `kprofile record/report/top`: the kprofile_record library,
# its unit tests and their ELF fixtures.  Included from tools/CMakeLists.txt
# after the tool's own targets (kprofile_core, kprofile; GTest, CLI11,
# nlohmann_json and fmt found).  Needs libelf-dev, libdw-dev, libncurses-dev,
# libprotobuf-dev and protobuf-compiler (python3-protobuf for the export test),
# libisal-dev (the record file's section checksums).

find_package(PkgConfig REQUIRED)
pkg_check_modules(KP_LIBELF REQUIRED IMPORTED_TARGET libelf)
pkg_check_modules(KP_LIBDW REQUIRED IMPORTED_TARGET libdw)
find_package(Curses REQUIRED)
pkg_check_modules(KP_LIBISAL REQUIRED IMPORTED_TARGET libisal)
# report --format pprof: profile.proto compiled by Debian's protoc
# (protobuf-compiler), linked with libprotobuf (libprotobuf-dev).
find_package(Protobuf REQUIRED)
add_library(kprofile_pprof_proto STATIC ${CMAKE_CURRENT_LIST_DIR}/proto/profile.proto)
protobuf_generate(TARGET kprofile_pprof_proto LANGUAGE cpp)
target_include_directories(kprofile_pprof_proto PUBLIC ${CMAKE_CURRENT_BINARY_DIR}
	${CMAKE_CURRENT_BINARY_DIR}/src/record/proto)
target_link_libraries(kprofile_pprof_proto PUBLIC protobuf::libprotobuf)

set(KP_RECORD_DIR ${CMAKE_CURRENT_LIST_DIR})

add_library(kprofile_record STATIC
	${KP_RECORD_DIR}/profile_file.cpp
	${KP_RECORD_DIR}/record_codec.cpp
	${KP_RECORD_DIR}/sample_file.cpp
	${KP_RECORD_DIR}/stream.cpp
	${KP_RECORD_DIR}/maps_book.cpp
	${KP_RECORD_DIR}/side_band.cpp
	${KP_RECORD_DIR}/sample_recorder.cpp
	${KP_RECORD_DIR}/sample_symbols.cpp
	${KP_RECORD_DIR}/sample_report.cpp
	${KP_RECORD_DIR}/sample_render.cpp
	${KP_RECORD_DIR}/sample_export.cpp
	${KP_RECORD_DIR}/script_render.cpp
	${KP_RECORD_DIR}/maps.cpp
	${KP_RECORD_DIR}/proc_read.cpp
	${KP_RECORD_DIR}/symbol_table.cpp
	${KP_RECORD_DIR}/symbolize.cpp
	${KP_RECORD_DIR}/dwarf_unwind.cpp
	${KP_RECORD_DIR}/sample_unwind.cpp
	${KP_RECORD_DIR}/perf_map.cpp
	${KP_RECORD_DIR}/resolver.cpp
	${KP_RECORD_DIR}/report_model.cpp
	${KP_RECORD_DIR}/report_render.cpp
	${KP_RECORD_DIR}/report_export.cpp
	${KP_RECORD_DIR}/report_view.cpp
	${KP_RECORD_DIR}/source_ratios.cpp
	${KP_RECORD_DIR}/srcline.cpp
	${KP_RECORD_DIR}/profile_device.cpp
	${KP_RECORD_DIR}/memlock.cpp
	${KP_RECORD_DIR}/args_check.cpp
	${KP_RECORD_DIR}/process_tree.cpp
	${KP_RECORD_DIR}/kernel_modules.cpp
	${KP_RECORD_DIR}/process_view.cpp
	${KP_RECORD_DIR}/session.cpp
	${KP_RECORD_DIR}/launch.cpp
	${KP_RECORD_DIR}/runner.cpp
	${KP_RECORD_DIR}/sampled_ranges.cpp
	${KP_RECORD_DIR}/session_events.cpp
	${KP_RECORD_DIR}/commands.cpp
	${KP_RECORD_DIR}/cmd_record.cpp
	${KP_RECORD_DIR}/cmd_report.cpp
	${KP_RECORD_DIR}/cmd_top.cpp
	${KP_RECORD_DIR}/cmd_script.cpp)
target_include_directories(kprofile_record PUBLIC ${KP_RECORD_DIR}/..
	${KP_RECORD_DIR}/../../../include/uapi ${CURSES_INCLUDE_DIRS})
target_compile_features(kprofile_record PUBLIC cxx_std_20)
target_link_libraries(kprofile_record PUBLIC kprofile_core CLI11::CLI11 PkgConfig::KP_LIBELF PkgConfig::KP_LIBDW
	fmt::fmt nlohmann_json::nlohmann_json ${CURSES_LIBRARIES} kprofile_pprof_proto PkgConfig::KP_LIBISAL)
# `kprofile record|report|top` (setup_* in cmd_record/report/top.cpp).
target_link_libraries(kprofile PRIVATE kprofile_record)

if(TARGET GTest::gtest_main OR GTest_FOUND)
	set(KP_FIX ${CMAKE_CURRENT_LIST_DIR}/../../tests/fixtures)
	# An ELF with C and C++ functions and symbols, and a stripped copy.
	add_library(kp_record_fixture SHARED ${KP_FIX}/record_fixture_c.c
		${KP_FIX}/record_fixture_cpp.cpp)
	set_target_properties(kp_record_fixture PROPERTIES
		COMPILE_OPTIONS "-O1;-fno-inline;-g0")
	add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/libkp_record_fixture_stripped.so
		COMMAND strip --strip-all -o ${CMAKE_CURRENT_BINARY_DIR}/libkp_record_fixture_stripped.so
			$<TARGET_FILE:kp_record_fixture>
		DEPENDS kp_record_fixture)
	add_custom_target(kp_record_fixture_stripped ALL
		DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/libkp_record_fixture_stripped.so)

	add_executable(test_record
		${KP_FIX}/../test_record_format.cpp
		${KP_FIX}/../test_record_maps.cpp
		${KP_FIX}/../test_record_proc_read.cpp
		${KP_FIX}/../test_record_process.cpp
		${KP_FIX}/../test_record_symbolize.cpp
		${KP_FIX}/../test_record_split.cpp
		${KP_FIX}/../test_record_attribution.cpp
		${KP_FIX}/../test_record_filters.cpp
		${KP_FIX}/../test_record_symfs.cpp
		${KP_FIX}/../test_record_json.cpp
		${KP_FIX}/../test_record_launch.cpp
		${KP_FIX}/../test_record_memlock.cpp
		${KP_FIX}/../test_record_tasks.cpp
		${KP_FIX}/../test_record_side_band.cpp
		${KP_FIX}/../test_record_stream.cpp
		${KP_FIX}/../test_record_samples.cpp
		${KP_FIX}/../test_record_unwind.cpp
		${KP_FIX}/../test_record_dwarf.cpp)
	add_dependencies(test_record kp_record_fixture_stripped kp_record_fixture_g
		kp_unwind_target kp_unwind_target_df_split)
	target_compile_definitions(test_record PRIVATE
		KP_FIXTURE_SO="$<TARGET_FILE:kp_record_fixture>"
		KP_FIXTURE_SO_G="$<TARGET_FILE:kp_record_fixture_g>"
		KP_FIXTURE_STRIPPED="${CMAKE_CURRENT_BINARY_DIR}/libkp_record_fixture_stripped.so"
		KP_FIXTURE_V1="${KP_FIX}/record-v1.kprofile.data"
		KP_FIXTURE_V2="${KP_FIX}/record-v2.kprofile.data"
		KP_UNWIND_TARGET="$<TARGET_FILE:kp_unwind_target>"
		KP_UNWIND_TARGET_DF="${CMAKE_CURRENT_BINARY_DIR}/kp_unwind_target_df_stripped"
		KP_UNWIND_DEBUG_DIR="${CMAKE_CURRENT_BINARY_DIR}/unwind-debug")
	target_include_directories(test_record PRIVATE ${KP_FIX}/..)
	target_link_libraries(test_record PRIVATE kprofile_record GTest::gtest_main ${CMAKE_DL_LIBS})
	gtest_discover_tests(test_record DISCOVERY_MODE PRE_TEST)

	# record --call-graph dwarf's unwinder: a program without frame
	# pointers that samples itself (unwind_capture.h); once with
	# .eh_frame, once with only .debug_frame, whose DWARF goes to a
	# build-id tree and out of the copy that runs.
	add_executable(kp_unwind_target ${KP_FIX}/unwind_target.c)
	set_target_properties(kp_unwind_target PROPERTIES
		COMPILE_OPTIONS "-O2;-fomit-frame-pointer;-g")
	add_executable(kp_unwind_target_df ${KP_FIX}/unwind_target.c)
	set_target_properties(kp_unwind_target_df PROPERTIES
		COMPILE_OPTIONS "-O2;-fomit-frame-pointer;-fno-asynchronous-unwind-tables;-fno-unwind-tables;-g")
	add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/kp_unwind_target_df_stripped
		COMMAND sh ${KP_FIX}/split_debug.sh $<TARGET_FILE:kp_unwind_target_df>
			${CMAKE_CURRENT_BINARY_DIR}/kp_unwind_target_df_stripped
			${CMAKE_CURRENT_BINARY_DIR}/unwind-debug
		DEPENDS kp_unwind_target_df ${KP_FIX}/split_debug.sh)
	add_custom_target(kp_unwind_target_df_split ALL
		DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/kp_unwind_target_df_stripped)
endif()

# The fixture library with DWARF (report --srcline), and a writer of record
# files whose hits fall on its functions: report tested end to end, no
# module needed.
add_library(kp_record_fixture_g SHARED ${KP_RECORD_DIR}/../../tests/fixtures/record_fixture_c.c
	${KP_RECORD_DIR}/../../tests/fixtures/record_fixture_cpp.cpp)
set_target_properties(kp_record_fixture_g PROPERTIES COMPILE_OPTIONS "-O1;-fno-inline;-g")
add_executable(kp_make_record ${KP_RECORD_DIR}/../../tests/make_record_fixture.cpp)
target_link_libraries(kp_make_record PRIVATE kprofile_record)
if(Python3_FOUND)
	# --format folded/csv/pprof read back by flamegraph's grammar, Python's
	# csv and protobuf (profile.proto compiled with protoc at test time).
	add_test(NAME report_exports
		COMMAND Python3::Interpreter ${KP_RECORD_DIR}/../../tests/check_exports.py
			--tool $<TARGET_FILE:kprofile> --maker $<TARGET_FILE:kp_make_record>
			--so $<TARGET_FILE:kp_record_fixture_g>
			--proto ${KP_RECORD_DIR}/proto/profile.proto
			--protoc ${Protobuf_PROTOC_EXECUTABLE})
	set_tests_properties(report_exports PROPERTIES SKIP_RETURN_CODE 77)
endif()

# The host benchmark of record --call-graph dwarf's sample path
# (testing/bench/record_cost.cpp): built on request only, not a test.
#   cmake --build build/tool --target kp_bench_record
add_executable(kp_bench_record EXCLUDE_FROM_ALL
	${KP_RECORD_DIR}/../../../testing/bench/record_cost.cpp)
target_link_libraries(kp_bench_record PRIVATE kprofile_record)
