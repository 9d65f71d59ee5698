/** Worker thread of warmTwoSideCounts (two-side.ts): one chunk of the boundary-count pass. */
import { runTwoSideTask } from './two-side.js';

export default runTwoSideTask;
