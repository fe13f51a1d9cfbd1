#include "ops/padding/pad.hpp"

#include <string>
#include <vector>

#include "core/array_checks.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/launch.hpp"
#include "ops/engines/coalesce.hpp"
#include "cuarray/errors.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"

namespace cuarray {
namespace ops {
namespace {


runtime::Kernel pad_kernel(PadMode mode, int word_bytes, int rank, bool index64) {
  jit::KernelKey key(jit::KernelFamily::Pad);
  key.push(static_cast<uint8_t>(mode)).push(static_cast<uint8_t>(word_bytes));
  key.push(static_cast<uint8_t>(rank)).push(index64);
  return jit::get_kernel(key, [&] { return jit::KernelSource{pad_source(mode, word_bytes, rank, index64), "cuarray_pad"}; });
}

}  // namespace

std::string pad_source(PadMode mode, int word_bytes, int rank, bool index64) {
  std::string s;
  s.reserve(8192);
  s += kernels::prelude_cuh;
  s += kernels::elementwise_cuh;
  s += jit::word_typedef(word_bytes);
  s += jit::index_typedefs(index64);
  s += "constexpr int R = " + std::to_string(rank) + ";\n";
  s += "constexpr int kMode = " + std::to_string(static_cast<int>(mode)) + ";\n";
  s += kernels::pad_cuh;
  return s;
}

}  // namespace ops

NDArray pad(const NDArray& a, std::span<const PadWidth> widths, PadMode mode,
            std::span<const std::pair<Scalar, Scalar>> constants) {
  const int nd = static_cast<int>(a.ndim());
  if (static_cast<int>(widths.size()) != nd)
    throw_error(ErrorKind::Value, "pad: expected " + std::to_string(nd) + " (before, after) width pairs, got " +
                                      std::to_string(widths.size()));
  if (!constants.empty() && static_cast<int>(constants.size()) != nd)
    throw_error(ErrorKind::Value, "pad: expected " + std::to_string(nd) + " (before, after) constant pairs, got " +
                                      std::to_string(constants.size()));
  Shape out_shape;
  for (int d = 0; d < nd; ++d) {
    const PadWidth w = widths[d];
    if (w.before < 0 || w.after < 0) throw_error(ErrorKind::Value, "index can't contain negative values");
    if (mode != PadMode::Constant && a.shape()[d] == 0 && (w.before > 0 || w.after > 0))
      throw_error(ErrorKind::Value, "can't extend empty axis " + std::to_string(d) +
                                        " using modes other than 'constant' or 'empty'");
    out_shape.push_back(a.shape()[d] + w.before + w.after);
  }
  // NumPy's order: Fortran when the input is Fortran- and not C-contiguous.
  const bool fortran = nd > 1 && a.f_contiguous() && !a.c_contiguous();
  NDArray out = empty(out_shape, a.dtype(), fortran ? Order::F : Order::C);
  if (out.size() == 0) return out;
  if (nd == 0) {
    out.assign(a);
    return out;
  }

  // Kernel dims in the output's memory order, so that element i of the iteration is dst[i].
  const int word = static_cast<int>(a.itemsize());
  Shape kshape, kin, kbefore, kstrides, kaxis;
  std::vector<unsigned char> kconstants(static_cast<size_t>(2 * nd * word), 0);
  for (int k = 0; k < nd; ++k) {
    const int d = fortran ? nd - 1 - k : k;
    kshape.push_back(out_shape[d]);
    kin.push_back(a.shape()[d]);
    kbefore.push_back(widths[d].before);
    kstrides.push_back(a.strides()[d]);
    kaxis.push_back(d);
    if (mode == PadMode::Constant && !constants.empty()) {
      constants[d].first.store_as(a.dtype(), kconstants.data() + (2 * k) * word);
      constants[d].second.store_as(a.dtype(), kconstants.data() + (2 * k + 1) * word);
    }
  }
  ops::StridedView v;
  v.count = 1;
  v.shape = a.shape();
  v.strides[0] = a.strides();
  const bool index64 = ops::needs_index64(v, out.size());

  activate_current_device({&out, &a});
  const runtime::Kernel f = ops::pad_kernel(mode, word, nd, index64);
  runtime::KernelArgs args(index64);
  args.value(static_cast<const char*>(a.raw_data())).value(out.raw_data()).index(out.size());
  args.array(kshape, nd, 1).array(kin, nd, 1).array(kbefore, nd, 0).array(kstrides, nd, 0).array(kaxis, nd, 0);
  args.bytes(kconstants.data(), kconstants.size());
  runtime::launch(f, {ops::grid_for(out.size()), ops::kBlockThreads}, args.params());
  return out;
}

}  // namespace cuarray
