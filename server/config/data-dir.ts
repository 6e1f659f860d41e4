import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface DataDirInput {
  flag?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/** `--data-dir` > `HOOKSCOPE_DATA_DIR` > the OS's per-user data folder. */
export function resolveDataDir(input: DataDirInput = {}): string {
  const env = input.env ?? process.env;
  if (input.flag) return resolve(input.flag);
  if (env.HOOKSCOPE_DATA_DIR) return resolve(env.HOOKSCOPE_DATA_DIR);
  const home = input.home ?? homedir();
  switch (input.platform ?? process.platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Hookscope');
    case 'win32':
      return env.APPDATA ? join(env.APPDATA, 'Hookscope') : join(home, 'AppData', 'Roaming', 'Hookscope');
    default:
      return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'hookscope');
  }
}
