// k-core's GPU operator (the CPU kernel it mirrors: kcorePeel's pull in kernels.ts). Each
// unpeeled vertex counts its neighbours in the frontier (the vertices given core c last round),
// over N_in(v) ∪ N_out(v) (view 'undirected': each neighbour once), lowers its own degree by
// that many, and is peeled at c when the degree drops to c or below.
struct kcorePeel {
  static TS_OP bool want(const Env<kcorePeel>& e, u32 v) { return e.core[v] == -1; }
  static TS_OP double identity() { return 0.0; }
  static TS_OP double gather(const Env<kcorePeel>& e, u32, u32 u, double) { return e.active(u) ? 1.0 : 0.0; }
  static TS_OP double combine(double a, double b) { return a + b; }
  static TS_OP bool apply(const Env<kcorePeel>& e, u32 v, double r) {
    if (r == 0.0) return false;
    const int d = e.deg[v] -= (int)r;
    if (d > e.c) return false;
    e.core[v] = e.c;
    return true;
  }
};
