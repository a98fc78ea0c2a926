#!/usr/bin/env bun
import { runCli } from './cli';

// The single executable's entry point: every subcommand, `serve` included.
process.exitCode = await runCli(process.argv.slice(2));
