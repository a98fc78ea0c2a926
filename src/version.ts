import pkg from '../package.json' with { type: 'json' };

/** Baked into the binary at build time (the import is inlined by bun build). */
export const VERSION: string = pkg.version;
