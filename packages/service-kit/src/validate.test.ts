import { describe, expect, it } from 'vitest';
import { checkLength, checkUri } from './validate.js';

describe('validation', () => {
  it('counts characters, not UTF-16 units, and names the field', () => {
    expect(checkLength('title', '😀😀', { min: 2, max: 2 })).toBe('😀😀');
    expect(() => checkLength('title', 'x', { min: 2, max: 255 })).toThrow(/title: must be between 2 and 255 characters \(got 1\)/);
  });

  it('takes only http(s) URLs within the bound', () => {
    expect(checkUri('logo', 'https://x.example/a.png')).toBe('https://x.example/a.png');
    expect(() => checkUri('logo', 'javascript:alert(1)')).toThrow(/logo/);
    expect(() => checkUri('logo', `https://x.example/${'a'.repeat(2048)}`)).toThrow(/logo/);
  });
});
