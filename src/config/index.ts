export { configSchema, type Config } from './schema';
export { loadConfig, ConfigError, DEFAULT_CONFIG_PATH, type LoadConfigOptions } from './load';
export { parseHostPort, type HostPort } from './host-port';
export { envName } from './env-overrides';
export { publicBaseUrl, type PublicUrlConfig } from './public-url';
export { commandBaseUrl, recordListening, recordedListening, listenRecordPath } from './listen-record';
export { sipTrunks } from './sections/sip';
