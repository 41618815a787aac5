#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 70-python: the Python binding (tools/python) against the real module:
# its unittest suite (tests/test_device.py; the layout test needs a C
# compiler and skips here, it runs on the host), and the worked example,
# which profiles spin with ProfileTime and prints the hottest buckets; and
# the installed package (as `make install` puts it in the site directory)
# imports with no PYTHONPATH; a refused start raises with the module's
# reason (KPROFILE_IOC_START_EX: started already, another process,
# RLIMIT_MEMLOCK).
. "$KP_GUEST/lib.sh"
plan 10

py=/usr/bin/python3
if [ ! -x $py ] || [ ! -d /kp/python ]; then
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "python binding" "no python3 in the image"; done
	exit 0
fi

out=$(cd / && env -u PYTHONPATH $py -c 'import kprofile; print(kprofile.__file__, kprofile.__version__)' 2>&1)
like "$out" '^/usr/lib/python3[.0-9]*/dist-packages/kprofile/__init__.py [0-9]+\.[0-9]+\.[0-9]+' \
	"import kprofile works with no PYTHONPATH (the installed package, with its version)"

out=$($py -m unittest discover -v -s /kp/python/tests 2>&1)
rc=$?
diag "$out"
is "$rc" 0 "the binding's test suite passes against the module"
like "$out" 'Ran [1-9][0-9]* tests' "and ran its tests"
if printf '%s\n' "$out" | grep -q 'kprofile.ko is not loaded'; then
	not_ok "the device tests ran" "they skipped: /dev/kprofile missing"
else
	ok "the device tests ran (not skipped)"
fi
like "$(printf '%s\n' "$out" | grep test_second_client_is_ebusy)" 'ok$' \
	"the binding sees the second thread-profiling client refused"
starts=$(printf '%s\n' "$out" | grep -E '^test_start_(when_started|by_another_process|over_memlock)_says_why ')
is "$(printf '%s\n' "$starts" | grep -c ' ok$')" 3 \
	"a refused start raises with the module's reason (started already, another process, RLIMIT_MEMLOCK)"

out=$($py /kp/python/examples/profile_command.py --top 5 -- spin 1 2>&1)
rc=$?
diag "$out"
is "$rc" 0 "the example profiles spin with ProfileTime"
like "$out" '[1-9][0-9]* ProfileTime hits' "it counts ProfileTime hits in spin"
top=$(printf '%s\n' "$out" | grep -m1 '%  spin+')
like "$top" '^ *[1-9][0-9]* +[0-9.]+% +spin\+0x[0-9a-f]+ \(0x[0-9a-f]+\)$' \
	"and prints the hottest bucket as spin+offset (address)"
# spin's hot function (spin --where) is where most of its time goes.
where=$(spin --where)
hs=$(($(printf '%s\n' "$where" | sed -n 's/.*hot_start=\(0x[0-9a-f]*\).*/\1/p')))
he=$(($(printf '%s\n' "$where" | sed -n 's/.*hot_end=\(0x[0-9a-f]*\).*/\1/p')))
addr=$(($(printf '%s\n' "$top" | sed -n 's/.*(\(0x[0-9a-f]*\))$/\1/p')))
if [ "$addr" -le "$he" ] && [ $((addr + 256)) -gt "$hs" ]; then
	ok "the hottest bucket holds spin's hot function"
else
	not_ok "the hottest bucket holds spin's hot function" \
		"bucket $addr, hot function $hs..$he"
fi
