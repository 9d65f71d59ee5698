// Personalized PageRank's GPU operator (the CPU kernel it mirrors: pprGather in kernels.ts): each
// owned vertex sums its in-neighbours' contributions (times the edge weight when weighted), writes
// xn = d (sum + s p) + (1 - d) p, and adds |xn - x| to the step's sum.
struct pprGather {
  static TS_OP double identity() { return 0.0; }
  static TS_OP double gather(const Env<pprGather>& e, u32, u32 u, double w) { return e.weighted ? e.contrib[u] * w : e.contrib[u]; }
  static TS_OP double combine(double a, double b) { return a + b; }
  static TS_OP bool apply(const Env<pprGather>& e, u32 v, double t) {
    const double r = e.alpha * (t + e.dangling * e.p[v]) + (1.0 - e.alpha) * e.p[v];
    e.xn[v] = r;
    e.addSum(fabs(r - e.x[v]));
    return false;
  }
};
