import { isObj, list, refName, resolve, str, type Obj } from './spec.ts';

// A schema as a tree of fields, which the HTML and the markdown of an operation both write: each
// field with its type, facts and children (an object's properties, an array's items' properties,
// allOf merged, oneOf/anyOf as variants). A schema met again below itself (a recursive `$ref`)
// is named rather than opened; the whole tree is bounded so a vast spec never makes a vast page.

export interface Field {
  name?: string;
  /** `string · date-time`, `Pet[]`, `object`… */
  type: string;
  required?: boolean;
  description?: string;
  deprecated?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  default?: unknown;
  enum?: unknown[];
  example?: unknown;
  /** The reference of the named schema whose properties it lists (its own, or its array's items'). */
  schema?: string;
  /** The name of a schema shown above it: recursion stops here. */
  recursive?: string;
  /** A reference that leads outside the spec, never fetched. */
  external?: string;
  children: Field[];
  /** oneOf / anyOf: the shapes it may take, each a field. */
  variants?: { kind: 'oneOf' | 'anyOf'; options: Field[]; discriminator?: string; mapping?: Record<string, string> };
}

/** Fields drawn at most per schema tree, and levels of nesting. */
const MAX_FIELDS = 1500;
const MAX_DEPTH = 4;

export function schemaTree(doc: Obj, schema: unknown, name?: string, required?: boolean): Field {
  let budget = MAX_FIELDS;
  const visit = (value: unknown, fieldName: string | undefined, isRequired: boolean | undefined, above: string[]): Field => {
    budget--;
    const { value: s, ref, unresolved } = resolve(doc, value);
    const base: Field = { name: fieldName, type: '', required: isRequired || undefined, children: [] };
    if (unresolved) return { ...base, type: refName(unresolved), external: unresolved };
    if (ref && above.includes(ref)) return { ...base, type: refName(ref), recursive: refName(ref) };
    const path = ref ? [...above, ref] : above;
    const merged = mergeAllOf(doc, s);
    const field: Field = { ...base, ...facts(merged), type: typeLabel(doc, merged, ref), schema: ref };
    if (budget <= 0 || path.length > MAX_DEPTH) return field;
    const items = arrayItems(doc, merged);
    if (items?.ref && path.includes(items.ref)) return { ...field, recursive: refName(items.ref) };
    if (items) field.schema = items.ref;
    const props = items ? items.value : merged;
    const inner = items?.ref ? [...path, items.ref] : path;
    const req = new Set(list(props.required).filter((r): r is string => typeof r === 'string'));
    for (const [key, child] of Object.entries(isObj(props.properties) ? props.properties : {})) {
      if (budget <= 0) break;
      field.children.push(visit(child, key, req.has(key), inner));
    }
    if (isObj(props.additionalProperties) && budget > 0) field.children.push(visit(props.additionalProperties, '[key: string]', false, inner));
    for (const kind of ['oneOf', 'anyOf'] as const) {
      const options = list(merged[kind]);
      if (!options.length || budget <= 0) continue;
      const d = isObj(merged.discriminator) ? merged.discriminator : undefined;
      field.variants = {
        kind,
        options: options.map((o) => visit(o, undefined, undefined, path)),
        discriminator: str(d?.propertyName),
        mapping: isObj(d?.mapping) ? (Object.fromEntries(Object.entries(d.mapping).map(([k, v]) => [k, refName(String(v))])) as Record<string, string>) : undefined,
      };
    }
    return field;
  };
  return visit(schema, name, required, []);
}

/** allOf's members folded into one schema: properties and required lists joined, the rest the first one's. */
function mergeAllOf(doc: Obj, s: Obj, depth = 0): Obj {
  const parts = list(s.allOf);
  if (!parts.length || depth > 8) return s;
  const out: Obj = { ...s, allOf: undefined };
  const properties: Obj = { ...(isObj(s.properties) ? s.properties : {}) };
  const required = new Set(list(s.required));
  for (const part of parts) {
    const p = mergeAllOf(doc, resolve(doc, part).value, depth + 1);
    Object.assign(properties, isObj(p.properties) ? p.properties : {});
    for (const r of list(p.required)) required.add(r);
    for (const [k, v] of Object.entries(p)) if (out[k] === undefined && k !== 'properties' && k !== 'required') out[k] = v;
  }
  return { ...out, properties, required: [...required], type: out.type ?? 'object' };
}

/** An array's items, allOf merged, when they are an object whose properties the field lists. */
function arrayItems(doc: Obj, s: Obj): { value: Obj; ref?: string } | undefined {
  if (isObj(s.properties) || !(s.type === 'array' || isObj(s.items))) return undefined;
  const items = resolve(doc, s.items);
  if (items.unresolved) return undefined;
  const value = mergeAllOf(doc, items.value);
  return isObj(value.properties) ? { value, ref: items.ref } : undefined;
}

function typeLabel(doc: Obj, s: Obj, ref?: string): string {
  const types = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null').map(String) : s.type === undefined ? [] : [String(s.type)];
  const nullable = (Array.isArray(s.type) && s.type.includes('null')) || s.nullable === true;
  let label: string;
  if (types[0] === 'array' || (!types.length && s.items !== undefined)) {
    const items = resolve(doc, s.items);
    label = `${items.ref || items.unresolved ? refName((items.ref ?? items.unresolved)!) : typeLabel(doc, items.value)}[]`;
  } else if (types.length) label = types.join(' | ');
  else if (s.oneOf || s.anyOf) label = s.oneOf ? 'one of' : 'any of';
  else label = isObj(s.properties) ? 'object' : 'any';
  if (typeof s.format === 'string') label += ` · ${s.format}`;
  if (ref && label === 'object') label = refName(ref);
  return nullable ? `${label} | null` : label;
}

function facts(s: Obj): Partial<Field> {
  const examples = list(s.examples);
  return {
    description: str(s.description),
    deprecated: s.deprecated === true || undefined,
    readOnly: s.readOnly === true || undefined,
    writeOnly: s.writeOnly === true || undefined,
    default: s.default,
    enum: Array.isArray(s.enum) ? s.enum : s.const !== undefined ? [s.const] : undefined,
    example: s.example !== undefined ? s.example : examples[0],
  };
}

/** A value shaped like the schema, for request and response examples: its own examples first; a request's without read-only fields. */
export function sampleOf(doc: Obj, schema: unknown, forRequest = false, above: string[] = []): unknown {
  const { value: raw, ref } = resolve(doc, schema);
  if (ref && above.includes(ref)) return undefined;
  const path = ref ? [...above, ref] : above;
  if (path.length > MAX_DEPTH) return undefined;
  const s = mergeAllOf(doc, raw);
  if (s.example !== undefined) return s.example;
  if (list(s.examples).length) return list(s.examples)[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (list(s.enum).length) return list(s.enum)[0];
  const variant = list(s.oneOf)[0] ?? list(s.anyOf)[0];
  if (variant !== undefined) return sampleOf(doc, variant, forRequest, path);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || isObj(s.properties)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(isObj(s.properties) ? s.properties : {})) {
      if (forRequest && resolve(doc, v).value.readOnly === true) continue;
      const sample = sampleOf(doc, v, forRequest, path);
      if (sample !== undefined) out[k] = sample;
    }
    return out;
  }
  if (type === 'array') {
    const item = sampleOf(doc, s.items, forRequest, path);
    return item === undefined ? [] : [item];
  }
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return true;
  if (type === 'string') return FORMAT_SAMPLES[String(s.format)] ?? 'string';
  return undefined;
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  email: 'name@example.com',
  uuid: '00000000-0000-0000-0000-000000000000',
  uri: 'https://example.com',
  binary: '<binary>',
};
