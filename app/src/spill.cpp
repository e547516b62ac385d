// Situation reports in an unlinked temporary file: binary records, read back in order.
#include "salvo/app/spill.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <type_traits>

#include "salvo/app/io.h"

namespace salvo::app {
namespace {

static_assert(std::is_trivially_copyable_v<sim::Estimate>);

// Record layout: file index, name, sweep pairs, program hash, names index, then the exact and
// the Monte Carlo result, each present or not. Numbers are stored as their bytes.
class Writer {
 public:
  explicit Writer(std::string& buf) : buf_(buf) {}
  template <class T>
  void raw(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    buf_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void size(std::size_t n) { raw(static_cast<std::uint64_t>(n)); }
  void str(const std::string& s) {
    size(s.size());
    buf_ += s;
  }
  void estimates(const std::vector<sim::Estimate>& v) {
    size(v.size());
    buf_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(sim::Estimate));
  }
  void window(const sim::WindowStats& w) {
    for (const auto* v : {&w.flags, &w.counters, &w.outcomes, &w.end_reasons}) estimates(*v);
  }
  void strings(const std::vector<std::string>& v) {
    size(v.size());
    for (const std::string& x : v) str(x);
  }
  void names(const report::ResultNames& n) {
    for (const auto* v : {&n.flags, &n.counters, &n.outcomes, &n.end_reasons}) strings(*v);
    size(n.turn_series.size());
    for (const RollProgram::TurnSeries& t : n.turn_series) {
      raw(t.kind);
      str(t.name);
      raw(t.first);
      raw(t.turns);
    }
  }
  void result(const std::optional<sim::RunResult>& r) {
    raw(static_cast<std::uint8_t>(r.has_value()));
    if (!r) return;
    raw(r->method);
    raw(r->trials);
    raw(static_cast<std::uint8_t>(r->interrupted));
    window(r->first);
    window(r->run);
  }

 private:
  std::string& buf_;
};

// Reads a spill file, or bytes in memory (report_bytes).
class Reader {
 public:
  explicit Reader(std::FILE* f) : f_(f) {}
  explicit Reader(std::string_view bytes) : buf_(bytes) {}
  void bytes(void* p, std::size_t n) {
    if (n == 0) return;
    if (f_ == nullptr) {
      if (n > buf_.size()) throw std::runtime_error("report bytes: short read");
      std::memcpy(p, buf_.data(), n);
      buf_.remove_prefix(n);
    } else if (std::fread(p, 1, n, f_) != n) {
      throw std::runtime_error("spill file: short read");
    }
  }
  bool at_end() const { return f_ == nullptr && buf_.empty(); }
  template <class T>
  T raw() {
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  std::size_t size() { return static_cast<std::size_t>(raw<std::uint64_t>()); }
  std::string str() {
    std::string s(size(), '\0');
    bytes(s.data(), s.size());
    return s;
  }
  std::vector<std::string> strings() {
    std::vector<std::string> v(size());
    for (std::string& x : v) x = str();
    return v;
  }
  void names(report::ResultNames& n) {
    for (auto* v : {&n.flags, &n.counters, &n.outcomes, &n.end_reasons}) *v = strings();
    n.turn_series.resize(size());
    for (RollProgram::TurnSeries& t : n.turn_series) {
      t.kind = raw<RollProgram::TurnSeries::Kind>();
      t.name = str();
      t.first = raw<std::uint32_t>();
      t.turns = raw<int>();
    }
  }
  void estimates(std::vector<sim::Estimate>& v) {
    v.resize(size());
    bytes(v.data(), v.size() * sizeof(sim::Estimate));
  }
  void window(sim::WindowStats& w) {
    for (auto* v : {&w.flags, &w.counters, &w.outcomes, &w.end_reasons}) estimates(*v);
  }
  void result(std::optional<sim::RunResult>& r) {
    r.reset();
    if (!raw<std::uint8_t>()) return;
    r.emplace();
    r->method = raw<sim::Method>();
    r->trials = raw<std::uint64_t>();
    r->interrupted = raw<std::uint8_t>() != 0;
    window(r->first);
    window(r->run);
  }

 private:
  std::FILE* f_ = nullptr;
  std::string_view buf_;
};

// A report's fields after its file and names (which the spill keeps as indices).
void write_fields(Writer& w, const report::SituationReport& r) {
  w.str(r.name);
  w.size(r.sweep.size());
  for (const auto& [k, v] : r.sweep) {
    w.str(k);
    w.str(v);
  }
  w.raw(r.program_hash);
}

void read_fields(Reader& rd, report::SituationReport& r) {
  r.name = rd.str();
  r.sweep.resize(rd.size());
  for (auto& [k, v] : r.sweep) {
    k = rd.str();
    v = rd.str();
  }
  r.program_hash = rd.raw<std::uint64_t>();
}

template <class T>
std::size_t index_of(std::vector<T>& table, const T& v) {
  // The last entry first: consecutive situations mostly share it.
  if (!table.empty() && table.back() == v) return table.size() - 1;
  const auto it = std::find(table.begin(), table.end(), v);
  if (it != table.end()) return static_cast<std::size_t>(it - table.begin());
  table.push_back(v);
  return table.size() - 1;
}

}  // namespace

ReportSpill::ReportSpill() {
  const char* tmp = std::getenv("TMPDIR");
  const std::string dir = label_ = tmp && *tmp ? tmp : "/tmp";
  std::string name = dir + "/.salvo-spill-XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0) fail(errno);
  unlink(name.c_str());
  file_ = fdopen_or_close(fd, "w+b");
  if (!file_) fail(errno);
}

ReportSpill::~ReportSpill() {
  if (file_) std::fclose(file_);
}

void ReportSpill::fail(int err) const {
  throw IoError(fmt::format("salvo: cannot write {}: {}", label_, std::strerror(err)));
}

void ReportSpill::append(const report::SituationReport& r) {
  std::string buf;
  Writer w(buf);
  w.size(index_of(files_, r.file));
  write_fields(w, r);
  w.size(index_of(names_, r.names));
  w.result(r.exact);
  w.result(r.mc);
  if (std::fwrite(buf.data(), 1, buf.size(), file_) != buf.size()) fail(errno);
  ++count_;
}

void ReportSpill::for_each(const std::function<void(const report::SituationReport&)>& visit) const {
  if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0) fail(errno);
  Reader rd(file_);
  report::SituationReport r;
  for (std::size_t i = 0; i < count_; ++i) {
    r.file = files_.at(rd.size());
    read_fields(rd, r);
    r.names = names_.at(rd.size());
    rd.result(r.exact);
    rd.result(r.mc);
    visit(r);
  }
  if (std::fseek(file_, 0, SEEK_END) != 0) fail(errno);
}

void append_report_bytes(std::string& bytes, const report::SituationReport& r) {
  Writer w(bytes);
  w.str(r.file);
  write_fields(w, r);
  w.names(r.names);
  w.result(r.exact);
  w.result(r.mc);
}

std::vector<report::SituationReport> reports_from_bytes(std::string_view bytes) {
  Reader rd(bytes);
  std::vector<report::SituationReport> out;
  while (!rd.at_end()) {
    report::SituationReport& r = out.emplace_back();
    r.file = rd.str();
    read_fields(rd, r);
    rd.names(r.names);
    rd.result(r.exact);
    rd.result(r.mc);
  }
  return out;
}

}  // namespace salvo::app
