import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { resolveConfig } from '../../../server/config/config.ts';
import { describeDatabaseUrl } from '../../../server/config/database-config.ts';

const RULE =
  'must be a postgres:// or postgresql:// URL naming a host and a database, such as postgres://hookscope@db.internal/hookscope.';

describe('team server settings: the database', () => {
  test('default: no database (the embedded store)', () => {
    assert.equal(resolveConfig({ dataDir: '/d' }).databaseUrl, null);
  });

  test('--database > HOOKSCOPE_DATABASE_URL > config.json database.url', () => {
    const file = { database: { url: 'postgres://file@db/hookscope' } };
    const env = { HOOKSCOPE_DATABASE_URL: 'postgresql://env:pw@10.0.0.7:6432/hooks' };
    assert.equal(resolveConfig({ dataDir: '/d', file }).databaseUrl, 'postgres://file@db/hookscope');
    assert.equal(resolveConfig({ dataDir: '/d', file, env }).databaseUrl, 'postgresql://env:pw@10.0.0.7:6432/hooks');
    const flags = { database: 'postgres://flag@127.0.0.1/x?sslmode=require' };
    assert.equal(resolveConfig({ dataDir: '/d', file, env, flags }).databaseUrl, flags.database);
  });

  test('a URL that is not PostgreSQL, or names no host or database, stops start-up without echoing it', () => {
    for (const bad of [
      'mysql://u:secret@db/hookscope',
      'postgres://u:secret@db',
      'postgres://u:secret@db/',
      'postgres:///hookscope',
      'db.internal/hookscope',
      '',
    ]) {
      assert.throws(
        () => resolveConfig({ dataDir: '/d', flags: { database: bad } }),
        { name: 'ConfigError', message: `--database ${RULE}` },
        bad,
      );
      if (bad === '') continue; // an empty variable is unset
      assert.throws(
        () => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_DATABASE_URL: bad } }),
        { name: 'ConfigError', message: `HOOKSCOPE_DATABASE_URL: ${RULE}` },
        bad,
      );
      assert.throws(
        () => resolveConfig({ dataDir: '/d', file: { database: { url: bad } } }),
        { name: 'ConfigError', message: `config.json: database.url: ${RULE}` },
        bad,
      );
    }
  });

  test('the database and the tunnel, from any source, are refused together', () => {
    const sentence = {
      name: 'ConfigError',
      message: /^--database and --tunnel cannot be used together: .* Drop --tunnel/,
    };
    assert.throws(
      () => resolveConfig({ dataDir: '/d', flags: { database: 'postgres://h/db', tunnel: true } }),
      sentence,
    );
    assert.throws(
      () =>
        resolveConfig({
          dataDir: '/d',
          env: { HOOKSCOPE_DATABASE_URL: 'postgres://h/db' },
          file: { tunnel: { enabled: true } },
        }),
      sentence,
    );
    assert.equal(
      resolveConfig({ dataDir: '/d', flags: { database: 'postgres://h/db', tunnel: false } }).tunnel.enabled,
      false,
    );
  });

  test('the URL as shown: the password hidden, the rest kept', () => {
    assert.equal(
      describeDatabaseUrl('postgres://alice:s3cret@db.internal:6432/hooks'),
      'postgres://alice:***@db.internal:6432/hooks',
    );
    assert.equal(describeDatabaseUrl('postgres://alice@db/hooks'), 'postgres://alice@db/hooks');
  });
});
