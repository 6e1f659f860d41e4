#!/usr/bin/env node
// Entry point of the `hookscope` command. The engine runs from its TypeScript
// source through tsx's loader, so a fresh clone needs only `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
