// A chapter's headline results, for the GPUs page: each ladder's last rung beside the library
// peers measured on the same problem, as the front page's table picks them (book/render/front.py),
// then every other peer at its largest size. A rung is <src>/[<ladder>_]v<N>_<name>@<args>, a peer
// <src>/peer_<what>@<args>; the last rung is the highest N, at the largest size (the product of the
// arguments, a 0 read as 1) where a peer was timed for the same arguments, of two rungs of one size
// the one with fewer arguments equal to 1 (the unmasked attention, not the causal one); a ladder
// with no such peer shows its last rung at its largest size, alone. A record with no ladder (1.1,
// 2.1) shows beside each peer its other results timed on the peer's problem (the same arguments).
#pragma once
#include <string>
#include <vector>

#include "measurements.h"

namespace weave {

// The keys: each ladder's last rung then its peers, ladders in the order of their <src>/<ladder>
// names; then the other peers, each at its largest size, in name order. Timed results only.
std::vector<std::string> last_rungs_and_peers(const Record& record);

}  // namespace weave
