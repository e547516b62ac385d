#pragma once
/// salvo/sim/parallel.h — tbb::parallel_for, with its hand-offs visible to ThreadSanitizer.
///
/// libtbb is not built with -fsanitize=thread, so ThreadSanitizer sees none of the
/// synchronization parallel_for provides: what the caller wrote before the loop is visible to
/// every body, and what every body wrote is visible to the caller once the loop returns. It
/// would report the caller's reads of the results as races. In a ThreadSanitizer build these
/// two edges are stated with the sanitizer's annotations, on two tokens, so that bodies never
/// synchronize with one another (a race between two bodies is still reported). The one read
/// that must come before the first edge, of the task TBB hands to the worker (the body's
/// closure and its range), is marked as ignored: TBB itself orders it. In any other build this
/// is tbb::parallel_for and nothing else.

#include <tbb/parallel_for.h>

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

namespace salvo::sim {

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

}  // namespace salvo::sim
