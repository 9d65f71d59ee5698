// MIS's GPU operator (the CPU kernel it mirrors: misRound's pull in kernels.ts). Over the
// undirected view, each undecided vertex (in the frontier) gathers the worst verdict among its
// neighbours: 2, a neighbour decided in the set in an earlier round (not in the frontier); 1, an
// undecided neighbour of higher priority; 0, neither. 2 takes it out, 0 puts it in, 1 keeps it
// undecided for the next round.
struct misRound {
  static TS_OP bool want(const Env<misRound>& e, u32 v) { return e.active(v); }
  static TS_OP double identity() { return 0.0; }
  static TS_OP double gather(const Env<misRound>& e, u32 v, u32 u, double) {
    if (!e.active(u)) return e.mis[u] == 1 ? 2.0 : 0.0;
    return e.prio[u] > e.prio[v] ? 1.0 : 0.0;
  }
  static TS_OP double combine(double a, double b) { return a > b ? a : b; }
  static TS_OP bool done(double r) { return r == 2.0; }
  static TS_OP bool apply(const Env<misRound>& e, u32 v, double r) {
    if (r == 1.0) return true;
    e.mis[v] = r == 0.0 ? 1 : 0;
    if (r == 0.0) e.addSum(1.0);
    return false;
  }
};
