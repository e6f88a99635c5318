import { valueText } from './fields.ts';
import { parameterField, securityOf } from './operation.ts';
import { codeSamples } from './samples.ts';
import { schemaTree, type Field } from './schema.ts';
import { isObj, resolve, str, type Obj, type Operation } from './spec.ts';

// An operation as markdown, for a page's `.md` and llms-full.txt (readers that take text): the
// same facts as its HTML, fields as nested lists, the first code sample generated.

const inline = (s: string) => `\`${s.replace(/`/g, 'ˋ')}\``;
const oneLine = (s: string | undefined) =>
  (s ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');

function fieldLines(fields: Field[], depth = 0): string[] {
  const pad = '  '.repeat(depth);
  return fields.flatMap((f) => {
    const facts = [
      f.required ? 'required' : '',
      f.deprecated ? 'deprecated' : '',
      f.default !== undefined ? `default ${inline(valueText(f.default))}` : '',
      f.enum?.length ? `one of ${f.enum.map((v) => inline(valueText(v))).join(', ')}` : '',
      f.example !== undefined ? `example ${inline(valueText(f.example))}` : '',
    ].filter(Boolean);
    const line = `${pad}- ${inline(f.name ?? '')} (${f.recursive ? `${f.type}, recursive` : f.type}${facts.length ? `, ${facts.join(', ')}` : ''})${f.description ? `: ${oneLine(f.description)}` : ''}`;
    const variants = f.variants ? f.variants.options.flatMap((o, i) => [`${pad}  - ${f.variants!.kind} option ${i + 1}: ${o.type}`, ...fieldLines(o.children, depth + 2)]) : [];
    return [line, ...fieldLines(f.children, depth + 1), ...variants];
  });
}

function contentLines(doc: Obj, content: unknown): string[] {
  if (!isObj(content)) return [];
  return Object.entries(content).flatMap(([type, raw]) => {
    const tree = schemaTree(doc, resolve(doc, raw).value.schema ?? {});
    return [`${inline(type)}: ${tree.type}`, '', ...fieldLines(tree.children), ''];
  });
}

export function operationMarkdown(doc: Obj, op: Operation): string {
  const o = op.operation;
  const out = [`### ${op.method.toUpperCase()} ${op.path}${o.deprecated === true ? ' (deprecated)' : ''}`, ''];
  if (str(o.summary)) out.push(str(o.summary)!, '');
  if (str(o.description)) out.push(str(o.description)!, '');
  if (op.servers.length) out.push(`Servers: ${op.servers.map(inline).join(', ')}`, '');
  const security = securityOf(doc, o);
  if (security.length) out.push(`Authorization: ${security.map((all) => all.map((s) => `${s.name} (${s.label})`).join(' and ')).join('; or ')}`, '');
  const params = op.parameters.map((p) => ({ ...parameterField(doc, p), name: `${String(p.name)}`, place: String(p.in) }));
  for (const place of ['path', 'query', 'header', 'cookie']) {
    const here = params.filter((p) => p.place === place);
    if (here.length) out.push(`#### ${place[0]!.toUpperCase()}${place.slice(1)} parameters`, '', ...fieldLines(here), '');
  }
  const body = resolve(doc, o.requestBody).value;
  if (isObj(body.content)) out.push(`#### Body${body.required === true ? ' (required)' : ''}`, '', ...contentLines(doc, body.content));
  const responses = isObj(o.responses) ? o.responses : {};
  if (Object.keys(responses).length) out.push('#### Responses', '');
  for (const [status, raw] of Object.entries(responses)) {
    const r = resolve(doc, raw).value;
    out.push(`- ${inline(status)}: ${oneLine(str(r.description))}`, '', ...contentLines(doc, r.content));
  }
  const sample = codeSamples(doc, op).find((s) => s.label === 'cURL')!;
  out.push('```bash', sample.source, '```', '');
  return out.join('\n');
}
