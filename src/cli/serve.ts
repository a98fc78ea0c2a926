import { Command } from 'commander';
import { startAppliance, TlsSetupError, type Appliance } from '../appliance';
import { createLogger, describeError } from '../log';
import { checkSpeechEngine, SpeechError } from '../tts';
import { CliError, configFrom } from './context';
import { createDemoAccountIfEmpty } from './demo-account';
import { firstStartBanner } from './first-start';
import { publicBaseUrl, recordListening } from '../config';

export function serveCommand(): Command {
  return new Command('serve')
    .description('serve HTTP and place calls until SIGTERM')
    .option('--listen <host:port>', 'override http.listen')
    .option('--demo-account', 'on an empty database, create a demo Starter account and print its credentials')
    .action(async (opts, c: Command) => {
      const deprecated: string[] = [];
      const config = configFrom(c, { 'http.listen': opts.listen }, (m) => deprecated.push(m));
      const log = createLogger(config.log.level);
      for (const message of deprecated) log.warn(message);
      // No call can speak without espeak-ng and sox: refuse to start rather than accept
      // alerts that would fail at 3 a.m. (piper problems only warn: espeak-ng stands in).
      try {
        for (const warning of checkSpeechEngine(config).warnings) log.warn(warning);
      } catch (e) {
        if (e instanceof SpeechError) throw new CliError(e.message, 2);
        throw e;
      }
      // Installed first: SIGHUP's default action ends the process, and a renewal script
      // may send it at any time (docs/https.md "HTTPS"). Before the server is up there is nothing
      // to reload: the start reads the files itself.
      let reloadTls: (() => Promise<void>) | undefined;
      process.on('SIGHUP', () => {
        if (reloadTls) void reloadTls();
        else log.info('SIGHUP while starting: the certificate is read by the start itself');
      });
      let appliance: Appliance;
      try {
        appliance = await startAppliance({ config, log });
      } catch (e) {
        if (e instanceof TlsSetupError) throw new CliError(`cannot serve HTTPS: ${e.message}`, 2);
        throw e;
      }
      reloadTls = appliance.reloadTls;
      // For the CLI's URLs (config/listen-record.ts): a CLI process cannot see --listen or port 0.
      try {
        recordListening(config.store.path, appliance.url);
      } catch (e) {
        log.warn({ error: describeError(e) }, 'could not record the listening address: CLI commands print URLs from http.listen');
      }
      const banner = await firstStartBanner(appliance.store, {
        baseUrl: publicBaseUrl(config, appliance.url),
        store: config.store,
        ...(c.optsWithGlobals().config ? { configPath: c.optsWithGlobals().config as string } : {}),
      });
      if (banner) process.stderr.write(banner + '\n');
      if (opts.demoAccount) {
        const text = await createDemoAccountIfEmpty(appliance.services, appliance.store, publicBaseUrl(config, appliance.url));
        if (text) process.stderr.write(text + '\n');
      }
      // Logged last: scripts and tests take this line as "ready".
      // With TLS the certificate's fingerprint is on it, for users who pin it (docs/https.md
      // "HTTPS").
      const plain = appliance.plainUrl ? { plainUrl: appliance.plainUrl } : {};
      log.info({ url: appliance.url, ...plain, database: config.store.path, ...appliance.tls }, 'voice-alert listening');
      await new Promise<void>((resolve) => {
        let stopping = false;
        const onSignal = (signal: NodeJS.Signals) => {
          if (stopping) {
            log.warn({ signal }, 'second signal: exiting at once');
            process.exit(130);
          }
          stopping = true;
          log.info({ signal }, 'stopping: no new requests, finishing those in flight');
          appliance.stop().then(resolve, (e) => {
            log.error({ error: describeError(e) }, 'stop failed');
            process.exit(1);
          });
        };
        process.on('SIGTERM', onSignal);
        process.on('SIGINT', onSignal);
      });
    });
}
