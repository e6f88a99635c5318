import { esc } from '../book.ts';
import { fieldsHtml, markdownHtml, newDrawn, schemaHtml, valueText, type Drawn } from './fields.ts';
import { codeSamples, paramSample, securityHeaders, sketchOf, bodyText } from './samples.ts';
import { schemaTree, sampleOf, type Field } from './schema.ts';
import { isObj, list, resolve, str, type Obj, type Operation } from './spec.ts';

// One operation of a spec as the reader shows it, server-side: method and path, servers, summary
// and description, authorization, parameters by place, the request body and each response by media
// type, code samples, and a "Test it" form the reader's script sends through the site's proxy.

const PLACES = [
  ['path', 'Path parameters'],
  ['query', 'Query parameters'],
  ['header', 'Header parameters'],
  ['cookie', 'Cookie parameters'],
] as const;

/** Where the console's requests go, and what names the block they come from. */
export interface ConsoleTarget {
  action: string;
  siteSpace: string;
  page: string;
  block: number;
}

export function parameterField(doc: Obj, p: Obj): Field {
  const field = schemaTree(doc, p.schema ?? {}, String(p.name), p.required === true);
  return { ...field, description: str(p.description) ?? field.description, deprecated: p.deprecated === true || field.deprecated, example: p.example ?? field.example };
}

/** The schemes an operation's security names: `Bearer token (HTTP bearer)`, `X-API-Key header (API key)`… */
export function securityOf(doc: Obj, operation: Obj): { name: string; label: string; description?: string }[][] {
  const schemes = isObj(doc.components) && isObj(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  return list(operation.security ?? doc.security)
    .filter(isObj)
    .map((requirement) =>
      Object.keys(requirement).map((name) => {
        const s = resolve(doc, schemes[name]).value;
        const label =
          s.type === 'apiKey'
            ? `${String(s.name)} in ${String(s.in)} (API key)`
            : s.type === 'http'
              ? `Authorization: ${String(s.scheme ?? '')} (HTTP ${String(s.scheme ?? '')}${s.bearerFormat ? `, ${String(s.bearerFormat)}` : ''})`
              : s.type === 'oauth2'
                ? 'OAuth 2.0'
                : s.type === 'openIdConnect'
                  ? 'OpenID Connect'
                  : String(s.type ?? 'unknown');
        return { name, label, description: str(s.description) };
      }),
    );
}

/** Each media type's schema; a response's with its example (a request's shows in the code samples). */
function mediaHtml(doc: Obj, content: unknown, drawn: Drawn, forRequest: boolean): string {
  if (!isObj(content)) return '';
  return Object.entries(content)
    .map(([type, raw]) => {
      const media = resolve(doc, raw).value;
      const example = media.example ?? (isObj(media.examples) ? Object.values(media.examples).map((e) => resolve(doc, e).value.value)[0] : undefined);
      const sample = forRequest ? undefined : example !== undefined ? example : media.schema !== undefined ? sampleOf(doc, media.schema) : undefined;
      const shown =
        sample === undefined
          ? ''
          : `<details class="oa-example"><summary>Example</summary><pre><code>${esc(typeof sample === 'string' ? sample : JSON.stringify(sample, null, 2))}</code></pre></details>`;
      return `<div class="oa-media"><p class="oa-media-type"><code>${esc(type)}</code></p>${media.schema !== undefined ? schemaHtml(schemaTree(doc, media.schema), drawn) : ''}${shown}</div>`;
    })
    .join('');
}

function responsesHtml(doc: Obj, operation: Obj, drawn: Drawn): string {
  const responses = isObj(operation.responses) ? operation.responses : {};
  const items = Object.entries(responses).map(([status, raw]) => {
    const r = resolve(doc, raw).value;
    const headers = isObj(r.headers) ? Object.entries(r.headers).map(([name, h]) => parameterField(doc, { ...resolve(doc, h).value, name })) : [];
    // A one-line description is the summary; a longer one shows in full below it.
    const description = str(r.description) ?? '';
    const oneLine = !str(r.summary) && !description.includes('\n');
    return `<details class="oa-response"${status.startsWith('2') ? ' open' : ''}><summary><span class="oa-status oa-status-${esc(status[0])}">${esc(status)}</span> ${esc(str(r.summary) ?? (oneLine ? description : ''))}</summary>${oneLine ? '' : markdownHtml(description)}${headers.length ? `<p class="oa-label">Headers</p>${fieldsHtml(headers, drawn)}` : ''}${mediaHtml(doc, r.content, drawn, false)}</details>`;
  });
  return items.length ? `<h4 class="oa-heading">Responses</h4><div class="oa-responses">${items.join('')}</div>` : '';
}

function consoleHtml(doc: Obj, op: Operation, target: ConsoleTarget): string {
  const sketch = sketchOf(doc, op);
  const input = (place: string, name: string, value: unknown, required: boolean) =>
    `<label class="oa-input"><span><code>${esc(name)}</code> <small>${esc(place)}${required ? ', required' : ''}</small></span><input data-in="${esc(place)}" data-name="${esc(name)}" value="${esc(value === undefined ? '' : valueText(value))}"${required ? ' required' : ''}></label>`;
  const params = op.parameters
    .filter((p) => p.in !== 'cookie')
    .map((p) => input(String(p.in), String(p.name), p.in === 'path' || p.required ? paramSample(doc, p) : undefined, p.required === true));
  const auth = securityHeaders(doc, op.operation).map(([name]) => input('header', name, '', false));
  const body = bodyText(sketch);
  return `<details class="oa-try"><summary>Test it</summary><form data-oa-try action="${esc(target.action)}" method="post" data-site-space="${esc(target.siteSpace)}" data-page="${esc(target.page)}" data-block="${target.block}" data-method="${esc(sketch.method)}" data-path="${esc(op.path)}"${sketch.contentType ? ` data-content-type="${esc(sketch.contentType)}"` : ''}>
<label class="oa-input"><span>Server</span><select data-server>${op.servers.map((s) => `<option>${esc(s)}</option>`).join('')}</select></label>${auth.join('')}${params.join('')}${body !== undefined ? `<label class="oa-input"><span>Body <small>${esc(sketch.contentType ?? '')}</small></span><textarea data-body rows="8">${esc(body)}</textarea></label>` : ''}
<button type="submit">Send</button><div class="oa-answer" aria-live="polite" hidden></div></form></details>`;
}

/** The operation's HTML; `drawn` carries the named schemas already drawn on the page (of the same spec). */
export function operationHtml(doc: Obj, op: Operation, target?: ConsoleTarget, drawn: Drawn = newDrawn()): string {
  const o = op.operation;
  const method = op.method.toUpperCase();
  const deprecated = o.deprecated === true;
  const places = PLACES.map(([place, title]) => {
    const fields = op.parameters.filter((p) => p.in === place).map((p) => parameterField(doc, p));
    return fields.length ? `<h4 class="oa-heading">${title}</h4>${fieldsHtml(fields, drawn)}` : '';
  }).join('');
  const security = securityOf(doc, o);
  const requestBody = resolve(doc, o.requestBody).value;
  const samples = codeSamples(doc, op);
  return [
    `<section class="oa-op${deprecated ? ' oa-op-deprecated' : ''}" data-method="${esc(op.method)}">`,
    `<header class="oa-op-head"><span class="oa-method oa-method-${esc(op.method)}">${esc(method)}</span> <code class="oa-path">${esc(op.path)}</code>${deprecated ? ' <span class="oa-badge oa-deprecated">Deprecated</span>' : ''}</header>`,
    str(o.summary) ? `<p class="oa-summary">${esc(str(o.summary))}</p>` : '',
    markdownHtml(str(o.description)),
    op.servers.length
      ? `<div class="oa-servers"><span class="oa-label">Server${op.servers.length > 1 ? 's' : ''}</span> ${op.servers.map((s) => `<code>${esc(s)}</code>`).join(' ')}</div>`
      : '',
    security.length
      ? `<h4 class="oa-heading">Authorizations</h4><ul class="oa-security">${security.map((all) => `<li>${all.map((s) => `<code>${esc(s.name)}</code> ${esc(s.label)}${markdownHtml(s.description)}`).join(' and ')}</li>`).join('')}</ul>`
      : '',
    places,
    isObj(requestBody.content)
      ? `<h4 class="oa-heading">Body${requestBody.required === true ? ' <span class="oa-badge oa-required">Required</span>' : ''}</h4>${markdownHtml(str(requestBody.description))}${mediaHtml(doc, requestBody.content, drawn, true)}`
      : '',
    responsesHtml(doc, o, drawn),
    `<div class="oa-samples">${samples.map((s, i) => `<details class="oa-sample"${i === 0 ? ' open' : ''}><summary>${esc(s.label)}</summary><pre><code class="language-${esc(s.lang)}">${esc(s.source)}</code></pre></details>`).join('')}</div>`,
    target && op.servers.length ? consoleHtml(doc, op, target) : '',
    '</section>',
  ].join('');
}

/** A block whose spec or operation cannot be shown: said plainly where it stands. */
export const noticeHtml = (method: string, path: string, why: string): string =>
  `<section class="oa-op oa-missing" role="note"><header class="oa-op-head"><span class="oa-method">${esc(method.toUpperCase())}</span> <code class="oa-path">${esc(path)}</code></header><p>This API operation cannot be shown: ${esc(why)}.</p></section>`;
