import { describe, expect, it } from 'vitest';
import { checkClaim, claimsOf, schemaWith, type Claim } from './adaptive.ts';

describe('adaptive schema', () => {
  const claims: Claim[] = [
    { name: 'isPro', unsigned: false, description: 'Paying customer' },
    { name: 'beta', unsigned: true, description: 'Tries new features' },
  ];
  it('writes claims as the draft-07 shape sites accept, and reads them back', () => {
    const schema = schemaWith(claims);
    expect(schema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        isPro: { type: 'boolean', description: 'Paying customer' },
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { beta: { type: 'boolean', description: 'Tries new features' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    });
    expect(claimsOf(schema)).toEqual(claims);
    expect(claimsOf({})).toEqual([]);
    expect(claimsOf({ properties: { old: { type: 'boolean' } } })).toEqual([{ name: 'old', unsigned: false, description: '' }]);
  });
  it('refuses bad, reserved and repeated names and a missing description (naming the field)', () => {
    expect(checkClaim({ name: 'plan', unsigned: false, description: 'd' }, claims)).toBeUndefined();
    expect(checkClaim({ name: 'isPro', unsigned: true, description: 'd' }, claims)).toBeUndefined();
    expect(checkClaim({ name: '1st', unsigned: false, description: 'd' }, claims)).toMatch(/^Claim name: letters/);
    expect(checkClaim({ name: 'a b', unsigned: false, description: 'd' }, claims)).toMatch(/^Claim name: letters/);
    expect(checkClaim({ name: 'x'.repeat(65), unsigned: false, description: 'd' }, claims)).toMatch(/^Claim name: letters/);
    expect(checkClaim({ name: 'unsigned', unsigned: false, description: 'd' }, claims)).toMatch(/reserved/);
    expect(checkClaim({ name: 'beta', unsigned: true, description: 'Tries new features' }, claims)).toMatch(/already there/);
    expect(checkClaim({ name: 'plan', unsigned: false, description: ' ' }, claims)).toBe('Claim description: required');
  });
});
