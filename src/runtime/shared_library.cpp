#include "runtime/shared_library.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "cuarray/errors.hpp"

namespace cuarray::runtime {
namespace {

namespace fs = std::filesystem;

// The site-packages directory libcuarray.so was loaded from, found without Python: in a wheel the
// library sits in <site-packages>/cuarray/. Elsewhere (a build tree) the directory it names holds no
// nvidia/ wheels and costs one failed lookup.
std::string own_site_packages() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<const void*>(&own_site_packages), &info) || !info.dli_fname) return {};
  std::error_code ec;
  fs::path library = fs::absolute(info.dli_fname, ec);
  return ec ? std::string() : library.parent_path().parent_path().string();
}

std::vector<std::string> site_packages_dirs() {
  std::vector<std::string> dirs;
  if (std::string own = own_site_packages(); !own.empty()) dirs.push_back(own);
  if (const char* python_path = std::getenv("PYTHONPATH")) {
    std::string_view rest = python_path;
    while (!rest.empty()) {
      size_t colon = rest.find(':');
      std::string_view entry = rest.substr(0, colon);
      if (!entry.empty()) dirs.emplace_back(entry);
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  }
  return dirs;
}

std::string join(const std::vector<std::string>& items, const char* last_separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last_separator : ", ";
    out += items[i];
  }
  return out;
}

// The loader's reason for a bare soname it did not find is "<soname>: cannot open shared object
// file"; only other reasons (a dependency missing, a wrong architecture) tell the user something.
bool says_not_found(const std::string& soname, const std::string& reason) {
  return reason.rfind(soname + ": cannot open shared object file", 0) == 0;
}

}  // namespace

std::vector<std::string> library_search_dirs(const LibrarySpec& spec) {
  std::vector<std::string> dirs;
  auto add = [&](const fs::path& dir) {
    std::string d = dir.lexically_normal().string();
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(std::move(d));
  };
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(var); root && *root) add(fs::path(root) / "lib64");
  for (const std::string& sp : site_packages_dirs()) {
    add(fs::path(sp) / "nvidia" / "cu13" / "lib");
    add(fs::path(sp) / "nvidia" / spec.wheel / "lib");
  }
  add("/usr/local/cuda/lib64");
  dirs.emplace_back();  // the loader's own search
  return dirs;
}

SharedLibrary open_library(const LibrarySpec& spec) {
  std::vector<std::string> looked, failures;
  for (const std::string& dir : library_search_dirs(spec)) {
    looked.push_back(dir.empty() ? "the loader's search path (LD_LIBRARY_PATH, ldconfig)" : dir);
    for (const std::string& soname : spec.sonames) {
      std::string path = dir.empty() ? soname : dir + "/" + soname;
      // A file that is not there is skipped quietly: the loader's reason would say nothing new.
      if (!dir.empty() && access(path.c_str(), F_OK) != 0) continue;
      if (void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return {spec.title, handle, path};
      std::string reason = dlerror();  // starts with the path or soname it is about
      if (!dir.empty() || !says_not_found(soname, reason)) failures.push_back(reason);
    }
  }
  std::string message = std::string("cannot load ") + spec.title + " (" + join(spec.sonames, " or ") +
                        "). Looked in: " + join(looked, " and ") + ".";
  if (!failures.empty()) message += " Found but could not load: " + join(failures, " and ") + ".";
  message += std::string(" Install it with `") + spec.pip_hint +
             "`, or install the CUDA toolkit and set CUDA_PATH to its root.";
  throw_error(ErrorKind::CudaRuntime, message);
}

void* SharedLibrary::symbol(const char* name) const {
  void* address = dlsym(handle, name);
  if (!address)
    throw_error(ErrorKind::CudaRuntime, std::string(title) + " (" + path + ") has no function " + name +
                                            ": cuarray needs a newer " + title);
  return address;
}

}  // namespace cuarray::runtime
