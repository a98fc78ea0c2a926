import type * as Prom from 'prom-client';

/** The parts of prom-client the appliance uses. */
export interface PromClient {
  Counter: typeof Prom.Counter;
  Gauge: typeof Prom.Gauge;
  Histogram: typeof Prom.Histogram;
  Registry: typeof Prom.Registry;
}

let loaded: PromClient | null = null;

/**
 * prom-client, the one place it is loaded (everything else imports its types only), on first
 * use and from its own files rather than its index: the index also loads the push gateway
 * (node:http, node:https, node:zlib), the cluster aggregator and Summary's t-digest, none of
 * which the appliance uses, and a short CLI command, which moves no metric, paid ~40 ms of
 * its start for them (docs/development.md "The suite's length"). The files are the ones the
 * index itself requires (node_modules/prom-client/index.js), so the classes are the same.
 */
export function promClient(): PromClient {
  loaded ??= {
    Counter: require('prom-client/lib/counter'),
    Gauge: require('prom-client/lib/gauge'),
    Histogram: require('prom-client/lib/histogram'),
    Registry: require('prom-client/lib/registry'),
  };
  return loaded;
}
