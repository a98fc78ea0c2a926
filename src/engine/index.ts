export { createEngine, type Engine, type EngineOptions } from './engine';
export type { LoopSpec } from './loop';
