/**
 * Reading /metrics as Prometheus would: the text exposition format 0.0.4, parsed strictly here
 * (the npm parser we tried, parse-prometheus-text-format, merges the series of a labelled histogram
 * into one). Every line must be a HELP or TYPE comment, or a sample of a declared family with
 * well-formed labels and a number; anything else fails the scrape.
 */
export interface Sample {
  /** The sample's own name (`x_count`, `x_bucket`, ...). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\[\\"n])*)"(?:,|$)/;
const SUFFIXES: Record<MetricType, string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export class Scrape {
  /** Family name to its declared type. */
  readonly types = new Map<string, MetricType>();
  readonly samples: Sample[] = [];

  constructor(readonly text: string) {
    for (const [index, line] of text.split('\n').entries()) {
      if (line === '' || line.startsWith('# HELP ')) continue;
      const fail = (why: string) => {
        throw new Error(`metrics line ${index + 1} ${why}: ${line}`);
      };
      const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
      if (type) {
        if (this.types.has(type[1])) fail('declares a family twice');
        this.types.set(type[1], type[2] as MetricType);
        continue;
      }
      const sample = SAMPLE.exec(line);
      if (!sample) fail('is not a sample');
      const [, name, labelText = '', valueText] = sample!;
      const family = [...this.types].find(([family, kind]) => SUFFIXES[kind].some((suffix) => `${family}${suffix}` === name));
      if (!family) fail('belongs to no declared family');
      const value = parseValue(valueText);
      if (value === undefined) fail('has no number');
      this.samples.push({ name, labels: parseLabels(labelText, fail), value: value! });
    }
  }

  hasFamily(name: string): boolean {
    return this.types.has(name);
  }

  /**
   * A counter's or gauge's value summed over the series whose labels include `labels`; for a
   * histogram, its `_count` (the number of observations) the same way. 0 when nothing matches yet.
   */
  value(family: string, labels: Record<string, string> = {}): number {
    const name = this.types.get(family) === 'histogram' ? `${family}_count` : family;
    return this.samples
      .filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
      .reduce((total, sample) => total + sample.value, 0);
  }

  /** Every value a label takes in a family's series. */
  labelValues(family: string, label: string): string[] {
    const name = this.types.get(family) === 'histogram' ? `${family}_count` : family;
    return [...new Set(this.samples.filter((s) => s.name === name && label in s.labels).map((s) => s.labels[label]))];
  }
}

/**
 * A sample's value as Prometheus reads it (Go's ParseFloat): a decimal or exponent number, or Inf,
 * Infinity and NaN in any case (prom-client writes an empty gauge's NaN as `Nan`).
 */
function parseValue(text: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : undefined;
}

function parseLabels(text: string, fail: (why: string) => never): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const label = LABEL.exec(rest);
    if (!label) fail('has malformed labels');
    if (label![1] in labels) fail(`repeats the label ${label![1]}`);
    labels[label![1]] = label![2].replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(label![0].length);
  }
  return labels;
}

/** GET /metrics on `base`: asserts a 200 in the text format, and parses it. */
export async function scrape(base: string, token?: string): Promise<Scrape> {
  const response = await fetch(`${base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status} ${text}`);
  if (!response.headers.get('content-type')?.startsWith('text/plain; version=0.0.4')) {
    throw new Error(`GET /metrics: content-type ${response.headers.get('content-type')}`);
  }
  return new Scrape(text);
}
