#pragma once
/// salvo/sim/parallel.h — where work runs: `Workers`, a TBB task arena or the calling thread.
///
/// Built without TBB (the CMake option SALVO_WITH_TBB off, as the WebAssembly build is), every
/// loop runs on the calling thread, index after index in order. With TBB, a `Workers` of one
/// thread does the same; more threads run the loop with tbb::parallel_for in a task arena.
/// Callers give each index its own slot and reduce the slots in index order, so results never
/// depend on which.
///
/// With TBB, parallel_for is tbb::parallel_for with its hand-offs visible to ThreadSanitizer:
/// libtbb is not built with -fsanitize=thread, so ThreadSanitizer sees none of the
/// synchronization parallel_for provides: what the caller wrote before the loop is visible to
/// every body, and what every body wrote is visible to the caller once the loop returns. It
/// would report the caller's reads of the results as races. In a ThreadSanitizer build these
/// two edges are stated with the sanitizer's annotations, on two tokens, so that bodies never
/// synchronize with one another (a race between two bodies is still reported). The one read
/// that must come before the first edge, of the task TBB hands to the worker (the body's
/// closure and its range), is marked as ignored: TBB itself orders it. In any other build this
/// is tbb::parallel_for and nothing else.

#include <cstddef>

#ifdef SALVO_WITH_TBB
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#if defined(__SANITIZE_THREAD__)
#define SALVO_TSAN_ANNOTATE 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SALVO_TSAN_ANNOTATE 1
#endif
#endif

#ifdef SALVO_TSAN_ANNOTATE
#include <sanitizer/tsan_interface.h>
extern "C" void AnnotateIgnoreReadsBegin(const char* file, int line);
extern "C" void AnnotateIgnoreReadsEnd(const char* file, int line);
#endif
#endif  // SALVO_WITH_TBB

namespace salvo::sim {

#ifdef SALVO_WITH_TBB
/// tbb::parallel_for(range, body).
template <class Range, class Body>
void parallel_for(const Range& range, const Body& body) {
#ifdef SALVO_TSAN_ANNOTATE
  struct Loop {
    const Body* body;
    char before, after;
  } loop{&body, 0, 0};
  __tsan_release(&loop.before);
  tbb::parallel_for(range, [task = &loop](const Range& task_range) {
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    Loop* const l = task;
    const Range r = task_range;
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
    __tsan_acquire(&l->before);
    (*l->body)(r);
    __tsan_release(&l->after);
  });
  __tsan_acquire(&loop.after);
#else
  tbb::parallel_for(range, body);
#endif
}

/// tbb::parallel_for(first, last, body): body(i) for every i in [first, last).
template <class Index, class Body>
void parallel_for(Index first, Index last, const Body& body) {
  // Qualified: unqualified, argument-dependent lookup would pick tbb::parallel_for (better
  // constrained) and skip the annotations.
  sim::parallel_for(tbb::blocked_range<Index>(first, last), [&](const tbb::blocked_range<Index>& r) {
    for (Index i = r.begin(); i != r.end(); ++i) body(i);
  });
}
#endif  // SALVO_WITH_TBB

/// True when built with TBB: loops may run on several threads.
#ifdef SALVO_WITH_TBB
inline constexpr bool kParallel = true;
#else
inline constexpr bool kParallel = false;
#endif

/// The threads a run uses when asked for all of them: the machine's cores, or 1 without TBB.
inline int default_concurrency() {
#ifdef SALVO_WITH_TBB
  return tbb::info::default_concurrency();
#else
  return 1;
#endif
}

/// Runs loops over `threads` threads (0: all cores): one thread, or a build without TBB, runs
/// them on the calling thread in index order.
class Workers {
 public:
  explicit Workers(int threads) : threads_(kParallel && threads > 0 ? threads : default_concurrency()) {}

  /// Threads the loops run on (at least 1).
  int concurrency() const { return threads_; }

  /// body(i) for every i in [first, last), each exactly once, in any order and on any thread
  /// (in index order on the calling thread when serial()).
  template <class Index, class Body>
  void for_each(Index first, Index last, const Body& body) {
#ifdef SALVO_WITH_TBB
    if (threads_ > 1) {
      arena_.execute([&] { sim::parallel_for(first, last, body); });
      return;
    }
#endif
    for (Index i = first; i != last; ++i) body(i);
  }

  /// True when loops run on the calling thread, in index order.
  bool serial() const { return threads_ == 1; }

 private:
  int threads_;
#ifdef SALVO_WITH_TBB
  tbb::task_arena arena_{threads_};  // initialized on first use: never for one thread
#endif
};

}  // namespace salvo::sim
