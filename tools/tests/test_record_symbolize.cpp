// SPDX-License-Identifier: GPL-2.0
// Symbolization against ELF files built with the tests (fixtures/), a
// stripped copy, a live dlopen()ed mapping, and kallsyms text.
#include <dlfcn.h>

#include <gtest/gtest.h>

#include "maps.h"
#include "symbolize.h"

using namespace kprofile::record;

TEST(RecordSymbolize, FindsCAndDemangledCxxFunctionsInSymtab)
{
	std::string err;
	auto obj = ElfObject::load(KP_FIXTURE_SO, &err);
	ASSERT_TRUE(obj) << err;
	EXPECT_EQ(obj->symbol_source(), "symtab");
	EXPECT_NE(obj->symbols().named("kp_fixture_c_function"), nullptr);
	EXPECT_NE(obj->symbols().named("kp_fixture_static_helper"), nullptr);
	EXPECT_NE(obj->symbols().named("kpfix::Widget::compute(int) const"), nullptr);
	EXPECT_NE(obj->symbols().named("kpfix::Widget::twice(long)"), nullptr);
	EXPECT_EQ(obj->symbols().named("_ZN5kpfix6Widget5twiceEl"), nullptr)
		<< "names must be demangled";
}

TEST(RecordSymbolize, EveryAddressOfAFunctionResolvesToIt)
{
	auto obj = ElfObject::load(KP_FIXTURE_SO);
	ASSERT_TRUE(obj);
	const Symbol *f = obj->symbols().named("kp_fixture_c_function");
	ASSERT_NE(f, nullptr);
	ASSERT_GT(f->end, f->start);
	for (std::uint64_t a = f->start; a < f->end; a++)
		ASSERT_EQ(obj->symbols().find(a), f) << std::hex << a;
	EXPECT_NE(obj->symbols().find(f->end), f);
}

// A call out of the library goes through a PLT stub: perf names it
// "getpid@plt"; it used to count as the size-less _init before it.
TEST(RecordSymbolize, PltStubsAreNamedAtPlt)
{
	for (const char *path : {KP_FIXTURE_SO, KP_FIXTURE_STRIPPED}) {
		auto obj = ElfObject::load(path);
		ASSERT_TRUE(obj) << path;
		const Symbol *plt = obj->symbols().named("getpid@plt");
		ASSERT_NE(plt, nullptr) << path;
		EXPECT_EQ(plt->end - plt->start, 16U);
		EXPECT_EQ(obj->symbols().find(plt->start + 15), plt);
		const Symbol *init = obj->symbols().named("_init");
		if (init) {
			EXPECT_LE(init->end, plt->start) << "_init must not cover the PLT";
		}
	}
}

TEST(RecordSymbolize, StrippedObjectFallsBackToDynsym)
{
	auto full = ElfObject::load(KP_FIXTURE_SO);
	auto stripped = ElfObject::load(KP_FIXTURE_STRIPPED);
	ASSERT_TRUE(full && stripped);
	EXPECT_EQ(stripped->symbol_source(), "dynsym");
	EXPECT_FALSE(full->build_id().empty());
	EXPECT_EQ(stripped->build_id(), full->build_id());
	EXPECT_NE(stripped->symbols().named("kp_fixture_c_function"), nullptr);
	EXPECT_NE(stripped->symbols().named("kpfix::Widget::twice(long)"), nullptr);
	// The static helper is only in .symtab, which strip removed.
	EXPECT_EQ(stripped->symbols().named("kp_fixture_static_helper"), nullptr);
	EXPECT_EQ(read_build_id(KP_FIXTURE_STRIPPED), full->build_id());
}

TEST(RecordSymbolize, LiveMappingOffsetResolvesThroughMapsAndSegments)
{
	void *handle = dlopen(KP_FIXTURE_SO, RTLD_NOW);
	ASSERT_NE(handle, nullptr) << dlerror();
	void *fn = dlsym(handle, "kp_fixture_cpp_entry");
	ASSERT_NE(fn, nullptr);
	const auto addr = reinterpret_cast<std::uint64_t>(fn);

	std::optional<Mapping> hit;
	for (const auto &m : executable_mappings(read_maps(getpid()).value()))
		if (addr >= m.start && addr < m.end)
			hit = m;
	ASSERT_TRUE(hit) << "no executable mapping holds the function";
	EXPECT_NE(hit->path.find("kp_record_fixture"), std::string::npos);

	auto obj = ElfObject::load(hit->path);
	ASSERT_TRUE(obj);
	auto vaddr = obj->offset_to_vaddr(addr - hit->start + hit->offset);
	ASSERT_TRUE(vaddr);
	const Symbol *s = obj->symbols().find(*vaddr);
	ASSERT_NE(s, nullptr);
	EXPECT_EQ(s->name, "kp_fixture_cpp_entry");
	dlclose(handle);
}

TEST(RecordSymbolize, NotAnElfIsAnErrorNotACrash)
{
	std::string err;
	EXPECT_FALSE(ElfObject::load("/proc/self/status", &err));
	EXPECT_NE(err.find("not an ELF"), std::string::npos);
	EXPECT_FALSE(ElfObject::load("/nonexistent/kprofile", &err));
	EXPECT_NE(err.find("/nonexistent/kprofile"), std::string::npos);
	EXPECT_EQ(read_build_id("/nonexistent/kprofile"), "");
}

TEST(RecordSymbolize, Demangle)
{
	EXPECT_EQ(demangle("_ZN5kpfix6Widget5twiceEl"), "kpfix::Widget::twice(long)");
	EXPECT_EQ(demangle("main"), "main");
	EXPECT_EQ(demangle("_Znotmangled!"), "_Znotmangled!");
}

TEST(RecordSymbolize, KallsymsTextSymbolsModulesAndTextRange)
{
	const std::string text = "ffffffff81000000 T _stext\n"
				 "ffffffff81000000 T _text\n"
				 "ffffffff81000100 t do_one\n"
				 "ffffffff81000180 D some_data\n"
				 "ffffffff81000200 T do_two\n"
				 "ffffffff81100000 T _etext\n"
				 "ffffffffc0000000 t mod_fn\t[kprofile]\n";
	auto syms = parse_kallsyms(text);
	ASSERT_EQ(syms.size(), 6U) << "data symbols are dropped";
	auto range = kernel_text_range(syms);
	ASSERT_TRUE(range);
	EXPECT_EQ(range->first, 0xffffffff81000000ULL);
	EXPECT_EQ(range->second, 0xffffffff81100000ULL);
	EXPECT_EQ(syms.back().module, "kprofile");

	SymbolTable t = kernel_symbol_table(syms);
	ASSERT_NE(t.find(0xffffffff81000150ULL), nullptr);
	EXPECT_EQ(t.find(0xffffffff81000150ULL)->name, "do_one");
	EXPECT_EQ(t.find(0xffffffff81000200ULL)->name, "do_two");
	EXPECT_EQ(t.find(0xffffffffc0000004ULL)->name, "mod_fn [kprofile]");
}

TEST(RecordSymbolize, HiddenKallsymsAddressesGiveNoSymbols)
{
	const std::string text = "0000000000000000 T _stext\n0000000000000000 T do_one\n";
	EXPECT_TRUE(parse_kallsyms(text).empty());
	EXPECT_FALSE(kernel_text_range(parse_kallsyms(text)));
}

// The hand-written kallsyms scanner: module symbols out of order are
// sorted in, malformed lines are skipped, the last line needs no newline,
// and the live /proc/kallsyms parses to sorted text symbols.
TEST(RecordSymbolize, KallsymsScannerEdgeCases)
{
	const std::string text = "ffffffffc0001000 t late_fn\t[mod_b]\n"
				 "ffffffff81000000 T _stext\n"
				 "zzzz T not_hex\n"
				 "ffffffff81000010 TT two_letter_type\n"
				 "ffffffff81000020\n"
				 "\n"
				 "FFFFFFFF81000040 W Upper_Hex\n"
				 "ffffffff81000080  t   spaced_out  \n"
				 "ffffffffc0000000 t early_fn\t[mod_a]";
	const auto syms = parse_kallsyms(text);
	ASSERT_EQ(syms.size(), 5U);
	EXPECT_EQ(syms[0].name, "_stext");
	EXPECT_EQ(syms[1].name, "Upper_Hex");
	EXPECT_EQ(syms[1].addr, 0xffffffff81000040ULL);
	EXPECT_EQ(syms[2].name, "spaced_out");
	EXPECT_EQ(syms[3].name, "early_fn");
	EXPECT_EQ(syms[3].module, "mod_a");
	EXPECT_EQ(syms[4].name, "late_fn");

	const auto live = read_kallsyms();
	for (std::size_t i = 1; i < live.size(); i++)
		ASSERT_LE(live[i - 1].addr, live[i].addr);
}
