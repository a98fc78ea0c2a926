export { metrics, instrumentRegistry, observeCommit } from './instruments';
export { createScrapeRegistry, type ScrapeSources } from './scrape-gauges';
