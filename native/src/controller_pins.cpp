// Host memory page-locked for the controller's copies: ranges a caller pins (pinHost), the pages'
// own locks (pinPage), and result arrays pinned aside from the addon's side thread (pinAside).
#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "controller.h"
#include "controller_internal.h"

namespace ts {

namespace {

// Host ranges page-locked in this process, shared by every CUDA controller (one per GPU): a
// registration is portable (every device's context sees the range pinned), so a second GPU
// copying from the same coordinator array takes the DMA path instead of failing to register it
// again and copying pageable; the last controller to let go unregisters it.
struct SharedPin {
  size_t bytes = 0;
  int holders = 0;
};
std::mutex gPinMutex;
std::unordered_map<void*, SharedPin> gPins;

/** Ranges pinned aside (pinAside), by start: their bytes, the controller that pinned them, whether the device locked them. */
struct AsidePin {
  size_t bytes = 0;
  const void* owner = nullptr;
  bool locked = false;
};
std::mutex gAsideMutex;
std::unordered_map<void*, AsidePin> gAside;

/** Takes one hold on a page-locked range (registering it with the first); false where the device declined. Holds gPinMutex. */
bool holdPin(Backend& be, void* p, size_t bytes) {
  auto g = gPins.find(p);
  if (g != gPins.end()) {
    if (g->second.bytes < bytes) return false;
    g->second.holders++;
    return true;
  }
  if (!be.hostRegister(p, bytes)) return false;
  gPins[p] = SharedPin{bytes, 1};
  return true;
}

/** Drops one hold (unregistered with the last). Holds gPinMutex. */
void dropPin(Backend& be, void* p) {
  auto g = gPins.find(p);
  if (g == gPins.end() || --g->second.holders > 0) return;
  be.hostUnregister(p);
  gPins.erase(g);
}

}  // namespace

bool Controller::pinAside(void* p, size_t bytes) {
  if (p == nullptr || bytes == 0) return false;
  {
    std::lock_guard<std::mutex> lk(gAsideMutex);
    auto it = gAside.find(p);
    if (it != gAside.end()) return it->second.bytes >= bytes;
  }
  // Emulated: nothing to lock (staged() never stages for it); the range is recorded all the same.
  bool locked = false;
  if (!emulated_) {
    be_->bindThread();
    std::lock_guard<std::mutex> lk(gPinMutex);
    locked = holdPin(*be_, p, bytes);
    if (!locked) return false;
  }
  std::lock_guard<std::mutex> lk(gAsideMutex);
  gAside[p] = AsidePin{bytes, this, locked};
  return true;
}

void Controller::unpinAside(void* p) {
  bool locked = false;
  {
    std::lock_guard<std::mutex> lk(gAsideMutex);
    auto it = gAside.find(p);
    if (it == gAside.end() || it->second.owner != this) return;
    locked = it->second.locked;
    gAside.erase(it);
  }
  if (!locked) return;
  be_->bindThread();
  std::lock_guard<std::mutex> lk(gPinMutex);
  dropPin(*be_, p);
}

void Controller::releaseAside() {
  std::vector<std::pair<void*, bool>> mine;
  {
    std::lock_guard<std::mutex> lk(gAsideMutex);
    for (auto it = gAside.begin(); it != gAside.end();) {
      if (it->second.owner != this) {
        ++it;
        continue;
      }
      mine.emplace_back(it->first, it->second.locked);
      it = gAside.erase(it);
    }
  }
  if (mine.empty()) return;
  be_->syncAll();  // no copy of this controller may still be using them
  std::lock_guard<std::mutex> lk(gPinMutex);
  for (auto& [p, locked] : mine)
    if (locked) dropPin(*be_, p);
}

size_t Controller::asideBytes() const {
  std::lock_guard<std::mutex> lk(gAsideMutex);
  size_t b = 0;
  for (auto& kv : gAside)
    if (kv.second.owner == this) b += kv.second.bytes;
  return b;
}

bool pinnedAside(const void* host, size_t n) {
  const uint8_t* q = (const uint8_t*)host;
  std::lock_guard<std::mutex> lk(gAsideMutex);
  for (const auto& kv : gAside)
    if (kv.second.locked && q >= (const uint8_t*)kv.first && q + n <= (const uint8_t*)kv.first + kv.second.bytes) return true;
  return false;
}

bool Controller::pinHost(void* p, size_t bytes) {
  if (p == nullptr || bytes == 0) return false;
  auto it = pins_.find(p);
  if (it != pins_.end()) {
    if (it->second.bytes < bytes) return false;  // a larger range over the same start: leave it pageable
    it->second.refs++;
    return true;
  }
  if (emulated_) {
    if (!be_->hostRegister(p, bytes)) return false;
  } else {
    std::lock_guard<std::mutex> lk(gPinMutex);
    if (!holdPin(*be_, p, bytes)) return false;
  }
  pins_[p] = Pin{bytes, 1};
  return true;
}

void Controller::releasePin(void* p) {
  be_->syncAll();  // no copy of this controller may still be reading it
  if (emulated_) {
    be_->hostUnregister(p);
    return;
  }
  std::lock_guard<std::mutex> lk(gPinMutex);
  dropPin(*be_, p);
}

void Controller::pinPage(HostPage& hp) {
  if (hp.spec.data == nullptr || hp.pinJob) return;  // read from a file each load: nothing on the host to lock
  auto job = std::make_shared<PagePin>();
  job->p = (void*)hp.spec.data;
  job->bytes = hp.bytes;
  hp.pinJob = job;
  {
    std::lock_guard<std::mutex> lk(pinMu_);
    if (pinStop_) {
      job->state.store(2, std::memory_order_release);
      return;
    }
    if (!pinner_.joinable()) pinner_ = std::thread([this] { pinnerLoop(); });
    pinQueue_.push_back(std::move(job));
  }
  pinCv_.notify_all();
}

void Controller::pinnerLoop() {
  if (!emulated_) be_->bindThread();
  std::unique_lock<std::mutex> lk(pinMu_);
  for (;;) {
    pinCv_.wait(lk, [this] { return pinStop_ || !pinQueue_.empty(); });
    if (pinQueue_.empty()) return;
    std::shared_ptr<PagePin> job = std::move(pinQueue_.front());
    pinQueue_.pop_front();
    pinBusy_++;
    lk.unlock();
    bool ok = false;
    try {
      if (emulated_) {
        ok = be_->hostRegister(job->p, job->bytes);
      } else {
        std::lock_guard<std::mutex> g(gPinMutex);
        ok = holdPin(*be_, job->p, job->bytes);
      }
    } catch (...) {
      ok = false;  // declined: the page keeps streaming through staging
    }
    job->state.store(ok ? 1 : 2, std::memory_order_release);
    lk.lock();
    pinBusy_--;
    pinCv_.notify_all();
  }
}

void Controller::waitPins() {
  std::unique_lock<std::mutex> lk(pinMu_);
  pinCv_.wait(lk, [this] { return pinQueue_.empty() && pinBusy_ == 0; });
}

void Controller::stopPinner() {
  {
    std::lock_guard<std::mutex> lk(pinMu_);
    pinStop_ = true;
    for (auto& j : pinQueue_) j->state.store(2, std::memory_order_release);
    pinQueue_.clear();
  }
  pinCv_.notify_all();
  if (pinner_.joinable()) pinner_.join();
}

void Controller::adoptPin(HostPage& hp) {
  hp.hostPinned = true;
  // The tiles' staged copy would wait on the staging ring (a host-side sync per page) and add a
  // small DMA through it: a pinned copy of them streams as directly as the page.
  const size_t tileBytes = hp.tiles.size() * sizeof(Tile);
  if (tileBytes > 0 && hp.tilesPinned == nullptr) {
    try {
      hp.tilesPinned = (Tile*)be_->pinnedAlloc(tileBytes);
      if (hp.tilesPinned) std::memcpy(hp.tilesPinned, hp.tiles.data(), tileBytes);
    } catch (const CodedError&) {
      hp.tilesPinned = nullptr;  // out of page-locked memory: the tiles keep going through staging
    }
  }
}

void Controller::unpinPage(HostPage& hp) {
  if (std::shared_ptr<PagePin> job = std::move(hp.pinJob)) {
    {
      // A queued lock is cancelled; a running one is waited for.
      std::unique_lock<std::mutex> lk(pinMu_);
      auto q = std::find(pinQueue_.begin(), pinQueue_.end(), job);
      if (q != pinQueue_.end()) {
        pinQueue_.erase(q);
        job->state.store(2, std::memory_order_release);
      }
      pinCv_.wait(lk, [&] { return job->state.load(std::memory_order_acquire) != 0; });
    }
    if (job->state.load(std::memory_order_acquire) == 1) {
      be_->syncAll();  // no copy may still be reading it
      if (emulated_) {
        be_->hostUnregister(job->p);
      } else {
        be_->bindThread();
        std::lock_guard<std::mutex> lk(gPinMutex);
        dropPin(*be_, job->p);
      }
    }
  }
  hp.hostPinned = false;
  if (hp.tilesPinned) {
    be_->syncAll();  // no copy may still be reading it
    be_->pinnedFree(hp.tilesPinned);
    hp.tilesPinned = nullptr;
  }
}

void Controller::unpinHost(void* p) {
  auto it = pins_.find(p);
  if (it == pins_.end()) return;
  if (--it->second.refs > 0) return;
  releasePin(p);
  pins_.erase(it);
}

}  // namespace ts
