/**
 * The statement catalogue of the journal's frames. A delivery's record is a handful
 * of statements whose SQL text (about 1.5 KB in all) is the same every time; written
 * out in every frame it was half of each frame's bytes and of the work to encode,
 * checksum, write and parse them. So a statement gets a number the first time it is
 * journaled, and frames name it by that number.
 *
 * Numbers are this process's and count up from 1. Readers learn them from
 * definition frames: the journal writes the definitions a segment lacks in front
 * of each group of frames it writes (so a segment, read on its own at recovery,
 * defines every number before it is used, and a failed write that is cut back
 * takes its definitions with it), and the store sends the worker the ones it has
 * not sent yet ahead of the frames it posts.
 */
export class StatementCatalogue {
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];

  /**
   * @param maxStatements Statements past this many stay inline, so SQL built with a
   * varying text (an IN list of any length) cannot grow the catalogue without bound.
   */
  constructor(private readonly maxStatements = 512) {}

  /** The statement's number, numbering it if it is new; null once the catalogue is full. */
  idOf(sql: string): number | null {
    const known = this.ids.get(sql);
    if (known !== undefined) return known;
    if (this.texts.length >= this.maxStatements) return null;
    this.texts.push(sql);
    this.ids.set(sql, this.texts.length);
    return this.texts.length;
  }

  /** How many statements have numbers (the highest number). */
  get size(): number {
    return this.texts.length;
  }

  /** The definitions numbered after `n`, in order. */
  definitionsAfter(n: number): [id: number, sql: string][] {
    return this.texts.slice(n).map((sql, i) => [n + i + 1, sql]);
  }
}
