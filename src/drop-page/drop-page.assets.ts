import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../common/project-root';

export interface DropPageAsset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** Path of every asset the page loads from `/d/assets/`, by name: our own files and tus-js-client's browser build. */
const SOURCES: Record<string, [string, string]> = {
  'drop-page.js': ['src/drop-page/public/drop-page.js', 'text/javascript; charset=utf-8'],
  'drop-page.css': ['src/drop-page/public/drop-page.css', 'text/css; charset=utf-8'],
  'tus.min.js': ['node_modules/tus-js-client/dist/tus.min.js', 'text/javascript; charset=utf-8'],
};

/** The page's static files, read once at boot (they are small) and served with an ETag. */
export function loadDropPageAssets(): Map<string, DropPageAsset> {
  const root = projectRoot();
  const assets = new Map<string, DropPageAsset>();
  for (const [name, [path, contentType]] of Object.entries(SOURCES)) {
    const body = readFileSync(join(root, path));
    assets.set(name, { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
  }
  return assets;
}

/** `/d/assets/<name>?v=<etag>`: the version in the URL lets a new deployment bypass caches. */
export function assetUrl(assets: Map<string, DropPageAsset>, name: string): string {
  const asset = assets.get(name);
  if (!asset) throw new Error(`No drop page asset ${name}`);
  return `/d/assets/${name}?v=${asset.etag.slice(1, 9)}`;
}
