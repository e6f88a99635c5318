import { describe, expect, it } from 'vitest';
import { absentIfNull, emptyIfNull } from './nullable.js';

describe('NULL columns as message fields', () => {
  const row = { id: 'r1', hostname: null as string | null, logo: 'l' as string | null, count: 0 as number | null, ref: null as string | null };

  it('leaves a NULL column absent and keeps every other value, falsy ones too', () => {
    const fields = absentIfNull(row, 'hostname', 'logo', 'count');
    expect(fields).toEqual({ logo: 'l', count: 0 });
    expect(fields.hostname).toBeUndefined();
  });

  it('gives a NULL text column as the empty string', () => {
    expect(emptyIfNull(row, 'ref', 'logo')).toEqual({ ref: '', logo: 'l' });
  });
});
