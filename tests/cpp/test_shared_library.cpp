// Finding a CUDA library: the search order over CUDA_PATH, fake pip-wheel site-packages and the
// loader; which copy is opened when several exist; the error naming every place looked; and a
// function table resolved from the library that was found. A small fixture library stands in for
// the CUDA ones, copied under their sonames into a fresh temporary directory per test.
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "cuarray/errors.hpp"
#include "runtime/function_table.hpp"
#include "runtime/shared_library.hpp"

// Declared for their types only: the fixture defines the first, nothing defines the second.
extern "C" int cuarray_fake_library_answer();
extern "C" int cuarray_fake_library_absent();

namespace fs = std::filesystem;
using namespace cuarray;
using runtime::LibrarySpec;

namespace {

// Sets environment variables for one test and restores them after.
class ScopedEnv {
 public:
  void set(const char* name, const std::optional<std::string>& value) {
    if (!saved_.count(name)) {
      const char* old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    if (value) setenv(name, value->c_str(), 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : saved_) {
      if (value) setenv(name.c_str(), value->c_str(), 1);
      else unsetenv(name.c_str());
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

class LibrarySearch : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "cuarray-libs-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    // Nothing from the machine running the tests may sit in the searched places of a test.
    env_.set("CUDA_PATH", std::nullopt);
    env_.set("CUDA_HOME", std::nullopt);
    env_.set("PYTHONPATH", std::nullopt);
  }
  void TearDown() override { fs::remove_all(root_); }

  // Copies the fixture to <root>/<dir>/<soname>; returns the copy's path.
  std::string install(const std::string& dir, const std::string& soname) {
    fs::create_directories(root_ / dir);
    fs::path target = root_ / dir / soname;
    fs::copy_file(CUARRAY_FAKE_LIBRARY, target);
    return target.string();
  }
  std::string path(const std::string& relative) const { return (root_ / relative).string(); }

  // A library no machine has, so only the test's copies can be found.
  static LibrarySpec fake_spec() {
    return {"FakeLib", {"libcuarray_fake.so.13", "libcuarray_fake.so.12"}, "fakelib", "pip install nvidia-fakelib"};
  }

  fs::path root_;
  ScopedEnv env_;
};

// The parent of libcuarray.so's directory, as open_library derives it (a wheel's site-packages).
std::string own_site_packages() {
  Dl_info info{};
  EXPECT_NE(dladdr(reinterpret_cast<const void*>(&runtime::open_library), &info), 0);
  return fs::absolute(info.dli_fname).parent_path().parent_path().string();
}

// The file the loader actually mapped for `handle`.
std::string loaded_path(void* handle) {
  link_map* map = nullptr;
  EXPECT_EQ(dlinfo(handle, RTLD_DI_LINKMAP, &map), 0);
  return map ? map->l_name : "";
}

}  // namespace

TEST_F(LibrarySearch, SearchOrder) {
  env_.set("CUDA_PATH", path("toolkit"));
  env_.set("CUDA_HOME", path("toolkit/"));  // the same directory: listed once
  env_.set("PYTHONPATH", path("sp1") + "::" + path("sp2/"));
  const std::string own = own_site_packages();
  std::vector<std::string> expected = {
      path("toolkit/lib64"),
      own + "/nvidia/cu13/lib", own + "/nvidia/fakelib/lib",
      path("sp1/nvidia/cu13/lib"), path("sp1/nvidia/fakelib/lib"),
      path("sp2/nvidia/cu13/lib"), path("sp2/nvidia/fakelib/lib"),
      "/usr/local/cuda/lib64",
      "",  // the loader's own search
  };
  EXPECT_EQ(runtime::library_search_dirs(fake_spec()), expected);
}

TEST_F(LibrarySearch, CudaHomeFollowsCudaPath) {
  env_.set("CUDA_PATH", path("a"));
  env_.set("CUDA_HOME", path("b"));
  auto dirs = runtime::library_search_dirs(fake_spec());
  ASSERT_GE(dirs.size(), 2u);
  EXPECT_EQ(dirs[0], path("a/lib64"));
  EXPECT_EQ(dirs[1], path("b/lib64"));
}

TEST_F(LibrarySearch, OpensFromCuda13Wheel) {
  env_.set("PYTHONPATH", path("site-packages"));
  std::string expected = install("site-packages/nvidia/cu13/lib", "libcuarray_fake.so.13");
  runtime::SharedLibrary lib = runtime::open_library(fake_spec());
  EXPECT_EQ(lib.path, expected);
  EXPECT_EQ(loaded_path(lib.handle), expected);
  EXPECT_STREQ(lib.title, "FakeLib");
}

TEST_F(LibrarySearch, OpensFromCuda12Wheel) {
  env_.set("PYTHONPATH", path("site-packages"));
  std::string expected = install("site-packages/nvidia/fakelib/lib", "libcuarray_fake.so.12");
  runtime::SharedLibrary lib = runtime::open_library(fake_spec());
  EXPECT_EQ(loaded_path(lib.handle), expected);
}

TEST_F(LibrarySearch, EarlierPlaceAndSonameWin) {
  env_.set("CUDA_PATH", path("toolkit"));
  env_.set("PYTHONPATH", path("site-packages"));
  install("site-packages/nvidia/cu13/lib", "libcuarray_fake.so.13");
  install("toolkit/lib64", "libcuarray_fake.so.12");
  std::string expected = install("toolkit/lib64", "libcuarray_fake.so.13");
  EXPECT_EQ(loaded_path(runtime::open_library(fake_spec()).handle), expected);
}

TEST_F(LibrarySearch, ErrorNamesLibraryPlacesAndHint) {
  env_.set("CUDA_PATH", path("toolkit"));
  env_.set("PYTHONPATH", path("site-packages"));
  try {
    runtime::open_library(fake_spec());
    FAIL() << "expected CudaRuntime";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), ErrorKind::CudaRuntime);
    std::string msg = err.what();
    for (const char* part : {"FakeLib", "libcuarray_fake.so.13", "libcuarray_fake.so.12", "pip install nvidia-fakelib",
                             "CUDA_PATH", "the loader's search path"})
      EXPECT_NE(msg.find(part), std::string::npos) << part << " missing from: " << msg;
    for (const std::string& dir : runtime::library_search_dirs(fake_spec())) {
      if (!dir.empty()) {
        EXPECT_NE(msg.find(dir), std::string::npos) << dir << " missing from: " << msg;
      }
    }
    EXPECT_EQ(msg.find("could not load"), std::string::npos) << msg;  // nothing was there to fail
  }
}

TEST_F(LibrarySearch, ErrorGivesLoaderReasonForAFileThatFailed) {
  env_.set("CUDA_PATH", path("toolkit"));
  fs::create_directories(path("toolkit/lib64"));
  std::ofstream(path("toolkit/lib64/libcuarray_fake.so.13")) << "not an ELF file";
  try {
    runtime::open_library(fake_spec());
    FAIL() << "expected CudaRuntime";
  } catch (const Error& err) {
    std::string msg = err.what();
    EXPECT_NE(msg.find("Found but could not load: " + path("toolkit/lib64/libcuarray_fake.so.13")), std::string::npos)
        << msg;
  }
}

TEST_F(LibrarySearch, MissingSymbolNamesLibraryAndSymbol) {
  env_.set("CUDA_PATH", path("toolkit"));
  install("toolkit/lib64", "libcuarray_fake.so.13");
  runtime::SharedLibrary lib = runtime::open_library(fake_spec());
  EXPECT_NE(lib.symbol("cuarray_fake_library_answer"), nullptr);
  try {
    lib.symbol("cuarray_fake_library_absent");
    FAIL() << "expected CudaRuntime";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), ErrorKind::CudaRuntime);
    std::string msg = err.what();
    EXPECT_NE(msg.find("FakeLib"), std::string::npos) << msg;
    EXPECT_NE(msg.find("cuarray_fake_library_absent"), std::string::npos) << msg;
  }
}

// ---- function tables ------------------------------------------------------------------------------

// As a CUDA header maps a name to its versioned symbol (cublasCreate -> cublasCreate_v2).
#define cuarray_fake_answer cuarray_fake_library_answer

#define CUARRAY_FAKE_FUNCTIONS(X) X(cuarray_fake_answer)
struct FakeApi {
  CUARRAY_FAKE_FUNCTIONS(CUARRAY_DECLARE_FUNCTION)
  explicit FakeApi(const runtime::SharedLibrary& library) { CUARRAY_FAKE_FUNCTIONS(CUARRAY_RESOLVE_FUNCTION) }
};

#define CUARRAY_FAKE_INCOMPLETE_FUNCTIONS(X) X(cuarray_fake_library_answer) X(cuarray_fake_library_absent)
struct FakeIncompleteApi {
  CUARRAY_FAKE_INCOMPLETE_FUNCTIONS(CUARRAY_DECLARE_FUNCTION)
  explicit FakeIncompleteApi(const runtime::SharedLibrary& library) {
    CUARRAY_FAKE_INCOMPLETE_FUNCTIONS(CUARRAY_RESOLVE_FUNCTION)
  }
};

TEST_F(LibrarySearch, FunctionTableResolvesVersionedNames) {
  env_.set("CUDA_PATH", path("toolkit"));
  install("toolkit/lib64", "libcuarray_fake.so.13");
  runtime::LazyLibrary<FakeApi> fake(fake_spec());
  const FakeApi& api = fake.get();
  EXPECT_EQ(api.cuarray_fake_answer(), 42);  // the member, like the symbol, has the versioned name
  EXPECT_EQ(&fake.get(), &api);              // loaded once
}

TEST_F(LibrarySearch, FunctionTableMissingSymbolThrows) {
  env_.set("CUDA_PATH", path("toolkit"));
  install("toolkit/lib64", "libcuarray_fake.so.13");
  runtime::LazyLibrary<FakeIncompleteApi> fake(fake_spec());
  EXPECT_THROW(fake.get(), Error);
}

TEST_F(LibrarySearch, FailedLoadIsRetriedWithTheSameError) {
  env_.set("CUDA_PATH", path("toolkit"));
  runtime::LazyLibrary<FakeApi> fake(fake_spec());
  auto message = [&] {
    try {
      fake.get();
    } catch (const Error& err) {
      return std::string(err.what());
    }
    return std::string("loaded");
  };
  std::string first = message();
  EXPECT_NE(first.find("cannot load FakeLib"), std::string::npos) << first;
  EXPECT_EQ(message(), first);
  install("toolkit/lib64", "libcuarray_fake.so.13");  // the user installs it; the next use finds it
  EXPECT_EQ(fake.get().cuarray_fake_answer(), 42);
}
