import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Repository root (tests run from dist/test/..., so climb out of dist). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Reference data beside the checkout (../shared/datasets), as CI lays it out. */
export const DATASETS = path.resolve(REPO_ROOT, '../shared/datasets');
export const GRAPHALYTICS = path.join(DATASETS, 'graphalytics');
export const SNAP = path.join(DATASETS, 'snap');
