import assert from 'node:assert/strict';
import { ipcSenderRefusal, type SenderFrame } from '../../../electron/ipc-sender.ts';
import { test } from '../../helpers/node-test.ts';

const ORIGIN = 'https://hooks.example.com';
const webContents = { id: 1 };
const mainFrame: SenderFrame = { frameTreeNodeId: 7, origin: ORIGIN };
const window = { webContents, mainFrame };

test("the bridge answers only the window's main frame, on the app's current origin", () => {
  assert.equal(ipcSenderRefusal({ sender: webContents, senderFrame: mainFrame }, window, ORIGIN), null);
  // The same frame seen through another WebFrameMain object is still the main frame.
  assert.equal(ipcSenderRefusal({ sender: webContents, senderFrame: { ...mainFrame } }, window, ORIGIN), null);
});

test('another window, a gone frame, an iframe or another origin is refused, each with its reason', () => {
  const refused = (sender: unknown, senderFrame: SenderFrame | null, origin = ORIGIN): string | null =>
    ipcSenderRefusal({ sender, senderFrame }, window, origin);
  assert.equal(refused({ id: 2 }, mainFrame), 'the call does not come from the app window');
  assert.equal(refused(webContents, null), 'the calling frame is gone');
  assert.equal(refused(webContents, { ...mainFrame, detached: true }), 'the calling frame is gone');
  assert.equal(
    refused(webContents, { frameTreeNodeId: 9, origin: ORIGIN }),
    'the call comes from a frame inside the page, not the page itself',
  );
  assert.equal(
    refused(webContents, { ...mainFrame, origin: 'https://evil.example.com' }),
    "the calling page is on https://evil.example.com, not on the app's origin https://hooks.example.com",
  );
  // After a switch back to "This computer", the team server's page (still loaded, or loading) is refused.
  assert.equal(
    refused(webContents, mainFrame, 'http://127.0.0.1:4680'),
    "the calling page is on https://hooks.example.com, not on the app's origin http://127.0.0.1:4680",
  );
});
