import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { GENERATED_FILE, generateApiTypes } from '../../../scripts/gen-api.ts';
import { describe, test } from '../../helpers/node-test.ts';

describe('server/api-client/api-paths.generated.ts', () => {
  test('matches what the engine serves today (else: run npm run gen:api)', async () => {
    const [committed, fresh] = await Promise.all([readFile(GENERATED_FILE, 'utf8'), generateApiTypes()]);
    assert.ok(
      committed === fresh,
      'server/api-client/api-paths.generated.ts is stale: the OpenAPI document changed; run npm run gen:api',
    );
  });
});
