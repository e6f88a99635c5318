// What a set of NetworkPolicies (networking.k8s.io/v1) lets through, by the API's rules, so that
// tests ask "may this pod reach that one on this port" rather than read the YAML's shape.

type Labels = Record<string, string>;
interface Selector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyPort {
  port?: number | string;
  endPort?: number;
  protocol?: string;
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: PolicyPort[];
}
export interface NetworkPolicy {
  spec: { podSelector: Selector; policyTypes?: string[]; ingress?: Rule[]; egress?: Rule[] };
}

/** A pod: its namespace's labels (`kubernetes.io/metadata.name` among them), its own, its named ports. */
export interface Pod {
  namespace: Labels;
  labels: Labels;
  ports?: Record<string, number>;
}
/** An address outside the cluster (IPv4). */
export interface Address {
  ip: string;
}
export type Endpoint = Pod | Address;
export interface Connection {
  port: number;
  protocol?: 'TCP' | 'UDP';
}

function selects(selector: Selector, labels: Labels): boolean {
  const expressions = (selector.matchExpressions ?? []).every((e) => {
    if (e.operator !== 'In') throw new Error(`selector operator ${e.operator} is not modelled`);
    return e.values!.includes(labels[e.key] ?? '');
  });
  return expressions && Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
}

const ipv4 = (ip: string) => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(base) / size);
}

const namespaceOf = (pod: Pod) => pod.namespace['kubernetes.io/metadata.name'];

/** Whether a rule's peer is `other`, seen from the policy's own pod `self`. */
function peerMatches(peer: Peer, other: Endpoint, self: Pod): boolean {
  if ('ip' in other) return !!peer.ipBlock && inCidr(other.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((c) => inCidr(other.ip, c));
  // Pod addresses are not stable: ipBlock peers are for traffic leaving or entering the cluster.
  if (peer.ipBlock) return false;
  const namespace = peer.namespaceSelector ? selects(peer.namespaceSelector, other.namespace) : namespaceOf(other) === namespaceOf(self);
  return namespace && (!peer.podSelector || selects(peer.podSelector, other.labels));
}

/** A named port is looked up on the receiving pod; a number (up to endPort) is taken as is. */
function portMatches(rule: PolicyPort, connection: Connection, receiver: Endpoint): boolean {
  if ((rule.protocol ?? 'TCP') !== (connection.protocol ?? 'TCP')) return false;
  if (rule.port === undefined) return true;
  if (typeof rule.port === 'string') return 'labels' in receiver && receiver.ports?.[rule.port] === connection.port;
  return connection.port >= rule.port && connection.port <= (rule.endPort ?? rule.port);
}

/** The policies of one namespace: which connections they let through. */
export function network(namespace: string, policies: NetworkPolicy[]) {
  /** One side of a connection: the policies selecting `self` allow it to or from `other`. */
  function side(direction: 'Ingress' | 'Egress', self: Pod, other: Endpoint, connection: Connection): boolean {
    const selecting = policies.filter((p) => {
      const types = p.spec.policyTypes ?? ['Ingress', ...(p.spec.egress ? ['Egress'] : [])];
      return namespaceOf(self) === namespace && types.includes(direction) && selects(p.spec.podSelector, self.labels);
    });
    if (selecting.length === 0) return true;
    const receiver = direction === 'Egress' ? other : self;
    return selecting.some((p) =>
      (direction === 'Egress' ? p.spec.egress : p.spec.ingress)?.some((rule) => {
        const peers = direction === 'Egress' ? rule.to : rule.from;
        return (!peers?.length || peers.some((peer) => peerMatches(peer, other, self))) && (!rule.ports?.length || rule.ports.some((r) => portMatches(r, connection, receiver)));
      }),
    );
  }
  /** Whether `from` may send to `to`. */
  const allowsOut = (from: Pod, to: Endpoint, connection: Connection) => side('Egress', from, to, connection);
  /** Whether `to` may receive from `from`. */
  const allowsIn = (to: Pod, from: Endpoint, connection: Connection) => side('Ingress', to, from, connection);
  /** Whether a connection between two pods passes both the sender's egress and the receiver's ingress. */
  const reaches = (from: Pod, to: Pod, connection: Connection) => allowsOut(from, to, connection) && allowsIn(to, from, connection);
  return { allowsOut, allowsIn, reaches };
}
