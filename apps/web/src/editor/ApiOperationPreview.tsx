import { useEffect, useMemo } from 'react';
import type { SpecOperation } from '@quire/document/openapi';
import { findOperation, noticeHtml, OPENAPI_CSS, operationHtml, specOf, SpecError } from '@quire/render/openapi';

/** The operation drawn as the published page draws it (the reader's renderer), without the Test it console. */
export default function Preview({ raw, op }: { raw: unknown; op: SpecOperation }) {
  useEffect(ensureOperationStyles, []);
  // A copy: reading a Swagger 2.0 spec upgrades it in place, and the query's data stays as the API sent it.
  const spec = useMemo(() => {
    try {
      return specOf(structuredClone(raw));
    } catch (err) {
      return err instanceof SpecError ? err : new SpecError(String(err));
    }
  }, [raw]);
  const html = useMemo(() => {
    if (spec instanceof SpecError) return noticeHtml(op.method, op.path, spec.message);
    const found = findOperation(spec.doc, op.path, op.method);
    return found ? operationHtml(spec.doc, found) : noticeHtml(op.method, op.path, 'the spec has no such operation');
  }, [spec, op]);
  return <section className="api-preview" aria-label="Operation preview" dangerouslySetInnerHTML={{ __html: html }} />;
}

let styled = false;
/** The operation's rules, once per page load. */
function ensureOperationStyles() {
  if (styled) return;
  styled = true;
  const style = document.createElement('style');
  style.dataset.quire = 'openapi';
  style.textContent = OPENAPI_CSS;
  document.head.append(style);
}
