#pragma once
/// app/src/team.h — the processes one run is spread over: the ranks of an MPI job (salvo::mpi,
/// built with SALVO_WITH_MPI), or one process. The runner hands each rank a fixed share of the
/// work — blocks of every Monte Carlo situation, situations of an exact sweep — and adds the
/// integer tallies up, so rank 0 writes the table one process writes (docs/scale.md). The app
/// layer sees only this interface; no MPI header is included outside mpi/.

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace salvo::app {

class Team {
 public:
  enum class Op : std::uint8_t { kSum, kMin, kMax };

  virtual ~Team() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Element-wise over every rank, in place; every rank gets the same result. Every rank calls
  /// it with the same number of values (a collective). Integer sums are exact in any order.
  virtual void reduce(std::vector<std::uint64_t>& values, Op op) = 0;
  /// On rank 0: every rank's bytes, in rank order; elsewhere: nothing. A collective.
  virtual std::vector<std::string> gather(const std::string& bytes) = 0;
  /// End every rank of the job at once with `code` (a failure the other ranks cannot learn of).
  [[noreturn]] virtual void abort(int code) = 0;

  /// Where the ranks are: before their first agreement (a rank that fails meets the others
  /// there: run_on_team), in the run's collectives (a rank that fails alone aborts the job, the
  /// others would wait for it), or past the last one (a rank that fails just exits).
  enum class Phase : std::uint8_t { kBefore, kRunning, kAfter };
  Phase phase = Phase::kBefore;
};

/// Items [begin, end) of `count` that `rank` of `size` takes: contiguous shares, in rank order,
/// whose sizes differ by at most one.
std::pair<std::uint64_t, std::uint64_t> share(std::uint64_t count, int rank, int size);

/// A failure every rank learned of together (agree): rank 0 holds the message (elsewhere it is
/// empty) and every rank exits with its code.
class TeamError : public std::runtime_error {
 public:
  TeamError(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

/// A rank's failure: the line it prints and its exit code (commands.h error_exit).
struct Failure {
  std::string message;
  int code = 0;
};

/// Every rank calls this at the same point with its own failure or none. If any rank failed,
/// every rank throws TeamError with the failure of the lowest failing rank (its message on rank
/// 0). The team is then running (Phase::kRunning).
void agree(Team& team, const std::optional<Failure>& mine);

/// Run a command on this rank of `team` (null: this process alone, and errors propagate as
/// always) and return its exit code. A failure is printed once: before the ranks first agreed,
/// every rank meets the others' first agreement and rank 0 prints the lowest failing rank's
/// message; a rank failing alone during the run prints "salvo: rank R of N: ..." and aborts the
/// job (Team::abort) with its exit code, since the others wait for it.
int run_on_team(Team* team, const std::function<int()>& command);

/// The number of processes of the MPI job this process was started in, read from the
/// launcher's environment (OMPI_COMM_WORLD_SIZE, PMI_SIZE); 0 when not started by mpirun.
int launched_ranks();

}  // namespace salvo::app
