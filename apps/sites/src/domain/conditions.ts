// Visibility conditions of sections and site-spaces: the expressions GitBook's adaptive content
// takes (`visitor.claims.unsigned.beta === true && visitor.claims.plan != "free"`), evaluated
// safely — no code runs — against the visitor's claims. A condition that does not parse or
// names what the visitor lacks is false: what is unsure stays hidden.

type Value = unknown;
type Node =
  { k: 'lit'; v: Value } | { k: 'path'; parts: string[] } | { k: 'not'; e: Node } | { k: 'bin'; op: string; l: Node; r: Node } | { k: 'includes'; target: Node; arg: Node };

const TOKEN = /\s*(?:(===|!==|==|!=|<=|>=|&&|\|\||[()!<>.[\],])|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*))/y;

function tokenize(src: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    if (/^\s*$/.test(src.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(src);
    if (!m) throw new SyntaxError(`unexpected character at ${TOKEN.lastIndex}`);
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
  }
  return out;
}

function parse(src: string): Node {
  const t = tokenize(src);
  let i = 0;
  const peek = () => t[i];
  const take = (want?: string) => {
    const tok = t[i++];
    if (tok === undefined || (want !== undefined && tok !== want)) throw new SyntaxError(`expected ${want ?? 'more'}`);
    return tok;
  };
  const binary = (ops: string[], next: () => Node) => (): Node => {
    let l = next();
    while (ops.includes(peek() ?? '')) l = { k: 'bin', op: take(), l, r: next() };
    return l;
  };
  const primary = (): Node => {
    const tok = take();
    if (tok === '(') {
      const e = or();
      take(')');
      return e;
    }
    if (tok === '!') return { k: 'not', e: primary() };
    if (/^["']/.test(tok)) return { k: 'lit', v: JSON.parse(tok[0] === '"' ? tok : `"${tok.slice(1, -1).replace(/"/g, '\\"')}"`) };
    if (/^\d/.test(tok)) return { k: 'lit', v: Number(tok) };
    if (tok === 'true' || tok === 'false' || tok === 'null') return { k: 'lit', v: JSON.parse(tok) };
    if (tok === 'undefined') return { k: 'lit', v: undefined };
    if (!/^[A-Za-z_$]/.test(tok)) throw new SyntaxError(`unexpected ${tok}`);
    const parts = [tok];
    for (;;) {
      if (peek() === '.') {
        take();
        const name = take();
        if (name === 'includes' && peek() === '(') {
          take('(');
          const arg = or();
          take(')');
          return { k: 'includes', target: { k: 'path', parts }, arg };
        }
        parts.push(name);
      } else if (peek() === '[') {
        take();
        const key = primary();
        take(']');
        if (key.k !== 'lit') throw new SyntaxError('only literal keys');
        parts.push(String(key.v));
      } else return { k: 'path', parts };
    }
  };
  const unary = (): Node => (peek() === '!' ? (take(), { k: 'not', e: unary() }) : primary());
  const compare = binary(['===', '!==', '==', '!=', '<', '>', '<=', '>='], unary);
  const and = binary(['&&'], compare);
  const or: () => Node = binary(['||'], and);
  const tree = or();
  if (i !== t.length) throw new SyntaxError(`unexpected ${t[i]}`);
  return tree;
}

function own(obj: Value, key: string): Value {
  return obj !== null && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key) ? (obj as Record<string, Value>)[key] : undefined;
}

function compare(op: string, l: string, r: string): boolean {
  return op === '<' ? l < r : op === '>' ? l > r : op === '<=' ? l <= r : l >= r;
}

function evaluate(n: Node, scope: Record<string, Value>): Value {
  switch (n.k) {
    case 'lit':
      return n.v;
    case 'path':
      return n.parts.reduce<Value>((v, p) => own(v, p), scope);
    case 'not':
      return !evaluate(n.e, scope);
    case 'includes': {
      const target = evaluate(n.target, scope);
      const arg = evaluate(n.arg, scope);
      return (Array.isArray(target) || typeof target === 'string') && target.includes(arg as never);
    }
    case 'bin': {
      const l = evaluate(n.l, scope);
      if (n.op === '&&') return l && evaluate(n.r, scope);
      if (n.op === '||') return l || evaluate(n.r, scope);
      const r = evaluate(n.r, scope);
      switch (n.op) {
        case '===':
        case '==':
          return l === r;
        case '!==':
        case '!=':
          return l !== r;
        default:
          // Ordered comparisons only between two numbers or two strings, never coerced.
          if (typeof l !== typeof r || (typeof l !== 'number' && typeof l !== 'string')) return false;
          return compare(n.op, l as string, r as string);
      }
    }
  }
}

/** Whether an item with this condition is shown to a visitor with these claims (no condition: shown). */
export function conditionHolds(condition: string | null | undefined, claims: Record<string, unknown>): boolean {
  if (condition === null || condition === undefined) return true;
  try {
    return !!evaluate(parse(condition), { visitor: { claims } });
  } catch {
    return false;
  }
}
