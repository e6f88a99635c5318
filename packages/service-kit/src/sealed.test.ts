import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { keyId, makeKeyring } from './keyring.js';
import { loadSecretsKeys, reseal, seal, secretsKeyFields, unseal } from './sealed.js';
import { sealWithoutKeyId } from './testing/sealed.js';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const rotating = makeKeyring(newKey, [oldKey]);

describe('seal', () => {
  it('records the id of the current key after a version byte', () => {
    const sealed = seal({ token: 't' }, 'row:1', rotating);
    expect(sealed[0]).toBe(1);
    expect(sealed.subarray(1, 5)).toEqual(keyId(newKey));
    expect(unseal(sealed, 'row:1', newKey)).toEqual({ token: 't' });
  });

  it('opens a value of the layout without key id with any configured key', () => {
    expect(unseal(sealWithoutKeyId('s3cret', 'row:1', oldKey), 'row:1', rotating)).toBe('s3cret');
    expect(unseal(sealWithoutKeyId('s3cret', 'row:1', newKey), 'row:1', rotating)).toBe('s3cret');
    // One in 256 starts like a version byte: it opens all the same.
    let lookalike: Buffer;
    do lookalike = sealWithoutKeyId('s3cret', 'row:1', oldKey);
    while (lookalike[0] !== 1);
    expect(unseal(lookalike, 'row:1', rotating)).toBe('s3cret');
  });

  it('opens what a previous key sealed while that key is configured, and names the key once it is not', () => {
    const sealed = seal('s3cret', 'row:1', oldKey);
    expect(unseal(sealed, 'row:1', rotating)).toBe('s3cret');
    expect(() => unseal(sealed, 'row:1', newKey)).toThrow(
      `sealed with key ${keyId(oldKey).toString('hex')}, which is neither QUIRE_SECRETS_KEY nor one of QUIRE_SECRETS_KEY_PREVIOUS`,
    );
  });

  it('does not open what another deployment sealed, in either layout', () => {
    const theirs = randomBytes(32);
    expect(() => unseal(seal('s3cret', 'row:1', theirs), 'row:1', rotating)).toThrow(/sealed with key [0-9a-f]{8}, which is neither/);
    // Not one of the 1 in 256 that start like a version byte: those are read as the versioned layout
    // first, and so name the key id their first bytes happen to give.
    let legacy: Buffer;
    do legacy = sealWithoutKeyId('s3cret', 'row:1', theirs);
    while (legacy[0] === 1);
    expect(() => unseal(legacy, 'row:1', rotating)).toThrow('sealed with another key or for another context, or altered');
  });

  it('refuses a tampered key id, another context, altered bytes and a value stripped of its header', () => {
    const sealed = seal('s3cret', 'row:1', rotating);
    const otherId = Buffer.from(sealed);
    keyId(oldKey).copy(otherId, 1);
    expect(() => unseal(otherId, 'row:1', rotating)).toThrow(/does not open/);
    const unknownId = Buffer.from(sealed);
    unknownId[1]! ^= 0xff;
    expect(() => unseal(unknownId, 'row:1', rotating)).toThrow(/does not open/);
    expect(() => unseal(sealed, 'row:2', rotating)).toThrow(/does not open/);
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(() => unseal(altered, 'row:1', rotating)).toThrow(/does not open/);
    // Without its header, the rest is a value of the former layout: the header is in the additional data, so it does not open.
    expect(() => unseal(sealed.subarray(5), 'row:1', rotating)).toThrow(/does not open/);
  });
});

describe('reseal', () => {
  it('seals again with the current key what older keys or the former layout sealed, and leaves current values alone', () => {
    for (const before of [seal({ a: 1 }, 'row:1', oldKey), sealWithoutKeyId({ a: 1 }, 'row:1', oldKey), sealWithoutKeyId({ a: 1 }, 'row:1', newKey)]) {
      const after = reseal(before, 'row:1', rotating)!;
      expect(after.subarray(0, 5)).toEqual(Buffer.concat([Buffer.of(1), keyId(newKey)]));
      expect(unseal(after, 'row:1', newKey)).toEqual({ a: 1 });
      expect(reseal(after, 'row:1', rotating)).toBeUndefined();
    }
    expect(() => reseal(seal({ a: 1 }, 'row:1', oldKey), 'row:2', rotating)).toThrow(/does not open/);
  });
});

describe('loadSecretsKeys', () => {
  const schema = Type.Object(secretsKeyFields);
  const b64 = (k: Buffer) => k.toString('base64');

  it('reads the current key and the previous ones', () => {
    const third = randomBytes(32);
    const config = loadConfig(schema, { QUIRE_SECRETS_KEY: b64(newKey), QUIRE_SECRETS_KEY_PREVIOUS: `${b64(oldKey)},${b64(third)}` });
    const ring = loadSecretsKeys(config, () => expect.unreachable(), '');
    expect(ring.current.key).toEqual(newKey);
    expect(ring.keys.map((k) => k.key)).toEqual([newKey, oldKey, third]);
  });

  it('refuses a malformed list, and warns when the current key is unset', () => {
    expect(() => loadConfig(schema, { QUIRE_SECRETS_KEY_PREVIOUS: `${b64(oldKey)};${b64(newKey)}` })).toThrow(ConfigError);
    const warnings: string[] = [];
    const ring = loadSecretsKeys(loadConfig(schema, { QUIRE_SECRETS_KEY_PREVIOUS: b64(oldKey) }), (m) => warnings.push(m), 'lost at restart');
    expect(warnings).toEqual(['QUIRE_SECRETS_KEY is not set: lost at restart']);
    expect(unseal(seal('x', 'c', oldKey), 'c', ring)).toBe('x');
  });
});
