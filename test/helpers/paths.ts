import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Repository root (tests run from dist/test/..., so climb out of dist). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/**
 * Reference data the tests read, kept in the repository (test/data: the LDBC Graphalytics test
 * graphs with their expected outputs, and three SNAP graphs; provenance in each README), so a
 * clean clone tests anywhere.
 */
export const DATASETS = path.join(REPO_ROOT, 'test', 'data');
export const GRAPHALYTICS = path.join(DATASETS, 'graphalytics');
export const SNAP = path.join(DATASETS, 'snap');
