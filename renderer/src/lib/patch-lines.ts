/**
 * The hunks of a unified diff, one string a line: its file header (`Index:`,
 * `===`, `---`, `+++`, naming replay ids) is dropped, since the view says which
 * side is which in words, and so is the empty string after the final newline.
 */
export function patchLines(patch: string): string[] {
  const lines = patch.split('\n');
  const first = lines.findIndex((l) => l.startsWith('@@'));
  const hunks = first === -1 ? lines : lines.slice(first);
  return hunks.at(-1) === '' ? hunks.slice(0, -1) : hunks;
}
