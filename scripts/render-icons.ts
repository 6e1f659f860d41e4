// Renders build/icon.svg into the PNG icons the app and its installers use, with
// Debian's Chromium (CHROMIUM_PATH, else /usr/bin/chromium) through playwright-core:
//   node --import tsx scripts/render-icons.ts
// build/icons/<N>x<N>.png: electron-builder's icon set (Linux takes the folder;
// macOS and Windows convert the largest); electron/icons: what the running app
// shows (window icon, tray icon at 1x and 2x). The PNGs are committed; rerun this
// after changing the SVG.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = new URL('..', import.meta.url).pathname;
const svg = await readFile(join(root, 'build/icon.svg'), 'utf8');
const targets: [string, number][] = [
  ...[16, 32, 48, 64, 128, 256, 512].map((n): [string, number] => [`build/icons/${n}x${n}.png`, n]),
  ['electron/icons/icon.png', 256],
  ['electron/icons/tray.png', 22],
  ['electron/icons/tray@2x.png', 44],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  for (const [file, size] of targets) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const html = `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`;
    await page.setContent(html);
    await mkdir(join(root, file, '..'), { recursive: true });
    await page.screenshot({ path: join(root, file), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
console.error(`rendered ${targets.length} icons`);
