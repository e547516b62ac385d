// Tier 1 (exact): the fast Monte Carlo kernel on compiled ASL programs equals, tally for tally,
// the scalar reference interpreter (asl::resolve_phase, the rules functions called directly)
// fed from the same lane streams; and the engine's tallies do not depend on the thread count.
#include <string>
#include <string_view>

#include "asl_test_util.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/rng.h"
#include "sanitized.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

/// Dice for the interpreter from one of the engine's streams.
class StreamDice : public Dice {
 public:
  StreamDice(std::uint64_t seed, std::uint64_t key, std::uint64_t stream) : d_(seed, key, stream) {}
  int pair() override { return d_.pair(); }
  int d6() override { return d_.d6(); }

 private:
  sim::DiceStream d_;
};

/// Tallies of blocks [0, blocks) by the reference interpreter, lane by lane, trial by trial.
sim::Tallies interpreter_tallies(const Situation& s, const RollProgram& p, std::uint64_t seed, std::uint64_t key,
                                 std::uint64_t trials) {
  sim::Tallies t = sim::empty_tallies(p);
  auto add = [](sim::WindowTallies& w, FlagMask mask, const std::array<std::uint64_t, kMaxCounters>& c, int outcome) {
    for (std::size_t f = 0; f < w.flags.size(); ++f) w.flags[f] += (mask >> f) & 1u;
    for (std::size_t i = 0; i < w.counter_sum.size(); ++i) {
      w.counter_sum[i] += c[i];
      w.counter_sumsq[i] += c[i] * c[i];
    }
    ++w.outcomes[static_cast<std::size_t>(outcome)];
  };
  for (std::uint64_t b = 0; b * sim::kBlockTrials < trials; ++b) {
    const std::uint64_t n = std::min(sim::kBlockTrials, trials - b * sim::kBlockTrials);
    t.trials += n;
    for (std::uint64_t lane = 0; lane < sim::kLanes; ++lane) {
      StreamDice dice(seed, key, sim::lane_stream(b, lane));
      for (std::uint64_t i = 0; i < sim::lane_trials(n, lane); ++i) {
        const PhaseTrace tr = resolve_phase(s, dice);
        FlagMask run_mask = 0, first_mask = 0;
        std::array<std::uint64_t, kMaxCounters> run_c{}, first_c{};
        int first_outcome = 0;
        bool open = true;
        for (const StepRecord& st : tr.steps) {
          run_mask |= st.flags;
          for (std::size_t c = 0; c < kMaxCounters; ++c) run_c[c] += st.counts[c];
          if (open) {
            first_mask |= st.flags;
            for (std::size_t c = 0; c < kMaxCounters; ++c) first_c[c] += st.counts[c];
            first_outcome = st.outcome;
            open = !(st.fired || &st == &tr.steps.back());
          }
        }
        add(t.run, run_mask, run_c, tr.steps.back().outcome);
        add(t.first, first_mask, first_c, first_outcome);
        ++t.run.end_reasons[static_cast<std::size_t>(tr.end)];
      }
    }
  }
  return t;
}

/// Twenty situations: the plain shot, ROF, Multiple Hits, subsequent dr, hull down, special
/// ammo, Low Ammo, X#, Intensive Fire, stop rules. Thirteen of varied_situations(), five of them
/// changed (a black To Hit number, a German gun, other ROF, a shorter range), and two of its own.
std::vector<Situation> twenty() {
  const std::vector<Situation> varied = varied_situations();
  std::vector<Situation> v;
  auto take = [&](std::string_view name) { v.push_back(named_in(varied, name)); };
  auto take_changed = [&](std::string_view name, std::string_view change, auto&& edit) {
    v.push_back(changed(varied, name, change, edit));
  };
  auto add = [&](const std::string& name, auto&& edit) { v.push_back(variant(base(), name, edit)); };
  take_changed("75L AP ROF 2 BU", "black TH#", [](Situation& s) { s.firer.th_color = ThColor::kBlack; });
  take("75L AP front 6");
  take_changed("75 Sherman vs Panther", "German", [](Situation& s) { s.firer.nationality = Nationality::kGerman; });
  add("side 12 hexes", [](Situation& s) {
    s.target.facing = Facing::kSide;
    s.fire.range = 12;
    s.firer.rof = 1;
  });
  take("37L multiple hits");
  take("20L multiple hits, CH region");
  take("improbable hits");
  take_changed("CH only on subsequent dr", "ROF 2", [](Situation& s) { s.firer.rof = 2; });
  take("hull down");
  take_changed("APCR depletion fallback AP", "6 hexes", [](Situation& s) { s.fire.range = 6; });
  take("APCR depletion no fallback");
  take("HE vs light armor");
  take("low ammo circled B10, ROF 2");
  take("B10 X11");
  take("intensive fire");
  take("stop on effect");
  take("stop never, capped");
  add("stop never, ROF 6", [](Situation& s) {
    s.fire.stop_on = StopOn::kNever;
    s.firer.rof = 6;
    s.firer.breakdown = 11;
  });
  take_changed("point blank acquired", "ROF 3", [](Situation& s) { s.firer.rof = 3; });
  take("bounding fire C2");
  return v;
}

}  // namespace

TEST_CASE("fast kernel == scalar reference interpreter, tally for tally, on 20 situations", "[asl][engines][kernel]") {
  const auto v = twenty();
  REQUIRE(v.size() == 20);
  std::uint64_t key = 0;
  for (const Situation& s : v) {
    INFO("situation: " << s.name);
    const RollProgram p = compile(s).program;
    const std::uint64_t trials = (salvo::testing::kSanitized ? 4000 : 20000) + 17;  // uneven lanes
    const sim::Tallies fast = sim::run_blocks(p, 2026, key, 0, 1, trials);
    const sim::Tallies interp = interpreter_tallies(s, p, 2026, key, trials);
    const sim::Tallies walker = sim::run_blocks_reference(p, 2026, key, 0, 1, trials);
    CHECK(fast.truncated == 0);
    CHECK(fast == interp);
    CHECK(walker == interp);
    // ... and the whole engine on 1 and 2 threads
    sim::McOptions o;
    o.seed = 2026;
    o.situation_key = key;
    o.trials = trials;
    sim::Tallies t1, t2;
    o.threads = 1;
    sim::monte_carlo(p, o, &t1);
    o.threads = 2;
    sim::monte_carlo(p, o, &t2);
    CHECK(t1 == fast);
    CHECK(t2 == fast);
    ++key;
  }
}
