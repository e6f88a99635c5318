import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// What every benchmark reports: percentiles of its timings, and its result in results/<name>.json.

const results = (file: string) => fileURLToPath(new URL(`../../results/${file}`, import.meta.url));

/**
 * p50, p90, p99 and max of the times, in ms with one decimal, by nearest rank: the smallest time
 * that p% of them do not exceed (the p99 of 100 times is the 99th fastest, of 50 the slowest).
 */
export function percentiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
  return { p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: at(100) };
}

/** Prints the result and writes it to results/<name>.json. */
export function writeResult(name: string, result: object) {
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(results(''), { recursive: true });
  writeFileSync(results(`${name}.json`), JSON.stringify(result, null, 2) + '\n');
}
