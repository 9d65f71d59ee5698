import envPaths from 'env-paths';

/**
 * tessera's cache folder: $TESSERA_CACHE_DIR, else the platform's user cache folder from env-paths
 * ($XDG_CACHE_HOME/tessera or ~/.cache/tessera on Linux, ~/Library/Caches/tessera on macOS).
 */
export function cacheDir(): string {
  return process.env.TESSERA_CACHE_DIR ?? envPaths('tessera', { suffix: '' }).cache;
}
