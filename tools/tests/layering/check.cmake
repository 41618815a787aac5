# SPDX-License-Identifier: GPL-2.0
# check.cmake - the layering check (ctest: layering), run with
#   cmake -DBUILD_DIR=build/tool -DSRC_DIR=tools/src -P check.cmake
#
# Builds the planted sources of this directory, each compiled and linked
# as part of the file-format library would be: the clean one must build,
# and each violation must fail with the diagnostic that names it (a
# missing header, an undefined reference), not for some other reason.
# Then: no source of src/ reaches another layer's header by a path
# ("../symbols/x.h"), which would go around the include directories.

set(failed 0)

# Build @target; @want is "ok" or a regex the failed build's output must match.
function(planted target want)
	execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${target}
		RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
	if(want STREQUAL "ok")
		if(rc EQUAL 0)
			message("ok: ${target} builds")
		else()
			message("FAIL: ${target} should build:\n${out}")
			set(failed 1 PARENT_SCOPE)
		endif()
	elseif(rc EQUAL 0)
		message("FAIL: ${target} built: the layering is not enforced")
		set(failed 1 PARENT_SCOPE)
	elseif(out MATCHES "${want}")
		message("ok: ${target} fails: ${CMAKE_MATCH_0}")
	else()
		message("FAIL: ${target} failed, but not with /${want}/:\n${out}")
		set(failed 1 PARENT_SCOPE)
	endif()
endfunction()

planted(kp_planted_format_clean_links ok)
planted(kp_planted_format_includes_symbols_links "symbolize\\.h: No such file")
planted(kp_planted_format_calls_libdw_links "undefined reference to `dwarf_begin'")
planted(kp_planted_format_calls_symbols_links "undefined reference to `[^']*read_kallsyms")

file(GLOB_RECURSE sources ${SRC_DIR}/*.h ${SRC_DIR}/*.cpp)
foreach(f IN LISTS sources)
	file(STRINGS ${f} bad REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]*/")
	if(bad)
		message("FAIL: ${f}: ${bad}: include another layer's header by its name, through the library's dependencies")
		set(failed 1)
	endif()
endforeach()

if(failed)
	message(FATAL_ERROR "layering: FAIL")
endif()
message("layering: ok")
