/**
 * How far the JavaScript heap may grow between collections, set before the runtime starts
 * (docs/operations.md "Memory").
 *
 * JavaScriptCore lets its heap grow to about three times what survived the last collection on
 * a host with 16 GB of RAM or more (its option `heapGrowthFunctionThresholdInMB`), and to twice
 * that below it. The appliance's work does not grow with its host's RAM: under webhook load the
 * threefold heap made the peak RSS 137–148 MB against 118–124 MB with the twofold one, at the
 * same CPU a request (BENCHMARKS.md "The heap's growth"). JSC reads its options from the
 * environment once, when the process starts (Bun: `BUN_JSC_` and the option's name), so the
 * shipped executable starts `serve` again in place (execve: the same PID, as systemd expects)
 * with the option set. An operator's own value of it is kept.
 */
export const HEAP_GROWTH_OPTION = 'BUN_JSC_heapGrowthFunctionThresholdInMB';
/** Above any host's RAM, in MB: the growth proportional to the host is never used. */
const NEVER_MB = '100000000';

export interface Exec {
  path: string;
  args: string[];
  env: Record<string, string | undefined>;
}

/**
 * What to run in place of this process, or null to go on. Only the compiled executable's
 * `serve` (the long-lived process; Bun names a compiled program's own code `/$bunfs/…` in
 * argv[1]): a CLI command ends before its heap matters, and a run from source keeps the flags
 * its developer gave Bun.
 */
export function heapGrowthExec(argv: readonly string[], env: Record<string, string | undefined>, execPath: string): Exec | null {
  const compiled = argv[1]?.startsWith('/$bunfs/') ?? false;
  const args = argv.slice(2);
  if (!compiled || !args.includes('serve') || env[HEAP_GROWTH_OPTION] !== undefined) return null;
  return { path: execPath, args: [execPath, ...args], env: { ...env, [HEAP_GROWTH_OPTION]: NEVER_MB } };
}
