// Worker threads do not inherit tsx's loader from the main thread, so when the
// engine runs from TypeScript source the worker registers it before loading its entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
