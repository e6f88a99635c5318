import { sampleOf } from './schema.ts';
import { isObj, list, resolve, str, type Obj, type Operation } from './spec.ts';

// An operation's example request (from its first server, its required parameters and a body
// shaped like its schema) and the code samples that send it: the spec's own (`x-codeSamples`,
// `x-code-samples`) first, then curl, JavaScript's fetch and Python's requests.

export interface Sketch {
  method: string;
  url: string;
  headers: [string, string][];
  contentType?: string;
  body?: unknown;
}

export interface CodeSample {
  label: string;
  lang: string;
  source: string;
}

/** The value shown for a parameter: its example, else one shaped like its schema. */
export function paramSample(doc: Obj, param: Obj): unknown {
  if (param.example !== undefined) return param.example;
  const first = isObj(param.examples) ? Object.values(param.examples).map((e) => resolve(doc, e).value.value)[0] : undefined;
  return first !== undefined ? first : sampleOf(doc, param.schema, true);
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The headers the operation's first security requirement asks for, with placeholders. */
export function securityHeaders(doc: Obj, operation: Obj): [string, string][] {
  const requirement = list(operation.security ?? doc.security).find(isObj);
  const schemes = isObj(doc.components) ? doc.components.securitySchemes : undefined;
  const out: [string, string][] = [];
  for (const name of Object.keys(requirement ?? {})) {
    const scheme = isObj(schemes) ? resolve(doc, schemes[name]).value : {};
    if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') out.push([scheme.name, 'YOUR_API_KEY']);
    else if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') out.push(['Authorization', 'Basic YOUR_CREDENTIALS']);
    else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') out.push(['Authorization', 'Bearer YOUR_TOKEN']);
  }
  return out;
}

export function sketchOf(doc: Obj, op: Operation): Sketch {
  let path = op.path;
  const query: string[] = [];
  const headers: [string, string][] = [];
  for (const p of op.parameters) {
    const name = String(p.name);
    if (p.in === 'path') path = path.replace(`{${name}}`, encodeURIComponent(text(paramSample(doc, p) ?? name)));
    else if (p.required === true && p.in === 'query') query.push(`${encodeURIComponent(name)}=${encodeURIComponent(text(paramSample(doc, p) ?? ''))}`);
    else if (p.required === true && p.in === 'header') headers.push([name, text(paramSample(doc, p) ?? '')]);
  }
  headers.push(...securityHeaders(doc, op.operation));
  const url = `${(op.servers[0] ?? '').replace(/\/$/, '')}${path}${query.length ? `?${query.join('&')}` : ''}`;
  const body = resolve(doc, op.operation.requestBody).value;
  const content = isObj(body.content) ? body.content : {};
  const contentType = Object.keys(content)[0];
  if (!contentType) return { method: op.method.toUpperCase(), url, headers };
  const media = resolve(doc, content[contentType]).value;
  const example = media.example ?? (isObj(media.examples) ? Object.values(media.examples).map((e) => resolve(doc, e).value.value)[0] : undefined);
  headers.push(['Content-Type', contentType]);
  return { method: op.method.toUpperCase(), url, headers, contentType, body: example !== undefined ? example : sampleOf(doc, media.schema, true) };
}

/** The body as it goes on the wire: JSON, a form's `a=b&c=d`, or the text as given. */
export function bodyText(sketch: Sketch): string | undefined {
  if (sketch.body === undefined) return undefined;
  if (sketch.contentType === 'application/x-www-form-urlencoded' && isObj(sketch.body))
    return new URLSearchParams(Object.entries(sketch.body).map(([k, v]) => [k, text(v)])).toString();
  return typeof sketch.body === 'string' ? sketch.body : JSON.stringify(sketch.body, null, 2);
}

const shell = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const isJson = (type?: string) => !!type && /[/+]json\b/.test(type);

function curl(s: Sketch): string {
  const lines = [`curl -X ${s.method} ${shell(s.url)}`, ...s.headers.map(([k, v]) => `  -H ${shell(`${k}: ${v}`)}`)];
  const body = bodyText(s);
  if (body !== undefined) lines.push(`  --data ${shell(body)}`);
  return lines.join(' \\\n');
}

function fetchJs(s: Sketch): string {
  const headers = s.headers.map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)},`).join('\n');
  const body = bodyText(s);
  const bodyLine =
    body === undefined ? '' : isJson(s.contentType) ? `  body: JSON.stringify(${JSON.stringify(s.body, null, 2).replace(/\n/g, '\n  ')}),\n` : `  body: ${JSON.stringify(body)},\n`;
  return `const response = await fetch(${JSON.stringify(s.url)}, {\n  method: ${JSON.stringify(s.method)},\n  headers: {\n${headers}\n  },\n${bodyLine}});\nconst data = await response.json();`;
}

/** A JSON value as a Python literal. */
function py(v: unknown, indent = ''): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'string') return JSON.stringify(v);
  const inner = `${indent}    `;
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => `${inner}${py(x, inner)},`).join('\n')}\n${indent}]` : '[]';
  const entries = Object.entries(v as Obj);
  return entries.length ? `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${py(x, inner)},`).join('\n')}\n${indent}}` : '{}';
}

function python(s: Sketch): string {
  const body = bodyText(s);
  const arg = body === undefined ? '' : isJson(s.contentType) ? `,\n    json=${py(s.body, '    ')}` : `,\n    data=${JSON.stringify(body)}`;
  const headers = py(Object.fromEntries(s.headers.filter(([k]) => !(isJson(s.contentType) && k === 'Content-Type'))), '    ');
  return `import requests\n\nresponse = requests.request(\n    ${JSON.stringify(s.method)},\n    ${JSON.stringify(s.url)},\n    headers=${headers}${arg},\n)\ndata = response.json()`;
}

export function codeSamples(doc: Obj, op: Operation): CodeSample[] {
  const own = list(op.operation['x-codeSamples'] ?? op.operation['x-code-samples'])
    .filter(isObj)
    .filter((c) => typeof c.source === 'string')
    .map((c) => ({ label: str(c.label) ?? str(c.lang) ?? 'Sample', lang: str(c.lang) ?? '', source: c.source as string }));
  const s = sketchOf(doc, op);
  return [
    ...own,
    { label: 'cURL', lang: 'shell', source: curl(s) },
    { label: 'JavaScript', lang: 'javascript', source: fetchJs(s) },
    { label: 'Python', lang: 'python', source: python(s) },
  ];
}
