import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, type Config } from '../../src/config';

/** Test helpers for src/tts (not imported by production code). */

export function ttsConfig(tts: Record<string, unknown> = {}, calls: Record<string, unknown> = {}): Config {
  return configSchema.parse({ tts, calls });
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'va-tts-'));
}

/** RMS in dBFS of `samples` after sox's own high-pass at `hz` (a real filter, not ours). */
export function rmsAboveDb(samples: Int16Array, rate: number, hz: number): number {
  const r = spawnSync(
    'sox',
    ['-t', 'raw', '-r', String(rate), '-e', 'signed', '-b', '16', '-c', '1', '-L', '-', '-n', 'sinc', String(hz), 'stat'],
    { input: Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength), encoding: 'utf8' },
  );
  const m = /RMS\s+amplitude:\s+([\d.e-]+)/.exec(r.stderr);
  if (!m) throw new Error(`sox stat failed: ${r.stderr}`);
  return 20 * Math.log10(Math.max(Number(m[1]), 1e-9));
}

export function rmsDb(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += (s / 32768) ** 2;
  return 10 * Math.log10(Math.max(sum / samples.length, 1e-18));
}

export function peak(samples: Int16Array): number {
  let p = 0;
  for (const s of samples) p = Math.max(p, Math.abs(s));
  return p / 32768;
}

/** 500 characters of Turkish alert text (a real-looking storm message). */
export const TURKISH_500 = (
  'Dikkat: İstanbul veri merkezindeki web sunucusu yanıt vermiyor. Disk kullanımı yüzde doksan beşi geçti, ' +
  'işlemci yükü on beş dakikadır yüksek. Güç kaynağı ikinci kez uyarı verdi, soğutma ünitesinin sıcaklığı ' +
  'kırk iki derece. Nöbetçi mühendisin sunucuyu kontrol etmesi, gerekirse yedek sisteme geçmesi gerekiyor. ' +
  'Müşteri siparişleri şu anda işlenemiyor; ödeme servisi de etkilendi. Ağ geçidi ile veri tabanı arasındaki ' +
  'bağlantı kesildi. Lütfen olay kaydını açın ve ekibi bilgilendirin. Çağrı tekrar edilecektir, teşekkürler.'
).slice(0, 500);
