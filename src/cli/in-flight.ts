/**
 * Work a command began that its failure need not wait for: `run` starts reading the graph before
 * it checks the topology file (run.ts), and a refused topology should not keep the process until
 * a long read ends. main.ts exits at once after the error line while this is set.
 */
export const inFlight = { load: false };
