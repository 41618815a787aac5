#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a TAP 14 / KTAP stream into pass/fail counts.

Reads the stream (a file or stdin), ignores lines that are not TAP (kernel
messages on a console), and nests subtests by indentation (4 spaces per
level, as KTAP and TAP 14 write them).

Counting: every leaf result (a test case with no subtests) is one test:
"ok" counts as passed, "not ok" as failed, "# SKIP" as skipped.  Each
structural problem counts as one more failed test, so a test that did not
run can never pass unnoticed:
  - a subtest group whose plan ("1..N") is missing (see --plan-optional-depth)
    or does not match the number of results it printed;
  - a parent reported "not ok" although all its subtests passed (a guest
    test script that exited non-zero);
  - a subtest group that never got its closing result line (the stream
    stopped inside it: a crash or hang);
  - with --expect NAME (repeatable), a result named NAME that is missing
    (a top-level name, or a path of names joined by "/": suite/10-info);
  - with --fail WHY (repeatable), the runner's own failure WHY (a guest
    that hung, a kernel report on its console);
  - with --exit-status RC, RC != 0 when nothing else failed.

Output: by default a line per failure ("FAIL: path", with the
diagnostics before and after it as "  | text"), per pass and skip unless
-q, and last "passed=N failed=M skipped=K" (testing/check.sh reads it);
with --tap, the same results as one flat TAP 14 stream instead: a
runner wrapping an inner stream (KTAP from a console, a guest's TAP)
prints that, so that every layer speaks TAP to check.sh.  The exit
status is 1 when M > 0 or the stream holds no result at all (not even a skip).
"""
import argparse
import collections
import re
import sys

RESULT = re.compile(r'^(?P<ind> *)(?P<ok>ok|not ok) (?P<num>\d+)(?: -)? ?'
                    r'(?P<name>[^#]*?)\s*(?:#\s*(?P<dir>\w+)\b\s*(?P<why>.*))?$')
PLAN = re.compile(r'^(?P<ind> *)1\.\.(?P<n>\d+)')
SUBTEST = re.compile(r'^(?P<ind> *)# Subtest: (?P<name>.*)$')
STAMP = re.compile(r'^\[\s*\d+\.\d+\] ')
DIAG = re.compile(r'^ *# ?(?P<text>.*)$')
# How many diagnostic lines before a failed result, and after it, are
# shown with it (the end of a guest test's output, where a unittest
# traceback is; the "got/want" that follows "not ok").
DIAG_SHOWN = 30


class Group:
    """The results printed at one indentation level, under one parent."""

    def __init__(self, depth, name, failed_before):
        self.depth = depth
        self.name = name            # from "# Subtest:", if printed
        self.plan = None
        self.results = 0
        self.failed_before = failed_before


class Tally:
    def __init__(self, quiet, tap=False):
        self.passed = self.failed = self.skipped = 0
        self.quiet = quiet
        # --tap: the results as (status, path, diagnostics), printed last.
        self.tap = tap
        self.results = []
        # The diagnostics printed since the last result: why it failed.
        self.diag = collections.deque(maxlen=DIAG_SHOWN)
        # How many diagnostics after a failed result are still shown (TAP
        # puts "got/want" after "not ok").
        self.after = 0

    def fail(self, what):
        self.failed += 1
        if self.tap:
            self.results.append(['not ok', what, []])
        else:
            print(f'FAIL: {what}')

    def show_diag(self, text):
        """A diagnostic line of the failure just reported."""
        if self.tap:
            self.results[-1][2].append(text)
        else:
            print(f'  | {text}')

    def leaf(self, path, ok, directive, why):
        if directive and directive.upper() == 'SKIP':
            self.skipped += 1
            if self.tap:
                self.results.append(['ok', f'{path} # SKIP {why.strip()}', []])
            elif not self.quiet:
                print(f'skip: {path} ({why.strip()})')
        elif ok:
            self.passed += 1
            if self.tap:
                self.results.append(['ok', path, []])
            elif not self.quiet:
                print(f'pass: {path}')
        else:
            self.fail(path)
            for text in self.diag:
                self.show_diag(text)
            self.after = DIAG_SHOWN

    def print_tap(self):
        print('TAP version 14')
        for n, (status, what, diag) in enumerate(self.results, 1):
            print(f'{status} {n} - {what}')
            for text in diag:
                print(f'# {text}')
        print(f'1..{len(self.results)}')


def named(args, what):
    """WHAT, about the whole stream: prefixed with --name when given."""
    return f'{args.name}: {what}' if args.name else what


def parse(lines, args, tally):
    stack = [Group(0, args.name, 0)]
    seen = set()

    def path_of(name, depth=None):
        upto = stack if depth is None else stack[:depth]
        return '/'.join([g.name for g in upto if g.name] + [name])

    def close(group, parent_name):
        """Check a finished subtest group's plan."""
        if group.plan is None:
            if group.depth < args.plan_optional_depth:
                tally.fail(f'{path_of(parent_name, group.depth)}: no plan '
                           '(did the test run?)')
        elif group.plan != group.results:
            tally.fail(f'{path_of(parent_name, group.depth)}: planned {group.plan} '
                       f'tests, got {group.results}')

    for raw in lines:
        line = STAMP.sub('', raw.rstrip('\r\n').replace('\r', ''))
        line = line.replace('\t', '    ')
        m = RESULT.match(line) or PLAN.match(line) or SUBTEST.match(line)
        if not m:
            d = DIAG.match(line)
            if d:
                tally.diag.append(d['text'])
                if tally.after:
                    tally.after -= 1
                    tally.show_diag(d['text'])
            continue
        tally.after = 0
        depth = len(m['ind']) // 4
        while depth > len(stack) - 1:
            stack.append(Group(len(stack), None, tally.failed))
        if m.re is SUBTEST:
            if len(stack) > depth + 1:
                continue   # stray line; keep the open group's name
            stack[depth].name = m['name'].strip()
            continue
        if m.re is PLAN:
            g = stack[depth]
            if depth == 0 and args.ignore_top_plan:
                continue
            if g.plan is not None and g.results and depth == 0:
                # A second top-level plan: a new stream (a module loaded
                # again); check the first and count on.
                close(g, '')
                stack[0] = g = Group(0, g.name, tally.failed)
            g.plan = int(m['n'])
            continue
        # A result line at this depth closes every deeper group.
        children = stack[depth + 1:]
        g = stack[depth]
        g.results += 1
        name = m['name'].strip() or f'#{m["num"]}'
        ok = m['ok'] == 'ok'
        skip = (m['dir'] or '').upper() == 'SKIP'
        # Its path: at depth 0 the name itself (--expect NAME or PATH).
        seen.add('/'.join([g.name or '?' for g in stack[1:depth + 1]] + [name]))
        if not children:
            tally.leaf(path_of(name), ok, m['dir'], m['why'] or '')
            tally.diag.clear()
            continue
        failed_before = children[0].failed_before
        for child in reversed(children):
            close(child, name)
        del stack[depth + 1:]
        if not ok and not skip and tally.failed == failed_before:
            # Its subtests were all fine, yet the parent failed (a test
            # script that exited non-zero, a suite init that failed).
            tally.fail(f'{path_of(name)}: reported "not ok"')

    # Groups still open: the stream ended inside them.
    for g in stack[1:]:
        tally.fail(f'{path_of(g.name or "?", g.depth)}: output ended '
                   f'inside a subtest ({g.results} results seen): crash or hang?')
    if args.ignore_top_plan:
        pass
    elif stack[0].plan is not None and stack[0].plan != stack[0].results:
        tally.fail(named(args, f'planned {stack[0].plan} tests, '
                               f'got {stack[0].results}'))
    elif stack[0].plan is None and args.require_top_plan:
        tally.fail(named(args, 'no plan (did the tests run?)'))
    for want in args.expect:
        if want not in seen:
            tally.fail(named(args, f'no result for {want}'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('file', nargs='?', default='-')
    ap.add_argument('--name', default='', help='prefix for test paths')
    ap.add_argument('--expect', action='append', default=[],
                    help='a result that must be present: a top-level name '
                         'or a path (suite/10-info)')
    ap.add_argument('--fail', action='append', default=[],
                    help="one more failure: the runner's own (WHY; its "
                         "lines after the first are its diagnostics)")
    ap.add_argument('--exit-status', type=int, default=0,
                    help='the exit status of what printed the stream: '
                         'non-zero with no failure counts as one')
    ap.add_argument('--tap', action='store_true',
                    help='print the results as one flat TAP stream')
    ap.add_argument('--require-top-plan', action='store_true')
    ap.add_argument('--ignore-top-plan', action='store_true',
                    help='top-level results need no plan (KUnit modules '
                         'print none; use --expect)')
    ap.add_argument('--plan-optional-depth', type=int, default=99,
                    help='groups this deep or deeper may omit their plan '
                         '(KUnit parameterised tests print none)')
    ap.add_argument('-q', '--quiet', action='store_true',
                    help='print failures only')
    args = ap.parse_args()
    tally = Tally(args.quiet, args.tap)
    f = sys.stdin if args.file == '-' else open(args.file, errors='replace')
    with f:
        parse(f, args, tally)
    for why in args.fail:
        first, *more = why.split('\n')
        tally.fail(named(args, first))
        for text in more:
            tally.show_diag(text)
    if args.exit_status and not tally.failed:
        tally.fail(named(args, f'exited {args.exit_status}'))
    if tally.passed + tally.failed + tally.skipped == 0:
        tally.fail(named(args, 'no test results at all'))
    if tally.tap:
        tally.print_tap()
    else:
        print(f'passed={tally.passed} failed={tally.failed} '
              f'skipped={tally.skipped}')
    return 1 if tally.failed else 0


if __name__ == '__main__':
    sys.exit(main())
