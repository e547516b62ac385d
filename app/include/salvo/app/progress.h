#pragma once
/// app/src/progress.h — the one progress bar: on a terminal's stderr, drawn only once a run has
/// lasted a second, at most ten times a second, and cleared when done. Units of work (situations,
/// compared points) and the trials of the one under way.

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace salvo::app {

class Progress {
 public:
  explicit Progress(std::size_t total, std::string unit = "situations")
      : enabled_(isatty(STDERR_FILENO) == 1),
        total_(total),
        unit_(std::move(unit)),
        start_(std::chrono::steady_clock::now()) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { clear(); }

  void situation_done() {
    done_.fetch_add(1);
    draw(false);
  }
  void start_situation() {
    std::lock_guard lock(mutex_);
    trials_done_ = 0;
    trials_planned_ = 0;
  }
  void trials(std::uint64_t done, std::uint64_t planned) {
    {
      std::lock_guard lock(mutex_);
      trials_done_ = done;
      trials_planned_ = planned;
    }
    draw(false);
  }
  void clear() {
    std::lock_guard lock(mutex_);
    if (drawn_) std::fputs("\r\033[K", stderr);
    drawn_ = false;
  }

 private:
  void draw(bool force) {
    if (!enabled_) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && (now - start_ < std::chrono::seconds(1) || (drawn_ && now - last_ < std::chrono::milliseconds(100))))
      return;
    last_ = now;
    const std::size_t done = done_.load();
    double frac = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
    std::string trials;
    if (trials_planned_ > 0) {
      const double within = static_cast<double>(trials_done_) / static_cast<double>(trials_planned_);
      frac += std::min(within, 1.0) / static_cast<double>(std::max<std::size_t>(total_, 1));
      trials = fmt::format("  {:.1f}M / {:.1f}M trials", static_cast<double>(trials_done_) / 1e6,
                           static_cast<double>(trials_planned_) / 1e6);
    }
    constexpr int kWidth = 30;
    const int filled = std::clamp(static_cast<int>(frac * kWidth), 0, kWidth);
    fmt::print(stderr, "\r\033[K[{}{}] {}/{} {}{}", std::string(filled, '#'), std::string(kWidth - filled, '-'), done,
               total_, unit_, trials);
    std::fflush(stderr);
    drawn_ = true;
  }

  const bool enabled_;
  const std::size_t total_;
  const std::string unit_;
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
  std::atomic<std::size_t> done_{0};
  std::mutex mutex_;
  std::uint64_t trials_done_ = 0, trials_planned_ = 0;
  bool drawn_ = false;
};

}  // namespace salvo::app
