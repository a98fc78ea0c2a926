export * from './plans';
export * from './period';
