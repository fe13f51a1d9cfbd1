// Devices, streams, events and the memory pools (cuarray.cuda in Python).
//
// The CUDA driver is opened with dlopen on first use, so a program that links cuarray runs on a
// machine with no GPU until it asks for one; then it gets ErrorKind::CudaRuntime naming what is missing.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

struct CUstream_st;  // the driver's opaque stream, event and memory pool types (cuda.h)
struct CUevent_st;
struct CUmemPoolHandle_st;

namespace cuarray {

using StreamHandle = ::CUstream_st*;  // CUstream
using EventHandle = ::CUevent_st*;    // CUevent

// ---- devices ----------------------------------------------------------------------------------
int device_count();                 // 0 never: throws CudaRuntime when there is no usable device
int current_device();               // per thread; 0 until set
void set_current_device(int id);    // validates the id
void device_synchronize(int id);
struct DeviceMemoryInfo {
  size_t free, total;  // bytes, as the driver reports them (cuMemGetInfo); the pool's cache counts as used
};
DeviceMemoryInfo device_memory_info(int id);
struct DeviceProperties {
  int major = 0, minor = 0, multiprocessor_count = 0, max_threads_per_block = 0, l2_cache_bytes = 0;
  bool memory_pools = false;  // stream-ordered allocation (cuMemAllocFromPoolAsync) is supported
  size_t total_memory = 0;
  std::string name;
};
const DeviceProperties& device_properties(int id);

// The queries behind cuarray.cuda.runtime's CuPy names, none of which creates a context: one
// cuDeviceGetAttribute (cudaDeviceAttr's values are CUdevice_attribute's), the name, the memory's
// size, the PCI bus id ("0000:1B:00.0") both ways, the 16-byte UUID, and the driver's CUDA version
// (13000 for 13.0). A bad device, attribute or bus id throws CudaRuntime.
int device_attribute(int id, int attribute);
std::string device_name(int id);
size_t device_total_memory(int id);
std::string device_pci_bus_id(int id);
int device_by_pci_bus_id(const std::string& bus_id);
std::string device_uuid(int id);
int driver_version();

// cuProfilerStart / cuProfilerStop on the current device's context: what a profiler (Nsight
// Systems with --capture-range=cudaProfilerApi) records lies between them.
void profiler_start();
void profiler_stop();

// ---- streams and events ----------------------------------------------------------------------------
// A stream is a handle plus the device it belongs to; the null stream is handle nullptr.
class Stream {
 public:
  static std::shared_ptr<Stream> null_stream();
  static std::shared_ptr<Stream> create(bool non_blocking, int priority = 0);
  // A stream another library owns (CuPy's ExternalStream), or a special handle such as the
  // per-thread default stream (CU_STREAM_PER_THREAD): used, never destroyed, here.
  static std::shared_ptr<Stream> external(StreamHandle handle, int device);
  ~Stream();
  StreamHandle handle() const { return handle_; }
  int device() const { return device_; }
  void synchronize() const;
  bool done() const;

 private:
  Stream(StreamHandle h, int device, bool owned) : handle_(h), device_(device), owned_(owned) {}
  StreamHandle handle_;
  int device_;
  bool owned_;
};

// ---- stream capture: CUDA graphs (CuPy's Stream.begin_capture / end_capture, cuda.Graph) ----
// While a stream captures, cuarray's launches go straight to it (none are held), and the memory
// cuarray allocates for work on it is kept by the graph the capture makes, so replaying the graph
// never writes memory given to another array since (stream-ordered memory is left to the graph's
// own memory nodes). `mode` is a CUstreamCaptureMode (0 global, 1 thread-local, 2 relaxed). See
// docs/graphs.md.
void begin_capture(StreamHandle stream, int mode);
bool is_capturing(StreamHandle stream);

class Graph {
 public:
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  void launch(StreamHandle stream);  // replays the captured work on `stream`
  void upload(StreamHandle stream);  // makes its first launch cheaper (cuGraphUpload)
  int device() const { return device_; }

  struct Parts;  // the instantiated graph and the memory it keeps
  Graph(int device, std::unique_ptr<Parts> parts);

 private:
  int device_;
  std::unique_ptr<Parts> parts_;
};
// Ends the stream's capture and instantiates what it captured; throws CudaDriver when the capture
// was invalidated (a synchronization or a transfer to pageable host memory during it, ...).
std::shared_ptr<Graph> end_capture(StreamHandle stream);

// Per thread and per device, as in CuPy; the null stream when none was set.
StreamHandle current_stream_handle();
std::shared_ptr<Stream> current_stream();
void set_current_stream(std::shared_ptr<Stream> stream);  // nullptr restores the null stream

class Event {
 public:
  explicit Event(bool blocking = false, bool disable_timing = false, bool interprocess = false);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(StreamHandle stream);
  void synchronize() const;
  bool query() const;  // true when the recorded work is done
  EventHandle handle() const { return handle_; }
  int device() const { return device_; }

 private:
  EventHandle handle_ = nullptr;
  int device_;
};
float elapsed_time_ms(const Event& start, const Event& end);
void stream_wait_event(StreamHandle stream, const Event& event);

// ---- launch batching (docs/launch-batching.md) ----------------------------------------------------
// Small kernel launches of cuarray's own operations are held and submitted together as one CUDA
// graph: at a synchronization, a copy, an event, a large launch, a launch on another stream, 32 held
// launches, or flush_launches(). The device sees all work in program order; what changes is when.
// NDArray::data() and memory from other libraries mark their buffer shared, and nothing is held
// while a shared buffer lives, so other code that enqueues work on that memory stays in order.
void flush_launches();                  // submits every held launch now
void set_launch_batching(bool enabled); // on by default; CUARRAY_LAUNCH_BATCHING=0 turns it off
bool launch_batching();
int held_launches(int device);          // launches held now on `device`, for tests and diagnostics

// ---- memory ------------------------------------------------------------------------------------
// Device memory that arrays view. Pool blocks return to their pool when the last array dies.
class Buffer {
 public:
  virtual ~Buffer();
  void* ptr() const { return ptr_; }
  size_t size() const { return size_; }
  int device() const { return device_; }
  // Marks the memory as reachable by code outside cuarray, which may enqueue its own work on it:
  // submits held launches and holds none while the buffer lives (see flush_launches()).
  void share();
  bool shared() const { return shared_.load(std::memory_order_relaxed); }

 protected:
  Buffer(void* ptr, size_t size, int device) : ptr_(ptr), size_(size), device_(device) {}
  void* ptr_;
  size_t size_;
  int device_;

 private:
  std::atomic<bool> shared_{false};
};

// Device memory straight from the driver, returned to it when the last owner dies (CuPy's Memory).
std::shared_ptr<Buffer> allocate_raw(size_t nbytes, int device);
// Managed (unified) memory, cuMemAllocManaged: host and device reach it (CuPy's ManagedMemory).
// ErrorKind::CudaRuntime where the device or platform does not support it.
std::shared_ptr<Buffer> allocate_managed(size_t nbytes, int device);
// Memory that another library owns: `owner` is held until the last array viewing it dies (CuPy's
// UnownedMemory). The buffer is marked shared, since its owner may enqueue work on it.
std::shared_ptr<Buffer> wrap_unowned(void* ptr, size_t nbytes, int device, std::shared_ptr<void> owner);

// A source of device memory: `nbytes` on `device` for work on `stream`.
using DeviceAllocator = std::function<std::shared_ptr<Buffer>(size_t nbytes, int device, StreamHandle stream)>;
// Every allocation of cuarray (arrays, library workspaces) comes from here: the allocator set with
// set_thread_device_allocator or set_device_allocator, else the device's default pool. With neither
// set, the cost is two relaxed atomic loads.
std::shared_ptr<Buffer> allocate_device(size_t nbytes, int device, StreamHandle stream);
void set_device_allocator(DeviceAllocator allocator);  // an empty one restores the default pools
// This thread's allocator, ahead of the global one (CuPy's using_allocator); an empty one removes it.
void set_thread_device_allocator(DeviceAllocator allocator);
// The default pools as a DeviceAllocator (to set them for one thread while another is global).
std::shared_ptr<Buffer> allocate_from_default_pool(size_t nbytes, int device, StreamHandle stream);

// Stream-ordered memory from one of the driver's memory pools (cuMemAllocFromPoolAsync; CuPy's
// MemoryAsync and MemoryAsyncPool). `pool` is a CUmemoryPool, null for the device's current pool.
// Work on `stream` queued after the call may use the memory; it goes back to the pool on the stream
// it is freed on (that stream unless free_on_stream says otherwise) when the last owner dies, after
// the launches held before that. On out of memory the stream is synchronized and the device's
// default cuarray pool releases its cache before one more try; then OutOfMemory.
using MemPoolHandle = ::CUmemPoolHandle_st*;  // CUmemoryPool
std::shared_ptr<Buffer> allocate_stream_ordered(size_t nbytes, int device, StreamHandle stream,
                                                MemPoolHandle pool = nullptr);
// The stream a buffer from allocate_stream_ordered is freed on (cudaFreeAsync's stream argument).
void free_on_stream(const std::shared_ptr<Buffer>& buffer, StreamHandle stream);
// A device's memory pools (cuDeviceGetDefaultMemPool, cuDeviceGetMemPool, cuDeviceSetMemPool) and
// the pool calls CuPy's runtime module exposes. ErrorKind::CudaRuntime where the device has no
// memory pools. An attribute is a CUmemPool_attribute; the int-valued ones are widened.
MemPoolHandle default_mem_pool(int device);
MemPoolHandle current_mem_pool(int device);
void set_current_mem_pool(int device, MemPoolHandle pool);
void trim_mem_pool(MemPoolHandle pool, size_t keep_bytes);
uint64_t mem_pool_attribute(MemPoolHandle pool, int attribute);
void set_mem_pool_attribute(MemPoolHandle pool, int attribute, uint64_t value);

// Where a pool gets its blocks: nullptr when the device is out of memory (the pool then releases
// its cache and asks once more).
using BlockSource = std::function<std::shared_ptr<Buffer>(size_t nbytes, int device)>;

// The stream-ordered caching pool of one device (see docs/memory.md).
class MemoryPool {
 public:
  static MemoryPool& of_device(int id);  // the default pool, blocks from cuMemAlloc
  // A pool of its own (cuarray.cuda.MemoryPool(allocator)); an empty source takes cuMemAlloc's.
  static std::shared_ptr<MemoryPool> create(int device, BlockSource source);
  ~MemoryPool();
  std::shared_ptr<Buffer> allocate(size_t nbytes, StreamHandle stream);
  size_t used_bytes() const;
  size_t total_bytes() const;   // used + cached
  size_t free_bytes() const;    // cached
  void free_all_blocks();
  void set_limit(size_t bytes); // 0: no limit
  size_t get_limit() const;
  int n_free_blocks() const;

  struct Impl;
  Impl* impl() const { return impl_.get(); }

 private:
  MemoryPool(int device, BlockSource source);
  std::shared_ptr<Impl> impl_;  // shared with the blocks of a pool that may die before them
};

// Pinned host memory, cached; used to stage pageable host copies.
class PinnedMemoryPool {
 public:
  static PinnedMemoryPool& instance();
  std::shared_ptr<void> allocate(size_t nbytes);
  void free_all_blocks();
  size_t n_free_blocks() const;
  size_t total_bytes() const;

  struct Impl;
 private:
  PinnedMemoryPool();
  std::unique_ptr<Impl> impl_;
};

// Page-locked host memory: the pinned allocator set (cuarray.cuda.set_pinned_memory_allocator),
// else the pinned pool. Staging buffers and pinned results come from here.
using PinnedAllocator = std::function<std::shared_ptr<void>(size_t nbytes)>;
std::shared_ptr<void> allocate_pinned(size_t nbytes);
void set_pinned_allocator(PinnedAllocator allocator);  // an empty one restores the pinned pool
std::shared_ptr<void> allocate_pinned_raw(size_t nbytes); // cuMemHostAlloc, freed when the last owner dies

// Host <-> device copies on `stream`. Pageable host memory of 1 MB or more is staged through the
// pinned pool in pipelined chunks; the call returns when the host buffer may be reused (h2d) or
// holds the data (d2h).
void copy_host_to_device(void* dst, const void* src, size_t nbytes, StreamHandle stream);
void copy_device_to_host(void* dst, const void* src, size_t nbytes, StreamHandle stream);
void copy_device_to_device(void* dst, const void* src, size_t nbytes, StreamHandle stream);  // one device
void memset_device(void* dst, uint8_t value, size_t nbytes, StreamHandle stream);
// A copy between devices on `stream`, a stream of `stream_device` (the destination's, or any
// device's, as CuPy's MemoryPointer copies take the current one): after the source device's current
// stream and before its later work (docs/distributed.md).
void copy_peer(void* dst, int dst_device, const void* src, int src_device, size_t nbytes, StreamHandle stream,
               int stream_device);

}  // namespace cuarray
