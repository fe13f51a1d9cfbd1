#include "jit/nvcc.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuarray/errors.hpp"

namespace cuarray::jit {
namespace {

namespace fs = std::filesystem;

bool executable(const fs::path& p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0; }

// The argument as one word of a POSIX shell command line.
std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A directory of its own under the system's temporary directory, removed when it goes.
struct TemporaryDirectory {
  fs::path path;
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "cuarray-nvcc-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw_error(ErrorKind::CudaRuntime, "nvcc: cannot create a temporary directory");
    path = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

}  // namespace

std::string find_nvcc() {
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(variable); root && *root && executable(fs::path(root) / "bin" / "nvcc"))
      return (fs::path(root) / "bin" / "nvcc").string();
  if (executable("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && executable(fs::path(dir) / "nvcc")) return (fs::path(dir) / "nvcc").string();
  }
  return {};
}

std::string compile_with_nvcc(const std::string& source, const std::string& name, const std::string& arch,
                              const std::vector<std::string>& options) {
  const std::string nvcc = find_nvcc();
  if (nvcc.empty())
    throw_error(ErrorKind::CudaRuntime,
                "backend='nvcc' needs nvcc, which was not found in $CUDA_PATH/bin, $CUDA_HOME/bin, "
                "/usr/local/cuda/bin or on $PATH; install the CUDA toolkit or use backend='nvrtc'");
  TemporaryDirectory dir;
  const fs::path input = dir.path / (name + ".cu"), output = dir.path / (name + ".cubin");
  std::ofstream(input, std::ios::binary) << source;
  std::string command = quoted(nvcc) + " --cubin -arch=" + arch;
  for (const auto& o : options) command += " " + quoted(o);
  command += " -o " + quoted(output.string()) + " " + quoted(input.string()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw_error(ErrorKind::CudaRuntime, "cannot run " + nvcc);
  std::string log;
  char chunk[4096];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) log.append(chunk, n);
  const int status = ::pclose(pipe);
  if (status != 0 || !fs::exists(output)) {
    while (!log.empty() && log.back() == '\n') log.pop_back();
    throw CompileError(log, source, name);
  }
  return read_all(output);
}

}  // namespace cuarray::jit
