// salvo::app::Team over MPI_COMM_WORLD.
#include "salvo/mpi/mpi_team.h"

#include <fmt/format.h>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace salvo::mpi {
namespace {

static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(fmt::format("MPI: {}: {}", what, std::string(text, static_cast<std::size_t>(len))));
}

class MpiTeam final : public app::Team {
 public:
  MpiTeam() {
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  }
  ~MpiTeam() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
  MpiTeam(const MpiTeam&) = delete;
  MpiTeam& operator=(const MpiTeam&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void reduce(std::vector<std::uint64_t>& values, Op op) override {
    if (values.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("MPI: reduction too large");
    const MPI_Op mpi_op = op == Op::kSum ? MPI_SUM : op == Op::kMin ? MPI_MIN : MPI_MAX;
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T, mpi_op,
                        MPI_COMM_WORLD),
          "MPI_Allreduce");
  }

  std::vector<std::string> gather(const std::string& bytes) override {
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("MPI: more than 2 GiB to gather from one rank");
    const int mine = static_cast<int>(bytes.size());
    std::vector<int> counts(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
    check(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
    std::vector<int> offsets(counts.size());
    std::size_t total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      offsets[r] = static_cast<int>(total);
      total += static_cast<std::size_t>(counts[r]);
      if (total > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw std::runtime_error("MPI: more than 2 GiB to gather");
    }
    std::string all(total, '\0');
    check(MPI_Gatherv(bytes.data(), mine, MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR, 0,
                      MPI_COMM_WORLD),
          "MPI_Gatherv");
    std::vector<std::string> parts;
    for (std::size_t r = 0; r < counts.size(); ++r)
      parts.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(counts[r])));
    return parts;
  }

  [[noreturn]] void abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; if it did, end this rank anyway
  }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

std::unique_ptr<app::Team> start(int& argc, char**& argv) {
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes (check), not as MPI's default abort without a message.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return std::make_unique<MpiTeam>();
}

}  // namespace salvo::mpi
