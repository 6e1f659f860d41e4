// How the read costs grow with the store (issue 12): the same seeding and the same
// measures as the 100,000-log part (store-costs.ts) at smaller sizes. run.ts adds
// the 100,000-log part's own figures as the last column instead of seeding twice.
import { rm } from 'node:fs/promises';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { measureStoreCosts, type StoreCostOptions, type StoreCosts } from './store-costs.ts';

/** One store per size, each in its own data directory and engine process, removed afterwards. */
export async function benchGrowth(
  sizes: number[],
  o: StoreCostOptions,
  log: (line: string) => void,
): Promise<StoreCosts[]> {
  const points: StoreCosts[] = [];
  for (const logs of sizes) {
    const dataDir = await makeTempDir('hookscope-bench-growth-');
    try {
      const { costs, child } = await measureStoreCosts(dataDir, logs, o, log, { metricsRepo: false });
      await child.kill(); // nothing to keep: a clean stop would only write a snapshot nobody reads
      points.push(costs);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  return points;
}
