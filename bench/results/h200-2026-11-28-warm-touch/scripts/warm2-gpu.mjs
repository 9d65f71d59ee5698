// warm2.mjs's GPU side: touch ensures the device array, holds it (one GPU owning every vertex) or reads its owned ranges back.
import path from 'node:path';
const root = process.env.ROOT ?? process.cwd();
const { holds } = await import(path.join(root, 'dist/actors/gpu/held.js'));
const { keep } = await import(path.join(root, 'dist/actors/gpu/residency.js'));
export const touch = {
  modes: ['push', 'pull'],
  transient: true,
  async run(a, s) {
    if (s.state.mark === undefined) return a.out({});
    await a.ensure('mark', 'u8');
    const hold = holds(a, s, 'mark');
    keep(a, s, 'mark', 'owner');
    if (hold) return a.out({});
    return a.out({ sync: await a.syncOwned('mark', 'mark', s) });
  },
};
