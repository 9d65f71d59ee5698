// SCC's GPU operators (the CPU kernels they mirror: kernels.ts). sccForward lowers colors along
// out-edges among the unassigned (push: atomicMin; pull: the smallest color of the active
// in-neighbours); sccBackward (pull over out-lists) claims an unassigned vertex with an
// out-neighbour claimed last step in its color.
struct sccForward {
  static TS_OP bool push(const Env<sccForward>& e, u32 u, u32 v, double) {
    if (e.scc[u] != -1 || e.scc[v] != -1) return false;
    const int c = e.color[u];
    return c < e.color[v] && c < atomicMin(&e.color[v], c);
  }
  static TS_OP bool want(const Env<sccForward>& e, u32 v) { return e.scc[v] == -1; }
  static TS_OP double identity() { return 2147483647.0; }
  static TS_OP double gather(const Env<sccForward>& e, u32, u32 u, double) {
    return e.active(u) && e.scc[u] == -1 ? (double)e.color[u] : 2147483647.0;
  }
  static TS_OP double combine(double a, double b) { return a < b ? a : b; }
  static TS_OP bool apply(const Env<sccForward>& e, u32 v, double r) {
    if (!(r < (double)e.color[v])) return false;
    e.color[v] = (int)r;
    return true;
  }
};

struct sccBackward {
  static TS_OP bool want(const Env<sccBackward>& e, u32 v) { return e.scc[v] == -1; }
  static TS_OP double identity() { return 0.0; }
  static TS_OP double gather(const Env<sccBackward>& e, u32 v, u32 w, double) { return e.active(w) && e.color[w] == e.color[v] ? 1.0 : 0.0; }
  static TS_OP double combine(double a, double b) { return a > b ? a : b; }
  static TS_OP bool done(double r) { return r != 0.0; }
  static TS_OP bool apply(const Env<sccBackward>& e, u32 v, double r) {
    if (r == 0.0) return false;
    e.scc[v] = e.color[v];
    return true;
  }
};
