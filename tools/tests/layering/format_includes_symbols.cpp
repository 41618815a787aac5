// SPDX-License-Identifier: GPL-2.0
// Planted (tests/layering): a file-format source including a header of
// the symbols layer, which sits above it.  Must not compile.
#include "record_codec.h"
#include "symbolize.h"
