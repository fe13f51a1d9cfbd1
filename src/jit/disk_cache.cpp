#include "disk_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "hash.hpp"

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

std::optional<std::string> load_cached_cubin(const std::string& key_text) {
  std::ifstream in(cache_dir() + "/" + file_name(key_text), std::ios::binary);
  if (!in) return std::nullopt;
  Header h;
  if (!in.read(reinterpret_cast<char*>(&h), sizeof(h))) return std::nullopt;
  if (std::memcmp(h.magic, kMagic, sizeof(kMagic)) != 0 || h.key_hash != fnv1a64(key_text) || h.size > (1ull << 30))
    return std::nullopt;
  std::string cubin(h.size, '\0');
  if (!in.read(cubin.data(), static_cast<std::streamsize>(h.size))) return std::nullopt;
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
  std::ostringstream tmp;
  tmp << dir << "/." << file_name(key_text) << "." << ::getpid() << "." << std::this_thread::get_id() << ".tmp";
  {
    std::ofstream out(tmp.str(), std::ios::binary | std::ios::trunc);
    if (!out) return;
    out.write(reinterpret_cast<const char*>(&h), sizeof(h));
    out.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
    if (!out) {
      out.close();
      std::remove(tmp.str().c_str());
      return;
    }
  }
  if (std::rename(tmp.str().c_str(), (dir + "/" + file_name(key_text)).c_str()) != 0) std::remove(tmp.str().c_str());
}

}  // namespace cuarray::jit
