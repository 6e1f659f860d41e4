/** The code of a sign-in link's fragment (`#/sign-in/<code>`), if the page was opened through one. */
export function signInCode(hash: string): string | null {
  const m = /^#\/sign-in\/([A-Za-z0-9_-]{1,200})$/.exec(hash);
  return m ? m[1]! : null;
}
