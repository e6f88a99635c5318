import { readdirSync, readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import * as models from 'kubernetes-models';
import { describe, expect, it } from 'vitest';
import { apps, callees, k8s, k8sEnv, manifests, ofKind, root, settingPrefix } from './deployment.ts';
import { network, type Pod } from './network-policy.ts';

// The Kubernetes manifests beyond each app's settings (deploy.test.ts): they validate against the
// API's schemas, pods hold no API token, disruption budgets let drains through without emptying a
// service, the network policies let each app reach what it calls and nothing else, and the
// Ingress, probes and metrics name what the apps serve.

const NAMESPACE = 'quire';
const namespace = (name: string) => ({ 'kubernetes.io/metadata.name': name });
type Port = { name: string; containerPort: number };

const pods = new Map(
  apps.map((a) => {
    const template = k8s('Deployment', a.name).spec.template;
    const ports = template.spec.containers.flatMap((c: { ports?: Port[] }) => (c.ports ?? []).map((p) => [p.name, p.containerPort]));
    return [a.name, { namespace: namespace(NAMESPACE), labels: template.metadata.labels, ports: Object.fromEntries(ports) } as Pod];
  }),
);
const pod = (name: string) => pods.get(name)!;
const net = network(NAMESPACE, ofKind('NetworkPolicy'));

const dns: Pod = { namespace: namespace('kube-system'), labels: { 'k8s-app': 'kube-dns' } };
const ingressController: Pod = { namespace: namespace('ingress-nginx'), labels: { 'app.kubernetes.io/name': 'ingress-nginx' } };
const prometheus: Pod = { namespace: namespace('monitoring'), labels: { 'app.kubernetes.io/name': 'prometheus' } };
/** A store running in the cluster, in a namespace of its own. */
const storePod: Pod = { namespace: namespace('databases'), labels: { app: 'store' } };
/** Pods that are not Quire's: one started by hand in its namespace, one in another wearing an app's labels. */
const debugPod: Pod = { namespace: namespace(NAMESPACE), labels: { run: 'debug' } };
const lookalike: Pod = { namespace: namespace('default'), labels: { 'app.kubernetes.io/name': 'gateway' } };
const strangers = [debugPod, lookalike];
/** Any public address (TEST-NET-3), private ones, the cloud metadata service, the Kubernetes API. */
const PUBLIC = { ip: '203.0.113.10' };
const PRIVATE = ['10.20.0.5', '172.16.4.2', '192.168.1.9'].map((ip) => ({ ip }));
const METADATA = { ip: '169.254.169.254' };
const KUBERNETES_API = { ip: '10.96.0.1' };
/** The ports an escape would try. */
const PROBE_PORTS = [22, 25, 53, 80, 443, 3306, 4222, 5432, 6443, 8080, 8123, 8443, 9000];
/** The stores an app's settings name, with the ports their clients speak. */
const STORES: Record<string, number[]> = { DATABASE_URL: [5432], NATS_URL: [4222], CLICKHOUSE_URL: [8123, 8443] };
const WEB_PORTS = [80, 443];

const sources = (app: string) =>
  (readdirSync(`${root}apps/${app}/src`, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('generated'))
    .map((f) => readFileSync(`${root}apps/${app}/src/${f}`, 'utf8'));
/** The apps that fetch URLs users give (through service-kit's outbound filter): imports, Git remotes, OIDC providers. */
const fetchesUserUrls = (app: string) => sources(app).some((s) => /import \{[^}]*\b(checkPublicUrl|fetchPublic)\b[^}]*\} from '@quire\/service-kit\/outbound'/.test(s));

describe('k8s', () => {
  it('validates against the Kubernetes schemas', () => {
    expect(manifests.length).toBeGreaterThan(0);
    for (const m of manifests) {
      const Model = modelOf(m.apiVersion, m.kind);
      expect(Model, `${m.apiVersion} ${m.kind} has a schema`).toBeDefined();
      expect(() => new Model!(m).validate(), `${m.kind}/${m.metadata.name}`).not.toThrow();
    }
  });

  it('mounts no service account token in any pod', () => {
    for (const d of ofKind('Deployment')) expect(d.spec.template.spec.automountServiceAccountToken, d.metadata.name).toBe(false);
  });

  it.each(ofKind('Deployment').map((d) => [d.metadata.name, d]))('%s: a disruption budget keeps one pod serving and lets a drain through', (name, d) => {
    const labels = d.spec.template.metadata.labels as Record<string, string>;
    const budgets = ofKind('PodDisruptionBudget').filter((b) => Object.entries(b.spec.selector.matchLabels).every(([k, v]) => labels[k] === v));
    expect(budgets.map((b) => b.metadata.name)).toEqual([name]);
    const { minAvailable, maxUnavailable, unhealthyPodEvictionPolicy } = budgets[0].spec;
    const replicas: number = d.spec.replicas ?? 1;
    const evictable = minAvailable !== undefined ? replicas - minAvailable : maxUnavailable;
    expect(evictable, 'a drain may evict a pod').toBeGreaterThanOrEqual(1);
    if (replicas >= 2) expect(replicas - evictable, 'one pod keeps serving').toBeGreaterThanOrEqual(1);
    expect(unhealthyPodEvictionPolicy, 'pods that are not ready do not hold up a drain').toBe('AlwaysAllow');
  });
});

describe('k8s network policies', () => {
  it('deny whatever they do not allow, both ways, for every pod', () => {
    const denyAll = ofKind('NetworkPolicy').filter((p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress && !p.spec.egress);
    expect(denyAll.flatMap((p) => p.spec.policyTypes).sort()).toEqual(['Egress', 'Ingress']);
    expect(net.allowsOut(debugPod, PUBLIC, { port: 443 })).toBe(false);
    for (const a of apps) for (const port of Object.values(pod(a.name).ports!)) expect(net.allowsIn(pod(a.name), debugPod, { port }), a.name).toBe(false);
  });

  it.each(apps.map((a) => [a.name, a]))('%s: reaches the cluster DNS and exactly the services it calls', (name, app) => {
    for (const protocol of ['UDP', 'TCP'] as const) {
      expect(net.allowsOut(pod(name), dns, { port: 53, protocol }), `DNS over ${protocol}`).toBe(true);
      expect(net.allowsOut(pod(name), { ip: '8.8.8.8' }, { port: 53, protocol }), 'DNS elsewhere').toBe(false);
    }
    const calls = callees(app);
    // HTTP an app passes on to another (the gateway's `/collab`): its `<APP>_UPSTREAM_URL` set in its Deployment.
    const passesTo = (other: string) => Boolean(k8sEnv(name)?.get(`${settingPrefix(other)}_UPSTREAM_URL`));
    for (const other of apps.filter((a) => a.name !== name)) {
      for (const [portName, port] of Object.entries(pod(other.name).ports!)) {
        const expected = portName === 'grpc' ? calls.includes(other.name) : portName === 'http' && passesTo(other.name);
        expect(net.allowsOut(pod(name), pod(other.name), { port }), `${name} → ${other.name}:${portName}`).toBe(expected);
        if (portName === 'grpc') expect(net.reaches(pod(name), pod(other.name), { port }), `${name} → ${other.name} end to end`).toBe(expected);
      }
    }
  });

  it.each(apps.filter((a) => a.portSetting).map((a) => [a.name]))('%s: only its callers reach its gRPC port, Prometheus its metrics', (name) => {
    const { grpc, metrics } = pod(name).ports!;
    for (const caller of apps) expect(net.allowsIn(pod(name), pod(caller.name), { port: grpc! }), caller.name).toBe(callees(caller).includes(name));
    for (const stranger of [...strangers, ingressController]) expect(net.allowsIn(pod(name), stranger, { port: grpc! })).toBe(false);
    expect(net.allowsIn(pod(name), prometheus, { port: metrics! })).toBe(true);
    expect(net.allowsIn(pod(name), prometheus, { port: grpc! })).toBe(false);
  });

  it('lets the ingress controller reach the gateway and the reader, and no one else from outside', () => {
    for (const name of ['gateway', 'reader']) {
      const { http, metrics } = pod(name).ports!;
      expect(net.allowsIn(pod(name), ingressController, { port: http! }), name).toBe(true);
      expect(net.allowsIn(pod(name), ingressController, { port: metrics! }), `${name} metrics`).toBe(false);
      for (const stranger of strangers) expect(net.allowsIn(pod(name), stranger, { port: http! }), name).toBe(false);
      expect(net.allowsIn(pod(name), PUBLIC, { port: http! }), `${name} from an address`).toBe(false);
    }
  });

  it.each(apps.map((a) => [a.name, a]))('%s: reaches the stores its settings name, in the cluster or on private addresses only', (name, app) => {
    for (const [setting, ports] of Object.entries(STORES)) {
      const uses = setting in app.schema.properties;
      for (const port of ports) {
        for (const store of [storePod, ...PRIVATE]) expect(net.allowsOut(pod(name), store, { port }), `${setting} :${port}`).toBe(uses);
        expect(net.allowsOut(pod(name), PUBLIC, { port }), `${setting} :${port} on a public address`).toBe(false);
      }
    }
  });

  it.each(apps.map((a) => [a.name]))('%s: reaches public web addresses only if it fetches URLs users give', (name) => {
    const entitled = fetchesUserUrls(name);
    expect(net.allowsOut(pod(name), PUBLIC, { port: 443 })).toBe(entitled);
    for (const port of PROBE_PORTS.filter((p) => !WEB_PORTS.includes(p))) expect(net.allowsOut(pod(name), PUBLIC, { port }), `:${port}`).toBe(false);
    for (const address of PRIVATE) for (const port of WEB_PORTS) expect(net.allowsOut(pod(name), address, { port }), `${address.ip}:${port}`).toBe(false);
  });

  it('an attacker in any pod reaches neither the cloud metadata service nor the Kubernetes API', () => {
    for (const a of apps) {
      for (const port of PROBE_PORTS) expect(net.allowsOut(pod(a.name), METADATA, { port }), `${a.name} → metadata:${port}`).toBe(false);
      for (const port of [443, 6443]) expect(net.allowsOut(pod(a.name), KUBERNETES_API, { port }), `${a.name} → API:${port}`).toBe(false);
    }
  });

  it('an attacker in review, which prints user pages in Chromium, gets nothing out to a public address', () => {
    expect(fetchesUserUrls('review')).toBe(false);
    for (const port of PROBE_PORTS) expect(net.allowsOut(pod('review'), PUBLIC, { port }), `:${port}`).toBe(false);
  });
});

describe('k8s Ingress', () => {
  const [ingress] = ofKind('Ingress');
  const config = k8sEnv('gateway')!;
  type Rule = { host: string; http: { paths: { backend: { service: { name: string; port: { number?: number; name?: string } } } }[] } };
  it('routes the API and the sites from their configured hosts to Service ports that exist, over TLS', () => {
    const routes = (ingress.spec.rules as Rule[]).flatMap((r) => r.http.paths.map((p) => ({ host: r.host, ...p.backend.service })));
    expect(routes.map((r) => [r.host, r.name])).toEqual([
      [new URL(config.get('QUIRE_PUBLIC_URL')!).hostname, 'gateway'],
      [new URL(config.get('QUIRE_READER_URL')!).hostname, 'reader'],
    ]);
    for (const route of routes) {
      const ports: { name: string; port: number; targetPort: string }[] = k8s('Service', route.name).spec.ports;
      const port = ports.find((p) => p.port === route.port.number || p.name === route.port.name);
      expect(port, `${route.name} Service port`).toBeDefined();
      const env = k8sEnv(route.name)!;
      const listens = Number(env.get(`${settingPrefix(route.name)}_PORT`) ?? env.get('PORT'));
      expect(pod(route.name).ports![port!.targetPort], `${route.name} listens there`).toBe(listens);
    }
    expect(ingress.spec.tls.flatMap((t: { hosts: string[] }) => t.hosts).sort()).toEqual(routes.map((r) => r.host).sort());
    for (const t of ingress.spec.tls) expect(t.secretName).toBeTruthy();
  });
});

describe('k8s probes and metrics', () => {
  /** The paths an HTTP app routes (`app.get('/healthz', ...)`, or a request handler's `url === '/ready'`). */
  const served = (app: string) => sources(app).flatMap((s) => [...s.matchAll(/(?:\.get\(\s*|url === )'(\/[^']*)'/g)].map((m) => m[1]));

  it.each(apps.filter((a) => !a.portSetting).map((a) => [a.name, a]))('%s: probes ask routes it serves; TRUST_PROXY names its proxies', (name, app) => {
    const container = k8s('Deployment', name).spec.template.spec.containers[0];
    for (const probe of [container.livenessProbe, container.readinessProbe]) {
      expect(served(name), `${name} serves ${probe.httpGet.path}`).toContain(probe.httpGet.path);
      expect(probe.httpGet.port).toBe('http');
    }
    const trustProxy = k8sEnv(name)!.get('TRUST_PROXY');
    expect(trustProxy, 'the ingress controller forwards client addresses').toBeTruthy();
    expect(trustProxy, 'trusting every sender would let clients forge their address').not.toBe('true');
    const setting = (app.schema.properties as Record<string, TSchema>).TRUST_PROXY;
    if (setting) expect(Value.Check(setting, trustProxy)).toBe(true);
  });

  it.each(apps.map((a) => [a.name]))('%s: the metrics port is declared, scraped and in its Service', (name) => {
    const template = k8s('Deployment', name).spec.template;
    const port = Number(k8sEnv(name)!.get('METRICS_PORT'));
    expect(pod(name).ports!.metrics).toBe(port);
    expect(template.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port) });
    expect(k8s('Service', name).spec.ports).toContainEqual(expect.objectContaining({ name: 'metrics', port, targetPort: 'metrics' }));
  });
});

type Model = new (o: unknown) => { validate(): void };

/** The kubernetes-models class of an object: `apps/v1` Deployment is `apps.v1.Deployment`, `v1` Service is `v1.Service`. */
function modelOf(apiVersion: string, kind: string): Model | undefined {
  const all = models as unknown as Record<string, Record<string, Model> | Record<string, Record<string, Model>>>;
  if (!apiVersion.includes('/')) return (all[apiVersion] as Record<string, Model> | undefined)?.[kind];
  const [group, version] = apiVersion.split('/') as [string, string];
  const module = all[group.replace(/\.(\w)/g, (_s, c: string) => c.toUpperCase())] as Record<string, Record<string, Model>> | undefined;
  return module?.[version]?.[kind];
}
