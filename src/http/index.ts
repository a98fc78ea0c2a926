export { createHttpApp, type HttpApp } from './app';
export type { HttpDeps } from './deps';
export { createRateLimiter, type RateLimiter } from './rate-limit';
export { serveOptions } from './serve-options';
export { certificateFields, listen, type Listening } from './listen';
