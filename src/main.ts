#!/usr/bin/env bun
import { heapGrowthExec } from './heap-growth';

// The heap's growth is read when the runtime starts: `serve` starts again in place with it set
// (heap-growth.ts), before anything else is loaded or opened.
const again = heapGrowthExec(process.argv, process.env, process.execPath);
if (again) {
  try {
    process.execve!(again.path, again.args, again.env);
  } catch (err) {
    // Only memory is at stake: serve as this process is rather than not at all.
    console.error(`voice-alert: the heap's growth was not set (${(err as Error).message}); serving with the runtime's default`);
  }
}
// The single executable's entry point: every subcommand, `serve` included.
const { runCli } = await import('./cli');
process.exitCode = await runCli(process.argv.slice(2));
