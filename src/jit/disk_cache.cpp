#include "jit/disk_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

#include "jit/hash.hpp"

namespace cuarray::jit {
namespace {

constexpr char kMagic[8] = {'C', 'U', 'A', 'R', 'B', 'I', 'N', '1'};

struct Header {
  char magic[8];
  uint64_t key_hash;   // guards against a file-name collision
  uint64_t size;       // of the CUBIN that follows
  uint64_t checksum;   // of the CUBIN
};

void make_dirs(const std::string& path) {
  for (size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos == path.size() || path[pos] == '/') ::mkdir(path.substr(0, pos).c_str(), 0755);
  }
}

std::string file_name(const std::string& key_text) {
  char name[40];
  std::snprintf(name, sizeof(name), "%016llx%016llx.cubin",
                static_cast<unsigned long long>(fnv1a64(key_text)),
                static_cast<unsigned long long>(fnv1a64(key_text, 0x84222325cbf29ce4ull)));
  return name;
}

}  // namespace

std::string cache_dir() {
  if (const char* d = std::getenv("CUARRAY_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/cuarray";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/cuarray";
}

namespace {
// stdio rather than iostreams: no locale machinery on the kernel-load path (and iostreams'
// facets crashed inside some toolchains' Python processes).
using File = std::unique_ptr<FILE, int (*)(FILE*)>;
File open_file(const std::string& path, const char* mode) { return File(std::fopen(path.c_str(), mode), &std::fclose); }

std::optional<std::string> load_cached_cubin(const std::string& key_text) {
  File in = open_file(cache_dir() + "/" + file_name(key_text), "rb");
  if (!in) return std::nullopt;
  Header h;
  if (std::fread(&h, sizeof(h), 1, in.get()) != 1) return std::nullopt;
  if (std::memcmp(h.magic, kMagic, sizeof(kMagic)) != 0 || h.key_hash != fnv1a64(key_text) || h.size > (1ull << 30))
    return std::nullopt;
  std::string cubin(h.size, '\0');
  if (h.size && std::fread(cubin.data(), h.size, 1, in.get()) != 1) return std::nullopt;
  if (fnv1a64(cubin) != h.checksum) return std::nullopt;  // torn or corrupted: recompile
  return cubin;
}

void store_cached_cubin(const std::string& key_text, const std::string& cubin) {
  const std::string dir = cache_dir();
  make_dirs(dir);
  Header h;
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  h.key_hash = fnv1a64(key_text);
  h.size = cubin.size();
  h.checksum = fnv1a64(cubin);
  // A name unique to this process and thread, then rename(): readers see a whole file or none,
  // and concurrent writers of the same kernel each publish an identical complete file.
  const std::string tmp = dir + "/." + file_name(key_text) + "." + std::to_string(::getpid()) + "." +
                          std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id())) + ".tmp";
  bool written;
  {
    File out = open_file(tmp, "wb");
    if (!out) return;
    written = std::fwrite(&h, sizeof(h), 1, out.get()) == 1 &&
              (cubin.empty() || std::fwrite(cubin.data(), cubin.size(), 1, out.get()) == 1);
    written = (std::fclose(out.release()) == 0) && written;
  }
  if (!written || std::rename(tmp.c_str(), (dir + "/" + file_name(key_text)).c_str()) != 0) std::remove(tmp.c_str());
}

// One kernel's lock file, held while the object lives (nothing when it cannot be taken).
class CompileLock {
 public:
  explicit CompileLock(const std::string& key_text) {
    const std::string dir = cache_dir() + "/locks";
    make_dirs(dir);
    path_ = dir + "/" + file_name(key_text) + ".lock";
    fd_ = ::open(path_.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    int rc;
    do rc = ::flock(fd_, LOCK_EX);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~CompileLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the flock
  }
  CompileLock(const CompileLock&) = delete;
  CompileLock& operator=(const CompileLock&) = delete;
  bool held() const { return fd_ >= 0; }
  // Removes the lock file once the CUBIN is stored: a waiter on the removed file finds the CUBIN
  // when it gets its turn, and a later caller finds it before taking any lock.
  void retire() {
    if (fd_ >= 0) ::unlink(path_.c_str());
  }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace

std::string cached_cubin(const std::string& key_text, const std::function<std::string()>& compile) {
  if (auto cached = load_cached_cubin(key_text)) return *cached;
  CompileLock lock(key_text);
  if (lock.held()) {
    if (auto cached = load_cached_cubin(key_text)) {  // compiled while we waited
      lock.retire();
      return *cached;
    }
  }
  std::string cubin = compile();
  store_cached_cubin(key_text, cubin);
  lock.retire();
  return cubin;
}

}  // namespace cuarray::jit
