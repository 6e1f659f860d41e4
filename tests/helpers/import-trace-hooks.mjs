// Module hooks that print every module a process loads (one URL per line, to the
// file named by IMPORT_TRACE_FILE), so a test can check what a command pulls in.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  if (process.env.IMPORT_TRACE_FILE) appendFileSync(process.env.IMPORT_TRACE_FILE, `${url}\n`);
  return next(url, context);
}
