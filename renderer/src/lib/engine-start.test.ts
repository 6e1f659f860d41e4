import { describe, expect, test } from 'vitest';
import { inDesktopApp, serveCommand } from './engine-start.ts';

describe('how to start the engine again', () => {
  test("the desktop app is told by Electron's user agent; a browser's is not it", () => {
    expect(
      inDesktopApp(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) hookscope/0.1.0 Chrome/140.0.0.0 Electron/42.0.1 Safari/537.36',
      ),
    ).toBe(true);
    expect(
      inDesktopApp(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
      ),
    ).toBe(false);
  });

  test('the command brings the engine back on the port this page came from; another host is not ours to start', () => {
    expect(serveCommand({ hostname: '127.0.0.1', port: '4680' })).toBe('npx hookscope serve');
    expect(serveCommand({ hostname: '127.0.0.1', port: '43117' })).toBe('npx hookscope serve --api-port 43117');
    expect(serveCommand({ hostname: 'localhost', port: '' })).toBe('npx hookscope serve --api-port 80');
    expect(serveCommand({ hostname: '[::1]', port: '5000' })).toBe('npx hookscope serve --api-port 5000');
    expect(serveCommand({ hostname: 'hooks.example.com', port: '' })).toBe(null);
  });
});
