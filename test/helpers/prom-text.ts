/**
 * A strict reader of the Prometheus text exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/): it throws on anything a
 * scraper would reject or misread — a sample before its family's TYPE, a family declared
 * twice, a bad metric or label name, a badly escaped label value, a value that is not a
 * float, a histogram without its +Inf bucket or whose buckets do not add up to _count.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SUFFIXES: Record<Family['type'], string[]> = {
  counter: ['', '_total'],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a float: ${line}`);
  return Number(text);
}

/** `{a="x",b="y\"z"}` → labels; the rest of the line after the closing brace. */
function parseLabels(text: string, line: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  while (text[i] !== '}') {
    const eq = text.indexOf('=', i);
    const name = text.slice(i, eq);
    if (eq < 0 || !LABEL.test(name) || text[eq + 1] !== '"') throw new Error(`bad label: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in label value: ${line}`);
      } else value += text[j];
    }
    if (j >= text.length) throw new Error(`unterminated label value: ${line}`);
    if (name in labels) throw new Error(`label repeated: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`expected , or }: ${line}`);
  }
  return { labels, rest: text.slice(i + 1) };
}

export function parsePromText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const typed = new Set<string>();
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name: ${line}`);
      const f = families.get(name) ?? { name, type: 'untyped' as const, help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!(rest in SUFFIXES)) throw new Error(`unknown type: ${line}`);
        if (f.samples.length > 0 || typed.has(name)) throw new Error(`TYPE after samples or twice: ${line}`);
        typed.add(name);
        f.type = rest as Family['type'];
      } else f.help = rest;
      families.set(name, f);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)( -?\d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const [, name, braces, value] = m as unknown as [string, string, string | undefined, string];
    const labels = braces ? parseLabels(braces, line) : { labels: {}, rest: '' };
    if (labels.rest !== '') throw new Error(`text after the labels: ${line}`);
    const family = [...families.values()].find((f) => SUFFIXES[f.type].some((s) => f.name + s === name));
    if (!family) throw new Error(`sample before its TYPE: ${line}`);
    family.samples.push({ name, labels: labels.labels, value: parseValue(value, line) });
  }
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(rest);
    series.set(key, [...(series.get(key) ?? []), s]);
  }
  for (const [key, samples] of series) {
    const buckets = samples.filter((s) => s.name.endsWith('_bucket'));
    const count = samples.find((s) => s.name.endsWith('_count'));
    const inf = buckets.find((b) => b.labels.le === '+Inf');
    if (!inf || !count || !samples.some((s) => s.name.endsWith('_sum'))) throw new Error(`histogram ${f.name}${key} lacks +Inf, _sum or _count`);
    if (inf.value !== count.value) throw new Error(`histogram ${f.name}${key}: +Inf bucket ${inf.value} != _count ${count.value}`);
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`histogram ${f.name}${key}: buckets not cumulative`);
    }
  }
}

/** The value of the one sample `name` with exactly these labels (those given; others ignored), or undefined. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const f of families.values()) {
    const s = f.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
    if (s) return s.value;
  }
  return undefined;
}
