import { readFileSync } from 'node:fs';

export interface VersionInfo {
  name: string;
  version: string;
  node: string;
}

/** Read once from package.json, so there is a single place the version is written. */
export function readVersion(): VersionInfo {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
  };
  return { name: pkg.name, version: pkg.version, node: process.version };
}
