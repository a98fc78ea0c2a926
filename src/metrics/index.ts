export { metrics, instrumentRegistry, observeCommit, type Metrics } from './instruments';
export { promClient, type PromClient } from './prom-client';
export { createScrapeRegistry, type ScrapeSources } from './scrape-gauges';
