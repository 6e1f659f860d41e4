/**
 * Where the engine can be reached. The listeners fill these in once bound
 * (ports may be 0), and the tunnel sets `publicBase` while it is online.
 */
export class BaseUrls {
  api = '';
  receiver = '';
  publicBase: string | null = null;
}
