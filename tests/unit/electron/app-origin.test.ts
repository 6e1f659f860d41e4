import assert from 'node:assert/strict';
import { appOrigin, deliveryPage, signInPage } from '../../../electron/app-origin.ts';
import { describe, test } from '../../helpers/node-test.ts';

const API = 'http://127.0.0.1:4680';

describe("the window's origin and pages", () => {
  test("the engine's API origin, which serves the built renderer", () => {
    assert.equal(appOrigin({ apiUrl: API, packaged: true }), API);
    assert.equal(appOrigin({ apiUrl: `${API}/`, packaged: false }), API);
  });

  test("npm run dev's renderer URL counts only unpackaged and on loopback http", () => {
    const dev = 'http://localhost:5173/';
    assert.equal(appOrigin({ apiUrl: API, devRendererUrl: dev, packaged: false }), 'http://localhost:5173');
    assert.equal(appOrigin({ apiUrl: API, devRendererUrl: dev, packaged: true }), API);
    assert.equal(appOrigin({ apiUrl: API, devRendererUrl: 'https://evil.example/', packaged: false }), API);
    assert.equal(appOrigin({ apiUrl: API, devRendererUrl: 'http://192.168.1.9:5173/', packaged: false }), API);
  });

  test("the sign-in link's code, at the app's origin; a delivery's deep link", () => {
    const link = `${API}/#/sign-in/AbC-123_x`;
    assert.equal(signInPage(link, API), link);
    assert.equal(signInPage(link, 'http://localhost:5173'), 'http://localhost:5173/#/sign-in/AbC-123_x');
    assert.equal(deliveryPage(API, 'log_01HZ'), `${API}/#/logs/log_01HZ`);
    assert.equal(deliveryPage(API, 'a/b'), `${API}/#/logs/a%2Fb`);
  });
});
