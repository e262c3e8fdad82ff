import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** Where each run writes its screenshots and diff images (git-ignored). */
export const SCREENSHOT_OUT = join(__dirname, '..', '..', 'tmp', 'screenshots');

/**
 * Compares a screenshot with its committed reference, pixel by pixel (pixelmatch): the test fails
 * when the sizes differ or more than `maxDiffRatio` of the pixels differ by more than `threshold`
 * (pixelmatch's per-pixel colour distance, 0–1; anti-aliasing is ignored). The diff image is
 * written next to the run's screenshots (tmp/screenshots/<name>-diff.png) to show what moved.
 *
 * Re-baselining after a deliberate redesign: `UPDATE_SCREENSHOTS=1 npx jest test/e2e/drop-page/drop-page`
 * overwrites the references with this run's screenshots; look at them, then commit them.
 */
export function expectMatchesReference(image: Buffer, referencePath: string, options: { maxDiffRatio?: number; threshold?: number } = {}): void {
  const { maxDiffRatio = 0.005, threshold = 0.1 } = options;
  if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(referencePath)) {
    writeFileSync(referencePath, image);
    if (process.env.UPDATE_SCREENSHOTS !== '1') throw new Error(`no reference ${referencePath}: written from this run, check it and commit it`);
    return;
  }
  const now = PNG.sync.read(image);
  const then = PNG.sync.read(readFileSync(referencePath));
  const hint = `(a deliberate change? re-baseline with UPDATE_SCREENSHOTS=1, see test/support/screenshot-diff.ts)`;
  if (now.width !== then.width || now.height !== then.height) {
    throw new Error(`${basename(referencePath)}: ${now.width}×${now.height} now, ${then.width}×${then.height} in the reference ${hint}`);
  }
  const diff = new PNG({ width: now.width, height: now.height });
  const differing = pixelmatch(now.data, then.data, diff.data, now.width, now.height, { threshold });
  mkdirSync(SCREENSHOT_OUT, { recursive: true });
  writeFileSync(join(SCREENSHOT_OUT, basename(referencePath).replace(/\.png$/, '-diff.png')), PNG.sync.write(diff));
  const ratio = differing / (now.width * now.height);
  if (ratio > maxDiffRatio) {
    throw new Error(
      `${basename(referencePath)}: ${differing} pixels (${(ratio * 100).toFixed(2)} %) differ from the reference, more than ${(maxDiffRatio * 100).toFixed(2)} % ${hint}`,
    );
  }
}
