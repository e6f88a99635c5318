import { describe, expect, it } from 'vitest';
import { checkJsonDepth, jsonDepth, MAX_JSON_DEPTH, parseClientJson } from './json.js';

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('JSON depth', () => {
  it('counts arrays and objects, not brackets in strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[{"b":{}}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{\\"[["}')).toBe(1);
    expect(jsonDepth('[{},{},[]]')).toBe(2);
  });

  it('refuses deeper than the bound before parsing, and stops counting there', () => {
    expect(() => checkJsonDepth(nested(MAX_JSON_DEPTH), 'body')).not.toThrow();
    expect(() => checkJsonDepth(nested(MAX_JSON_DEPTH + 1), 'body')).toThrow(`body: nested deeper than ${MAX_JSON_DEPTH} levels`);
    // An attacker's 8 MB of brackets: refused at once, not a stack overflow later.
    const started = performance.now();
    expect(() => parseClientJson('{"claims":'.repeat(800_000) + '1' + '}'.repeat(800_000), 'events')).toThrow(/events: nested deeper/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(() => parseClientJson('{"a":', 'body')).toThrow('body: must be JSON');
    expect(parseClientJson('{"a":[1]}', 'body')).toEqual({ a: [1] });
  });
});
