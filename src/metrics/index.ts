export { metrics, instrumentRegistry } from './instruments';
export { createScrapeRegistry, type ScrapeSources } from './scrape-gauges';
