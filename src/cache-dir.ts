import os from 'node:os';
import path from 'node:path';

/** tessera's cache folder: $TESSERA_CACHE_DIR, else $XDG_CACHE_HOME/tessera, else ~/.cache/tessera. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TESSERA_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'tessera');
}
