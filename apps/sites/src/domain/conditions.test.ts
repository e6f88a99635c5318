import { describe, expect, it } from 'vitest';
import { conditionHolds } from './conditions.ts';

const claims = { unsigned: { beta: true, plan: 'pro' }, roles: ['admin'], seats: 5 };

describe('conditions', () => {
  it('shows what has no condition', () => {
    expect(conditionHolds(undefined, {})).toBe(true);
    expect(conditionHolds(null, {})).toBe(true);
  });

  it('evaluates claims, comparisons and logic', () => {
    expect(conditionHolds('visitor.claims.unsigned.beta', claims)).toBe(true);
    expect(conditionHolds('visitor.claims.unsigned.beta === true && visitor.claims.unsigned.plan == "pro"', claims)).toBe(true);
    expect(conditionHolds("visitor.claims.unsigned.plan !== 'pro' || !visitor.claims.unsigned.beta", claims)).toBe(false);
    expect(conditionHolds('visitor.claims.seats >= 5 && visitor.claims.seats < 10', claims)).toBe(true);
    expect(conditionHolds('visitor.claims.roles.includes("admin")', claims)).toBe(true);
    expect(conditionHolds('(visitor.claims["unsigned"].beta)', claims)).toBe(true);
    expect(conditionHolds('true', {})).toBe(true);
  });

  it('hides when a claim is missing or the expression does not parse', () => {
    expect(conditionHolds('visitor.claims.unsigned.beta', {})).toBe(false);
    expect(conditionHolds('visitor.claims.unsigned.beta ===', claims)).toBe(false);
    expect(conditionHolds('process.exit(1)', claims)).toBe(false);
    expect(conditionHolds('visitor.claims.constructor', claims)).toBe(false);
    expect(conditionHolds('visitor.claims.seats > "3"', claims)).toBe(false);
  });
});
