/** A listener could not bind; the message is one line a user can act on. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}
