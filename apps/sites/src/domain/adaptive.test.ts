import { describe, expect, it } from 'vitest';
import { EMPTY_SCHEMA, parseAdaptiveSchema, templateConditions } from './adaptive.ts';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://example.com/visitor.json',
  type: 'object',
  properties: {
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { beta: { type: 'boolean', description: 'Beta testers' } },
      additionalProperties: false,
    },
    'is-paying': { type: 'boolean' },
  },
  additionalProperties: false,
};
const parse = (v: unknown) => () => parseAdaptiveSchema(JSON.stringify(v));

describe('adaptive schema', () => {
  it('accepts the shape and derives one condition per claim', () => {
    expect(parseAdaptiveSchema(JSON.stringify(schema))).toEqual(schema);
    expect(templateConditions(schema)).toEqual([
      { description: 'Beta testers', condition: 'visitor.claims.unsigned.beta === true' },
      { description: 'Visitors whose claim "is-paying" is true', condition: 'visitor.claims["is-paying"] === true' },
    ]);
    expect(templateConditions(EMPTY_SCHEMA)).toEqual([]);
  });

  it('refuses what is no draft-07 schema', () => {
    expect(() => parseAdaptiveSchema('[1]')).toThrow(/jsonSchema: must be a JSON object/);
    expect(parse({ ...schema, type: 'objekt' })).toThrow(/not a valid draft-07 JSON Schema/);
    expect(parse({ ...schema, properties: { x: { type: 'boolean', minimum: 'low' } } })).toThrow(/not a valid draft-07/);
  });

  it('refuses other shapes, naming the place', () => {
    expect(parse({ ...schema, additionalProperties: true })).toThrow(/jsonSchema\/additionalProperties: must be false/);
    expect(parse({ ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' })).toThrow(/jsonSchema\/\$schema: must be/);
    expect(parse({ ...schema, properties: { plan: { type: 'string' } } })).toThrow(/jsonSchema\/properties\/plan\/type: must be "boolean"/);
    expect(parse({ ...schema, properties: { unsigned: { ...schema.properties.unsigned, additionalProperties: true } } })).toThrow(/unsigned\/additionalProperties: must be false/);
    expect(parse({ ...schema, required: ['beta'] })).toThrow(/property "required" is not allowed/);
    expect(parse({ type: 'object', additionalProperties: false })).toThrow(/must have required property 'properties'/);
  });
});
