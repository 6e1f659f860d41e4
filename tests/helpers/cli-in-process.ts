import { main } from '../../server/cli/main.ts';

export interface InProcessResult {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs `hookscope <args> --data-dir <dataDir>` in this process through main():
 * the real API client, the token minted from the data directory and the real exit
 * codes, without the cost of a spawn. Not a terminal, no colour.
 */
export async function runCliInProcess(dataDir: string, args: string[]): Promise<InProcessResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--data-dir', dataDir], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { NO_COLOR: '1' },
    isTTY: false,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
