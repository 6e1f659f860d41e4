import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appRoot } from './app-root.ts';

export interface VersionInfo {
  name: string;
  version: string;
  node: string;
}

/** Read once from package.json, so there is a single place the version is written. */
export function readVersion(): VersionInfo {
  const pkg = JSON.parse(readFileSync(join(appRoot(import.meta.url), 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return { name: pkg.name, version: pkg.version, node: process.version };
}
