// `node --import ./tests/helpers/import-trace.mjs ...`: registers the tracing hooks.
import { register } from 'node:module';

register('./import-trace-hooks.mjs', import.meta.url);
