// The team a run is spread over: fixed shares, and agreement on failures (team.h).
#include "salvo/app/team.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <limits>

#include "salvo/app/commands.h"

namespace salvo::app {

std::pair<std::uint64_t, std::uint64_t> share(std::uint64_t count, int rank, int size) {
  const auto r = static_cast<std::uint64_t>(rank);
  const auto n = static_cast<std::uint64_t>(size);
  const std::uint64_t base = count / n;
  const std::uint64_t extra = count % n;  // the first `extra` ranks take one more
  const std::uint64_t begin = r * base + (r < extra ? r : extra);
  return {begin, begin + base + (r < extra ? 1 : 0)};
}

void agree(Team& team, const std::optional<Failure>& mine) {
  team.phase = Team::Phase::kRunning;
  constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
  // The lowest failing rank, then its exit code, then its message on rank 0.
  std::vector<std::uint64_t> first{mine ? static_cast<std::uint64_t>(team.rank()) : kNone};
  team.reduce(first, Team::Op::kMin);
  if (first[0] == kNone) return;
  const bool me = first[0] == static_cast<std::uint64_t>(team.rank());
  std::vector<std::uint64_t> code{me ? static_cast<std::uint64_t>(mine->code) : 0};
  team.reduce(code, Team::Op::kMax);
  const std::vector<std::string> messages = team.gather(me ? mine->message : std::string());
  throw TeamError(team.rank() == 0 ? messages.at(static_cast<std::size_t>(first[0])) : std::string(),
                  static_cast<int>(code[0]));
}

int run_on_team(Team* team, const std::function<int()>& command) {
  if (team == nullptr || team->size() <= 1) return command();
  const auto print = [](const std::string& message) {
    if (!message.empty()) std::fprintf(stderr, "%s\n", message.c_str());
  };
  try {
    return command();
  } catch (const TeamError& e) {
    print(e.what());
    return e.code();
  } catch (const std::exception& e) {
    const ErrorExit error = error_exit(e);
    if (team->phase == Team::Phase::kBefore) {
      try {
        agree(*team, Failure{error.message, error.code});
      } catch (const TeamError& agreed) {
        print(agreed.what());
        return agreed.code();
      }
    }
    if (team->phase == Team::Phase::kAfter) {
      print(error.message);
      return error.code;
    }
    const std::string_view text = error.message.rfind("salvo: ", 0) == 0 ? std::string_view(error.message).substr(7)
                                                                         : std::string_view(error.message);
    print(fmt::format("salvo: rank {} of {}: {}", team->rank(), team->size(), text));
    std::fflush(stderr);
    team->abort(error.code);
  }
  return kExitInternal;  // not reached: Team::abort ends the process
}

int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') {
      const long n = std::strtol(v, nullptr, 10);
      if (n > 0 && n <= std::numeric_limits<int>::max()) return static_cast<int>(n);
    }
  }
  return 0;
}

}  // namespace salvo::app
