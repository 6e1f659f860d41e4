import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError, type SecretInput } from './cli-output.ts';

/** The prompt and refusals, worded for the value being read (a signing secret, a sign-in code). */
export interface SecretWording {
  prompt: string;
  missing: string;
  severalLines: string;
  tooLong: string;
  notEntered: string;
}

export const SIGNING_SECRET_WORDING: SecretWording = {
  prompt: 'Paste or type the signing secret, then press Enter (it is not shown):',
  missing: 'No secret was given: type or pipe it in, or pass --secret.',
  severalLines: 'The secret on standard input spans several lines; a signing secret is one line.',
  tooLong: 'a signing secret is far shorter.',
  notEntered: 'No secret was entered.',
};

/** Far above any signing secret (the API takes 1000 characters); stops `cat big-file |` early. */
const MAX_PIPED_BYTES = 16 * 1024;

/**
 * Reads a secret from standard input, so it appears in no argv, process list or
 * shell history. From a terminal: one line, not echoed (prompted on stderr).
 * From a pipe or file: everything up to EOF, without the trailing line break
 * `echo` or a file adds; a secret is one line, so more than one is refused.
 */
export async function readSecret(
  input: SecretInput,
  prompt: (line: string) => void,
  wording: SecretWording = SIGNING_SECRET_WORDING,
): Promise<string> {
  const text = input.isTTY ? await readHidden(input, prompt, wording) : await readPiped(input, wording);
  const secret = text.replace(/[\r\n]+$/, '');
  if (secret === '') throw new UsageError(wording.missing);
  if (/[\r\n]/.test(secret)) throw new UsageError(wording.severalLines);
  return secret;
}

async function readPiped(input: SecretInput, wording: SecretWording): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > MAX_PIPED_BYTES) {
      throw new UsageError(`More than ${MAX_PIPED_BYTES} bytes on standard input; ${wording.tooLong}`);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * readline in terminal mode puts the terminal in raw mode and echoes through its
 * output; an output that drops everything leaves nothing of the secret on screen.
 */
function readHidden(input: SecretInput, prompt: (line: string) => void, wording: SecretWording): Promise<string> {
  prompt(wording.prompt);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input, output: silent, terminal: true });
  return new Promise((resolve, reject) => {
    rl.once('line', (line) => {
      resolve(line);
      rl.close();
    });
    // Ctrl+C (readline closes when no SIGINT listener) or Ctrl+D; after a line this changes nothing.
    rl.once('close', () => reject(new UsageError(wording.notEntered)));
  });
}
