#pragma once
/// salvo/rules/program.h — the compiled "roll program" that both engines run.
///
/// A ruleset compiles a firing situation into a finite set of states. Each state owns a small
/// decision DAG over the dice actually rolled: a node rolls one die kind and indexes a table of
/// links by the face; a link leads to another node (a further roll in the same step, e.g. the
/// To Kill DR after a hit) or to a leaf. A leaf records what happened in the step (flags,
/// counters, a categorical outcome) and the next state, or that the run is over.
///
/// The engines know nothing of any ruleset: the exact engine enumerates the tables with their
/// weights and solves the absorbing Markov chain; the Monte Carlo engine rolls real dice and
/// walks the same tables.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace salvo {

/// The kinds of dice a node can roll.
enum class DieKind : std::uint8_t {
  kPair = 0,  ///< ordered (colored, white) 2d6: face index (colored-1)*6 + (white-1), 36 faces
  kD6 = 1,    ///< one die: face index dr-1, 6 faces
};

/// Number of equally likely faces of a die kind.
constexpr int faces(DieKind k) { return k == DieKind::kPair ? 36 : 6; }

/// Face index of an ordered pair; colored and white in 1..6.
constexpr int pair_face(int colored, int white) { return (colored - 1) * 6 + (white - 1); }
constexpr int pair_colored(int face) { return face / 6 + 1; }
constexpr int pair_white(int face) { return face % 6 + 1; }

/// What follows a die face: a node (value >= 0) or a leaf (value < 0, leaf index ~value).
struct Link {
  std::int32_t v = 0;
  static constexpr Link node(std::int32_t i) { return Link{i}; }
  static constexpr Link leaf(std::int32_t i) { return Link{~i}; }
  constexpr bool is_leaf() const { return v < 0; }
  constexpr std::int32_t index() const { return v < 0 ? ~v : v; }
  friend constexpr bool operator==(Link a, Link b) { return a.v == b.v; }
};

/// One roll: the die kind and the first of its faces(die) consecutive links.
struct RollNode {
  DieKind die = DieKind::kPair;
  std::uint32_t first = 0;
};

inline constexpr int kMaxCounters = 4;
inline constexpr int kMaxFlags = 64;
/// One bit per flag (bit i: flag i).
using FlagMask = std::uint64_t;

/// What one step recorded: the flags it set and what it added to each counter. The reference
/// interpreters (asl_reference.h, w1943_reference.h) record their steps so, to be compared with
/// the leaves of a compiled program.
struct StepTally {
  FlagMask flags = 0;
  std::array<std::uint8_t, kMaxCounters> counts{};
};

/// The end of one step (one pass through a state's DAG).
struct Leaf {
  FlagMask flags = 0;                               ///< bit i set: flag i happened in this step
  std::array<std::uint8_t, kMaxCounters> counts{};  ///< added to counter i
  std::uint8_t outcome = 0;                         ///< categorical outcome of the step
  std::uint8_t end_reason = 0;                      ///< why the run ended, when next_state < 0
  bool closes_window = false;                       ///< this step ends the first window (e.g. "the first shot fired")
  std::int32_t next_state = -1;                     ///< state of the next step; -1: the run is over

  friend bool operator==(const Leaf&, const Leaf&) = default;
};

/// A compiled situation: states, their DAGs, and the names of what the leaves record.
///
/// Two windows are reported for every run: the first window (steps up to and including the
/// first leaf with closes_window, or the end of the run) and the whole run ("phase").
/// For each window: P(flag seen at least once), E[counter], and the distribution of the
/// outcome of the window's last step. For the whole run also the distribution of end reasons.
///
/// States may share a DAG and each have leaves of their own (a fight's fire phases: the same
/// shot from many joint states): such a state has a leaf table, and a leaf link k reached from
/// it stands for the leaf of its table's entry k.
struct RollProgram {
  std::vector<std::uint32_t> state_root;  ///< root node of each state's DAG
  std::vector<std::string> state_labels;  ///< human-readable state names (explain, debugging); may be empty
  std::vector<RollNode> nodes;
  std::vector<Link> links;
  std::vector<Leaf> leaves;
  std::int32_t initial_state = 0;
  /// Leaf tables: state s's entries are state_leaves[state_leaf_begin[s] .. state_leaf_begin[s + 1]);
  /// a state with none (or state_leaf_begin empty: no state has one) reaches its leaves directly.
  std::vector<std::uint32_t> state_leaf_begin;  ///< empty, or num_states() + 1 offsets
  std::vector<std::int32_t> state_leaves;       ///< leaf indices

  std::vector<std::string> flag_names;        ///< at most kMaxFlags
  std::vector<std::string> counter_names;     ///< at most kMaxCounters
  std::vector<std::string> outcome_names;     ///< categorical step outcomes
  std::vector<std::string> end_reason_names;  ///< why a run ends

  /// A quantity a run over several turns records once per turn: turn t (1..turns) is the name
  /// at index first + t - 1 of its kind, written NAME_turn_t. How reports lay out a run turn
  /// by turn; not part of the program's hash (the names are).
  struct TurnSeries {
    enum class Kind : std::uint8_t { kFlag, kEndReason };
    Kind kind = Kind::kFlag;
    std::string name;         ///< "destroyed_by"
    std::uint32_t first = 0;  ///< index of turn 1 in flag_names or end_reason_names
    int turns = 0;
    friend bool operator==(const TurnSeries&, const TurnSeries&) = default;
  };
  std::vector<TurnSeries> turn_series;

  /// Appends NAME_turn_1 .. NAME_turn_<turns> to the flag or end-reason names and records the
  /// series.
  void add_turn_series(TurnSeries::Kind kind, const std::string& name, int turns);

  std::size_t num_states() const { return state_root.size(); }

  /// The leaf that a leaf link `l` reached from state `state` stands for.
  std::int32_t leaf_of(std::size_t state, Link l) const {
    if (state_leaf_begin.empty()) return l.index();
    const std::uint32_t b = state_leaf_begin[state];
    return b == state_leaf_begin[state + 1] ? l.index() : state_leaves[b + static_cast<std::uint32_t>(l.index())];
  }

  /// "turn 2, shot 1", or "state 17" for a program without labels.
  std::string state_label(std::size_t state) const;

  /// Link for face f of node n.
  Link link(std::uint32_t n, int f) const { return links[nodes[n].first + static_cast<std::uint32_t>(f)]; }

  /// Structural checks (indices in range, DAGs acyclic, names cover the leaves).
  /// Throws std::logic_error with a description on the first violation.
  void validate() const;

  /// 64-bit FNV-1a hash of the tables and names: identifies the compiled rules data.
  std::uint64_t hash() const;
};

/// The most states salvo solves exactly: a larger program (a fight) takes about 0.5 KB a state to
/// compile and solve, so it runs by Monte Carlo (--method auto, the default) or is refused with --method
/// exact (docs/fights.md).
inline constexpr std::size_t kMaxExactStates = 2'000'000;

/// Incremental builder with de-duplication of identical leaves and nodes. Its indexes' tables
/// come from, and go back to, a pool of its thread's: a builder is a local (or a member of one),
/// never static or thread_local, which could outlive that pool.
class ProgramBuilder {
 public:
  ProgramBuilder() = default;
  ProgramBuilder(const ProgramBuilder&) = delete;
  ProgramBuilder& operator=(const ProgramBuilder&) = delete;
  /// Gives its indexes' tables back to the thread's pool (below).
  ~ProgramBuilder();

  /// Add (or find) a leaf; returns its link.
  Link leaf(const Leaf& l);
  /// Add a leaf that the caller knows no other leaf() call will ask for (a fight's step inside one
  /// fire phase: its next state is the phase's own), without indexing it: a large program's
  /// index of leaves costs a cache miss a leaf.
  Link unindexed_leaf(const Leaf& l);
  /// Add (or find) a node whose faces lead to `links` (size must be faces(die)).
  Link node(DieKind die, std::span<const Link> links);
  Link node(DieKind die, const std::vector<Link>& links) { return node(die, std::span<const Link>(links)); }
  /// Append a state rooted at node `root` (must be a node link); returns the state index.
  std::int32_t add_state(Link root, std::string label);
  /// Set the root of an existing state (for states created before their DAG is built).
  void set_state_root(std::int32_t state, Link root);
  /// Reserve a state index now, set its root later.
  std::int32_t reserve_state(std::string label);
  /// The same for a program without labels (every state reserved so).
  std::int32_t reserve_state();
  /// Give `state` its leaf table (RollProgram::state_leaves): the leaf links of its DAG are
  /// indices into `leaves`. States get their tables in increasing order; a state skipped has none.
  void set_state_leaves(std::int32_t state, std::span<const std::int32_t> leaves);

  RollProgram& program() { return p_; }
  RollProgram take();

  /// The capacities (slots) of the tables the calling thread's pool keeps now (tests).
  static std::vector<std::size_t> pooled_tables();

 private:
  /// An open-addressing index (a power-of-two table, linear probing) of the leaves or nodes
  /// added, by a hash of their contents.
  struct Slot {
    std::uint64_t hash = 0;
    std::int32_t index = -1;  ///< -1: empty
  };
  /// The index of the entry with hash `h` for which `same(index)` holds; if there is none,
  /// insert `fresh` (the index of the entry about to be added, count = entries so far).
  template <class Same>
  static std::int32_t find_or_insert(std::vector<Slot>& table, std::size_t count, std::uint64_t h, std::int32_t fresh,
                                     Same same);

  /// An index's table of at least `size` empty slots, from the thread's pool of tables that
  /// builders gave back (a program is often built right after another, as a fight's phases or a
  /// sweep's situations are: its tables then reuse pages already touched); `give_back` returns
  /// one to it.
  static std::vector<Slot> table_of(std::size_t size);
  static void give_back(std::vector<Slot>& table) noexcept;

  RollProgram p_;
  std::vector<Slot> leaf_index_;
  std::vector<Slot> node_index_;
};

}  // namespace salvo
