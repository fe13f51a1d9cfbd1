// The peer-to-peer path that cross-device copies take (CuPy opens it the same way, on first use).
#pragma once

namespace cuarray::runtime {

// Gives `device` access to `peer`'s memory when the link allows it (NVLink, or PCIe under one
// switch), so that cuMemcpyPeerAsync issued on `device` goes peer to peer instead of staging through
// the host. Checked once per ordered pair and process; access a user enabled already counts as open.
void open_peer_path(int device, int peer);

}  // namespace cuarray::runtime
