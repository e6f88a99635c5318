// A site's adaptive schema as a list of claims, and back: boolean claims at the top level (signed,
// from the visitor's JWT) and in `unsigned` (from the visitor's cookie or URL), the one shape
// the sites service accepts.

export interface Claim {
  name: string;
  unsigned: boolean;
  /** Required: GitBook's schema of a claim has one. */
  description: string;
}

type Prop = { type?: string; description?: string; properties?: Record<string, { type?: string; description?: string }>; additionalProperties?: boolean };
export type JsonSchema = { properties?: Record<string, Prop> } & Record<string, unknown>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function claimsOf(schema: JsonSchema): Claim[] {
  const props = schema.properties ?? {};
  const signed = Object.entries(props)
    .filter(([name]) => name !== 'unsigned')
    .map(([name, p]) => ({ name, unsigned: false, description: p.description ?? '' }));
  const unsigned = Object.entries(props.unsigned?.properties ?? {}).map(([name, p]) => ({ name, unsigned: true, description: p.description ?? '' }));
  return [...signed, ...unsigned];
}

/** The claim checked: a name that is a word (letters, digits, _), not `unsigned`, not already there; a description. */
export function checkClaim(claim: Claim, claims: Claim[]): string | undefined {
  if (!NAME.test(claim.name)) return 'Claim name: letters, digits and _ (64 at most), not starting with a digit';
  if (!claim.description.trim()) return 'Claim description: required';
  if (claim.name === 'unsigned' && !claim.unsigned) return 'Claim name: “unsigned” is reserved';
  if (claims.some((c) => c.name === claim.name && c.unsigned === claim.unsigned)) return `Claim name: “${claim.name}” is already there`;
  return undefined;
}

export function schemaWith(claims: Claim[]): JsonSchema {
  const prop = (c: Claim) => [c.name, { type: 'boolean', description: c.description }] as const;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      ...Object.fromEntries(claims.filter((c) => !c.unsigned).map(prop)),
      unsigned: {
        type: 'object',
        description: 'Unsigned claims of the site visitor.',
        properties: Object.fromEntries(claims.filter((c) => c.unsigned).map(prop)),
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}
