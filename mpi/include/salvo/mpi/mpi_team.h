#pragma once
/// salvo/mpi/mpi_team.h — the ranks of an MPI job as a salvo::app::Team (built with
/// SALVO_WITH_MPI; Open MPI from Debian). The only code that includes <mpi.h>: the collectives
/// the runner needs (integer reductions, a gather to rank 0, abort), over MPI_COMM_WORLD.

#include <memory>

#include "salvo/app/team.h"

namespace salvo::mpi {

/// MPI_Init (MPI_THREAD_FUNNELED: only the thread that calls the collectives uses MPI; the
/// TBB threads only run blocks), and MPI_Finalize when destroyed. Throws std::runtime_error if
/// MPI cannot start.
std::unique_ptr<app::Team> start(int& argc, char**& argv);

}  // namespace salvo::mpi
