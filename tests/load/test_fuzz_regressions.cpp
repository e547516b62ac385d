// Inputs kept from fuzzing (tests/load/fuzz-regressions/TARGET/): each is replayed through the
// fuzz target's own entry point, which aborts on any broken invariant (see fuzz/*.cpp), and the
// ones that once broke an invariant also have their exact message pinned here.

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "salvo/load/asl_loader.h"
#include "support/refusals.h"
#include "support/thrown.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> inputs(const std::string& target) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(SALVO_SOURCE_DIR) / "tests/load/fuzz-regressions" / target;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  for (const auto& e : fs::directory_iterator(fs::path(SALVO_SOURCE_DIR) / "examples"))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string error_of(const std::string& text) {
  return salvo::test::message_of<salvo::load::InputError>([&] { salvo::load::load_string(text, "t.toml"); });
}

}  // namespace

TEST_CASE("fuzz regressions: every kept input passes the situation target's checks", "[load][fuzz]") {
  const auto files = inputs("fuzz_situation");
  CHECK(files.size() >= 10);
  for (const auto& f : files) {
    INFO(f.string());
    const std::string text = slurp(f);
    CHECK(LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()) == 0);
  }
}

TEST_CASE("fuzz regressions: keys with control characters are quoted in messages", "[load][fuzz][errors]") {
  // Found by fuzz_situation: a quoted key may hold a newline or an escape sequence; the message
  // printed it raw (two lines on the terminal, or colours).
  salvo::test::check_refusals(
      error_of,
      {
          {"ruleset = \"asl\"\n\"a\\nb\" = 1\n", "t.toml:2: \"a\\nb\": unknown key"},
          {"ruleset = \"asl\"\n[sweep]\n\"x\\ny\" = [1]\n", "t.toml:3: \"x\\ny\": unknown key"},
          {"ruleset = \"asl\"\n[firer]\n\"\\u001b[31m\" = 1\n", "t.toml:3: \"firer.\\u001B[31m\": unknown key"},
      });
}

TEST_CASE("fuzz regressions: non-ASCII text outside strings and comments is refused before toml++",
          "[load][fuzz][errors]") {
  // Found by fuzz_situation and fuzz_chart under UBSan: toml++ 3.3's Unicode whitespace test
  // reaches __builtin_unreachable() for code points such as U+00E9 and U+FEF7, so such input
  // never reaches it. TOML allows non-ASCII only in strings and comments.
  const std::string tail = " outside a string or comment (put text in quotes)";
  salvo::test::check_refusals(
      error_of,
      {
          {"ruleset = \"asl\"\n\xc3\xa9 = 1\n", "t.toml:2:1: TOML syntax error: non-ASCII character U+00E9" + tail},
          {"ruleset = \"asl\"\nname = \"x\" \xe2\xb5\x80\n",
           "t.toml:2:12: TOML syntax error: non-ASCII character U+2D40" + tail},
          {"\xef\xbb\xb7ruleset = \"asl\"\n", "t.toml:1:1: TOML syntax error: non-ASCII character U+FEF7" + tail},
          {"ruleset = \"asl\"\n[fire]\nrange = 6\xff\n",
           "t.toml:3:10: TOML syntax error: byte 0xFF (not UTF-8)" + tail},
          {"ruleset = \"asl\"\nname = \"\"\"a\\\n   \xc3\xa9\"\"\"\n",
           "t.toml:3:4: TOML syntax error: non-ASCII character U+00E9" + tail},
          {"ruleset = \"asl\"\nname = \"\"\"a\\\xc9\xa3\"\"\"\n",
           "t.toml:2:13: TOML syntax error: non-ASCII character U+0263" + tail},
          // Found by fuzz_chart: "\" then a tab inside a multi-line string; toml++ takes it for a
          // line-ending backslash and tests what follows the tab for whitespace.
          {"ruleset = \"asl\"\nname = \"\"\"a\\\t\xc9\xa3\"\"\"\n",
           "t.toml:2:14: TOML syntax error: non-ASCII character U+0263" + tail},
          {"ruleset = \"asl\"\nname = \"\"\"a\\ \t \xc3\xa9\"\"\"\n",
           "t.toml:2:16: TOML syntax error: non-ASCII character U+00E9" + tail},
          // A quote that toml++ does not read as a string (here inside a bad value) protects nothing.
          {"H=1'\xef\xb9\xbf'=\n", "t.toml:1:5: TOML syntax error: non-ASCII character U+FE7F" + tail},
      });

  // Inside strings and comments (and after a byte order mark) it is fine.
  const auto f = salvo::load::load_string(
      "\xef\xbb\xbfruleset = \"asl\" # caf\xc3\xa9\nname = \"Jos\xc3\xa9 \xe2\xb5\x80\"\n"
      "[fire]\nrange = 6 # '\"\n",
      "t.toml");
  CHECK(f.situations.at(0).situation.name == "Jos\xc3\xa9 \xe2\xb5\x80");
  CHECK(error_of("ruleset = 'asl'\nname = '''\xc3\xa9'''\n\"\xc3\xa9\" = 1\n") == "t.toml:3: \xc3\xa9: unknown key");
}
