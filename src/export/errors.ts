// Errors of exports, pulls and queries that are the caller's to fix.
import { InputError } from '../errors.js';

/**
 * Bad input to an export, a pull or a query: an unknown round, a refused statement, a format that cannot go where it
 * was asked to. An InputError, so the CLI exits 2 on it, as on every bad-input error.
 */
export class ExportInputError extends InputError {
  override name = 'ExportInputError';
}
