export const nop = { vertex(ctx, lo, hi) { } };
