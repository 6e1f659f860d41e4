/** The 409 sentence for a secret the sending service issues: Hookscope cannot make a new one. */
export const issuedBy = (where: string): string =>
  `${where} issues this secret, so Hookscope cannot make a new one; roll it there, then set the new secret on this endpoint (its URL stays the same).`;

/** For schemes that key their HMAC with the secret's bytes as they are: any non-empty text will do. */
export const anySecret = (): null => null;
