# SPDX-License-Identifier: GPL-2.0
# layers.cmake - the tool's libraries and the rule that keeps them layered.
#
# Each directory of src/ is one static library, kp_<dir>, that names what
# it depends on:
#
#   kp_layer(NAME SOURCES a.cpp ... [PUBLIC dep ...] [PRIVATE dep ...])
#
# Its include directory is its own directory and nothing else; a library
# sees the headers of the libraries it links and no others, so including
# a header of a layer it does not depend on is a compile error.  PUBLIC is
# for a dependency one of its headers exposes, PRIVATE for the rest.
#
# And each library gets a link check, kp_<dir>_links (built with
# everything): an executable that takes every object of the library
# (whole archive) and only the libraries it declares, so calling into one
# it does not declare (libdw from the file format, say) is an undefined
# reference at build time even when the header came from /usr/include.
# tests/layering/ plants such violations and checks that both fail.

set(KP_LINK_CHECK_MAIN ${CMAKE_CURRENT_LIST_DIR}/link_check_main.cpp)

# The link check of static library @lib (EXCLUDE_FROM_ALL as an option).
function(kp_link_check lib)
	add_executable(${lib}_links ${ARGN} ${KP_LINK_CHECK_MAIN})
	target_link_libraries(${lib}_links PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${lib}>")
	set_target_properties(${lib}_links PROPERTIES
		RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/link-checks)
endfunction()

function(kp_layer name)
	cmake_parse_arguments(PARSE_ARGV 1 L "" "" "SOURCES;PUBLIC;PRIVATE")
	add_library(kp_${name} STATIC ${L_SOURCES})
	target_include_directories(kp_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
	target_link_libraries(kp_${name} PUBLIC ${L_PUBLIC} PRIVATE ${L_PRIVATE})
	kp_link_check(kp_${name})
endfunction()
