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

// pprApply (kernels.ts): x takes xn, the next contributions, and the sinks' rank into the step's sum.
// A vertex pass, so that GPUs owning every vertex keep the iterations' arrays on the device.
struct pprApply {
  static TS_OP bool vertex(const Env<pprApply>& e, u32 v) {
    const double r = e.xn[v];
    e.x[v] = r;
    const double w = e.outW[v];
    if (w > 0) {
      e.contrib[v] = r / w;
    } else {
      e.contrib[v] = 0.0;
      e.addSum(r);
    }
    return false;
  }
};

// pprInit (kernels.ts): a pull over the out-lists, each vertex's out-weight (its out-degree
// unweighted), x = x0, the contributions, the sinks' rank into the step's sum.
struct pprInit {
  static TS_OP double identity() { return 0.0; }
  static TS_OP double gather(const Env<pprInit>& e, u32, u32, double w) { return e.weighted ? w : 1.0; }
  static TS_OP double combine(double a, double b) { return a + b; }
  static TS_OP bool apply(const Env<pprInit>& e, u32 v, double t) {
    e.outW[v] = t;
    e.x[v] = e.x0;
    if (t > 0) {
      e.contrib[v] = e.x0 / t;
    } else {
      e.contrib[v] = 0.0;
      e.addSum(e.x0);
    }
    return false;
  }
};
