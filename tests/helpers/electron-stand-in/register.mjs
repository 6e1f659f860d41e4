// `node --import ./register.mjs dist/electron/main.js` runs the desktop app's
// main process under plain Node, with the `electron` import answered by
// electron.mjs (a stand-in that records what the main process does and calls the
// handlers it sets, as Electron would) instead of
// the electron package, whose binary cannot be downloaded here.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      const standIn = ${JSON.stringify(new URL('./electron.mjs', import.meta.url).href)};
      export async function resolve(specifier, context, next) {
        if (specifier === 'electron') return { url: standIn, shortCircuit: true };
        return next(specifier, context);
      }
    `),
);
