// A word in pinned host memory that kernels write directly (mapped into every device's address
// space): a kernel reports a rare event there (an index out of range) and the host reads it once
// the stream has finished. Against a word in device memory it saves the memset before the launch
// and the copy after it, so a checked call costs one stream synchronization and nothing else.
#pragma once

namespace cuarray::runtime {

// The calling thread's word (usable on any device), cleared on construction; `device`'s context
// becomes current.
// The call that passes device_word() to a kernel reads raised() before it returns and before it
// makes another HostFlag, so no two launches in flight share a word.
class HostFlag {
 public:
  explicit HostFlag(int device);
  unsigned* device_word() const { return word_; }
  bool raised() const;  // waits for the current stream, then reads the word

 private:
  int device_;
  unsigned* word_;
};

}  // namespace cuarray::runtime
