// The errors the CLI turns into exit codes: a leaf module (it imports nothing from src/), so any layer may throw them.
// `rlaifv` exits with `exitCode` for these and 1 for anything else (docs/cli.md#exit-codes is the contract).

/** The base of every error that carries its own exit code; the CLI reads `exitCode` by `instanceof`, never by name. */
export abstract class RlaifvError extends Error {
  /** 2: bad usage, config or input (the user can fix the call); 1: a runtime failure. */
  abstract readonly exitCode: 1 | 2;
}

/** A bad flag or flag value, or a request a command cannot do as asked (exit 2); the message names the flag. */
export class UsageError extends RlaifvError {
  override name = 'UsageError';
  readonly exitCode = 2 as const;
}

/** A configuration mistake (exit 2); the message names the file and field and says what is allowed. */
export class ConfigError extends RlaifvError {
  override name = 'ConfigError';
  readonly exitCode = 2 as const;
}

/** Bad input: a missing or unreadable file, a bad line or field, an unknown round (exit 2); the message names it. */
export class InputError extends RlaifvError {
  override name = 'InputError';
  readonly exitCode = 2 as const;
}

/** A failure while running that no change of the call would fix (exit 1), for throw sites that want to say so. */
export class RuntimeFailure extends RlaifvError {
  override name = 'RuntimeFailure';
  readonly exitCode = 1 as const;
}

/** The exit code an error ends the CLI with: its own for an RlaifvError, else 1. */
export function exitCodeOf(e: unknown): 1 | 2 {
  return e instanceof RlaifvError ? e.exitCode : 1;
}
