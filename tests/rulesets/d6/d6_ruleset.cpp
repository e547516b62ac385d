// The test-only d6 ruleset: a loader (toml++, strict), a compiler, display hints.
#include "d6_ruleset.h"

#include <toml++/toml.h>

#include <atomic>
#include <string>
#include <vector>

#include "salvo/load/asl_loader.h"

namespace salvo::testing {
namespace {

std::atomic<std::size_t> compiles{0};

struct D6Situation {
  std::string name;
  int hit_on = 4;
  int shots = 1;
};

[[noreturn]] void fail(const std::string& path, const std::string& key, const std::string& what) {
  throw load::InputError(path + ": " + key + ": " + what);
}

int integer(const toml::node& node, const std::string& path, const std::string& key, int lo, int hi) {
  const auto v = node.value<std::int64_t>();
  if (!node.is_integer() || !v || *v < lo || *v > hi)
    fail(path, key, "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(*v);
}

class D6File final : public SituationFile {
 public:
  D6File(D6Situation base, std::string axis, std::vector<int> values)
      : base_(std::move(base)), axis_(std::move(axis)), values_(std::move(values)) {}
  std::size_t size() const override { return axis_.empty() ? 1 : values_.size(); }
  std::string name(std::size_t) const override { return base_.name; }
  SweepLabel sweep(std::size_t i) const override {
    if (axis_.empty()) return {};
    return {{axis_, std::to_string(values_.at(i))}};
  }
  CompiledSituation compile(std::size_t i, bool explain) const override {
    ++compiles;
    D6Situation s = at(i);
    // One state per shot: a d6, a hit on hit_on or more ends the run; a miss goes on to the
    // next shot, or ends the run after the last.
    ProgramBuilder b;
    std::vector<std::int32_t> state(static_cast<std::size_t>(s.shots));
    for (int k = 0; k < s.shots; ++k)
      state[static_cast<std::size_t>(k)] = b.reserve_state("shot " + std::to_string(k + 1));
    for (int k = 0; k < s.shots; ++k) {
      Leaf hit;
      hit.flags = 1u;
      hit.counts = {1, 1, 0, 0};
      hit.outcome = 0;
      hit.end_reason = 0;
      hit.closes_window = k == 0;
      Leaf miss;
      miss.counts = {1, 0, 0, 0};
      miss.outcome = 1;
      miss.closes_window = k == 0;
      if (k + 1 < s.shots)
        miss.next_state = state[static_cast<std::size_t>(k) + 1];
      else
        miss.end_reason = 1;
      std::vector<Link> faces;
      for (int face = 1; face <= 6; ++face) faces.push_back(b.leaf(face >= s.hit_on ? hit : miss));
      b.set_state_root(state[static_cast<std::size_t>(k)], b.node(DieKind::kD6, faces));
    }
    RollProgram p = b.take();
    p.flag_names = {"hit"};
    p.counter_names = {"shots", "hits"};
    p.outcome_names = {"hit", "miss"};
    p.end_reason_names = {"target_hit", "out_of_shots"};
    p.validate();
    CompiledSituation out{std::move(p), {}, {}};
    if (explain)
      out.explain =
          "hits on a d6 roll of " + std::to_string(s.hit_on) + " or more, " + std::to_string(s.shots) + " shot(s)\n";
    return out;
  }

 private:
  D6Situation at(std::size_t i) const {
    D6Situation s = base_;
    if (axis_ == "hit_on") s.hit_on = values_.at(i);
    if (axis_ == "shots") s.shots = values_.at(i);
    return s;
  }
  D6Situation base_;
  std::string axis_;
  std::vector<int> values_;
};

class D6Ruleset final : public Ruleset {
 public:
  std::string_view name() const override { return "d6"; }
  std::string_view data_version() const override { return "d6-test-1"; }
  std::uint64_t data_hash() const override { return 0x6d6d6d6d6d6d6d6dull; }
  const DisplayHints& hints() const override { return hints_; }
  std::unique_ptr<SituationFile> load(std::string_view text, const std::string& path,
                                      const ReadLimits& limits) const override {
    toml::table t;
    try {
      t = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
      fail(path, "toml", std::string(e.description()));
    }
    D6Situation s;
    std::string axis;
    std::vector<int> values;
    for (const auto& [k, v] : t) {
      const std::string key(k.str());
      if (key == "ruleset") continue;
      if (key == "name" && v.is_string())
        s.name = *v.value<std::string>();
      else if (key == "hit_on")
        s.hit_on = integer(v, path, key, 2, 6);
      else if (key == "shots")
        s.shots = integer(v, path, key, 1, 10);
      else if (key == "sweep" && v.is_table()) {
        for (const auto& [sk, sv] : *v.as_table()) {
          axis = std::string(sk.str());
          const int hi = axis == "hit_on" ? 6 : axis == "shots" ? 10 : -1;
          if (hi < 0 || !sv.is_array() || !values.empty())
            fail(path, "sweep." + axis, "expected one array of hit_on or shots");
          for (const auto& x : *sv.as_array())
            values.push_back(integer(x, path, "sweep." + axis, axis == "hit_on" ? 2 : 1, hi));
        }
      } else {
        fail(path, key, "unknown key");
      }
    }
    if (!axis.empty() && values.size() > limits.max_situations) fail(path, "sweep", "too many situations");
    return std::make_unique<D6File>(s, axis, values);
  }

 private:
  DisplayHints hints_ = [] {
    DisplayHints h;
    h.key = {{"p_hit", false, "first p_hit"}, {"p_hit", true, "phase p_hit"}, {"e_shots", true, "e_shots"}};
    h.neutral = {"e_shots"};
    h.first_window = "first shot";
    h.run_window = "phase";
    h.headline = "p_hit";
    h.hits_counter = "hits";
    h.outcome_apart_flag = "";
    return h;
  }();
};

}  // namespace

std::unique_ptr<Ruleset> make_d6_ruleset() { return std::make_unique<D6Ruleset>(); }

std::size_t d6_compiles() { return compiles.load(); }

}  // namespace salvo::testing
